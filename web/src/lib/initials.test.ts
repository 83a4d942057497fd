import { initials } from './initials';

describe('initials', () => {
  it('takes the first letters of the first two words', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('ada mary lovelace')).toBe('AM');
  });

  it('uses one letter for a one-word name', () => {
    expect(initials('Cher')).toBe('C');
  });

  it('ignores extra whitespace and copes with empty names', () => {
    expect(initials('  grace   hopper ')).toBe('GH');
    expect(initials('')).toBe('');
    expect(initials(undefined)).toBe('');
  });
});
