import { changeTypeLabel, describeConfigChange } from './config-change-description';

const updated = (fieldName: string, oldValue: unknown, newValue: unknown) => ({
  changeType: 'updated' as const,
  fieldName,
  oldValue,
  newValue,
});

describe('describeConfigChange', () => {
  it("says 'Budget created' for the creation, whose new value is the whole budget", () => {
    expect(describeConfigChange({ changeType: 'created', fieldName: null, oldValue: null, newValue: { name: 'Prod' } })).toBe(
      'Budget created',
    );
  });

  it('writes amounts in dollars, from numbers or JSON text', () => {
    expect(describeConfigChange(updated('amount', 5000, 6000))).toBe('Amount changed from $5,000 to $6,000');
    expect(describeConfigChange(updated('amount', '5000', '6000.4'))).toBe('Amount changed from $5,000 to $6,000');
  });

  it('quotes names, unwrapping JSON text but keeping names that look like numbers', () => {
    expect(describeConfigChange(updated('name', 'Prod', 'Production'))).toBe('Name changed from "Prod" to "Production"');
    expect(describeConfigChange(updated('name', '"Prod"', '2026'))).toBe('Name changed from "Prod" to "2026"');
  });

  it('names the period', () => {
    expect(describeConfigChange(updated('period', 'Monthly', '"Quarterly"'))).toBe('Period changed from Monthly to Quarterly');
  });

  it('lists filters by type label, from arrays or JSON text', () => {
    const before = [{ filterType: 'account', filterValues: ['123456789012'] }];
    const after = [
      { filterType: 'account', filterValues: ['123456789012', '210987654321'] },
      { filterType: 'region', filterValues: ['us-east-1'] },
    ];
    expect(describeConfigChange(updated('filters', before, JSON.stringify(after)))).toBe(
      'Filters changed from Account: 123456789012 to Account: 123456789012, 210987654321; Region: us-east-1',
    );
  });

  it('lists alerts as they are written', () => {
    const before = JSON.stringify([{ thresholdType: 'Percentage', thresholdValue: 75 }]);
    const after = [
      { thresholdType: 'Percentage', thresholdValue: 75 },
      { thresholdType: 'Absolute', thresholdValue: 4500 },
    ];
    expect(describeConfigChange(updated('alerts', before, after))).toBe('Alerts changed from 75% to 75%, $4,500');
    expect(describeConfigChange(updated('alerts', after, []))).toBe('Alerts changed from 75%, $4,500 to none');
  });

  it('falls back to the raw values for shapes it does not know', () => {
    expect(describeConfigChange(updated('filters', 'broken', null))).toBe('Filters changed from broken to none');
    expect(describeConfigChange(updated('owner', 'a', { b: 1 }))).toBe('owner changed from a to {"b":1}');
    expect(describeConfigChange({ changeType: 'updated', fieldName: null, oldValue: null, newValue: null })).toBe('Budget updated');
  });
});

describe('changeTypeLabel', () => {
  it('capitalises the change type', () => {
    expect(changeTypeLabel('created')).toBe('Created');
    expect(changeTypeLabel('updated')).toBe('Updated');
  });
});
