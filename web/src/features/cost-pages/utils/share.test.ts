import { shareOf } from './share';

describe('shareOf', () => {
  it('gives the share with one decimal', () => {
    expect(shareOf(25, 200)).toBe('12.5%');
    expect(shareOf(1, 3)).toBe('33.3%');
  });

  it('shows a credit as a negative share', () => {
    expect(shareOf(-10, 100)).toBe('-10.0%');
  });

  it('has no share of a total that is zero or negative', () => {
    expect(shareOf(5, 0)).toBe('—');
    expect(shareOf(5, -1)).toBe('—');
  });
});
