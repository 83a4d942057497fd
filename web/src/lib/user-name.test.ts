import { validateUserName } from './user-name';

describe('user-name rules (spec 2 §5)', () => {
  it.each([
    ['', 'Username cannot be empty'],
    ['    ', 'Username cannot be empty'],
    [' Anna', "Can't start with a space"],
    ['Ann    Lee', 'Too many consecutive spaces'],
    ['Ann', 'Must be at least 4 characters'],
  ])('%j → %s', (name, message) => {
    expect(validateUserName(name)).toBe(message);
  });

  it('accepts a good name, ignoring trailing spaces', () => {
    expect(validateUserName('Anna Lee')).toBeNull();
    expect(validateUserName('Anna   Lee  ')).toBeNull();
  });
});
