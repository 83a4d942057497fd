import { barColor, DETAIL_STATUS_LABEL, percentOfAmount } from './health';

describe('DETAIL_STATUS_LABEL', () => {
  it.each([
    ['healthy', 'On Track'],
    ['warning', 'Approaching Limit'],
    ['exceeded', 'Exceeded Budget'],
  ] as const)("the server's %s reads %s", (status, label) => {
    expect(DETAIL_STATUS_LABEL[status]).toBe(label);
  });
});

describe('barColor', () => {
  it("is the colour of the server's dashboard status", () => {
    expect(barColor('healthy')).toBe('success');
    expect(barColor('warning')).toBe('warning');
    expect(barColor('critical')).toBe('error');
  });

  it('is grey only when a spend of zero is given', () => {
    expect(barColor('healthy', 0)).toBe('inherit');
    expect(barColor('healthy')).toBe('success');
    expect(barColor('critical', 10)).toBe('error');
  });
});

describe('percentOfAmount', () => {
  it('places a dollar value on the bar', () => {
    expect(percentOfAmount(4500, 5000)).toBe(90);
    expect(percentOfAmount(0, 5000)).toBe(0);
  });

  it('is 0 when the amount is 0 or negative', () => {
    expect(percentOfAmount(100, 0)).toBe(0);
    expect(percentOfAmount(100, -5)).toBe(0);
  });
});
