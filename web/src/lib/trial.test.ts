import { formatDays, isTrialEnded, shouldShowTrialModal, trialDaysRemaining } from './trial';

const now = new Date('2026-11-22T12:00:00Z');
const DAY = 24 * 3600 * 1000;

describe('trial days', () => {
  it('counts whole days left until the trial end date', () => {
    expect(trialDaysRemaining(new Date(now.getTime() + 10 * DAY).toISOString(), now)).toBe(10);
    expect(trialDaysRemaining(new Date(now.getTime() + 2.5 * DAY).toISOString(), now)).toBe(3);
  });

  it('defaults to 30 days from now when the end date is missing or unreadable', () => {
    expect(trialDaysRemaining(undefined, now)).toBe(30);
    expect(trialDaysRemaining(null, now)).toBe(30);
    expect(trialDaysRemaining('not a date', now)).toBe(30);
  });

  it('ends at zero or fewer days', () => {
    expect(isTrialEnded(trialDaysRemaining(now.toISOString(), now))).toBe(true);
    expect(isTrialEnded(trialDaysRemaining(new Date(now.getTime() - 3 * DAY).toISOString(), now))).toBe(true);
    expect(isTrialEnded(1)).toBe(false);
  });

  it('formats singular and plural days', () => {
    expect(formatDays(1)).toBe('1 day');
    expect(formatDays(5)).toBe('5 days');
  });
});

describe('trial modal visibility', () => {
  const endIn = (days: number) => Math.floor((now.getTime() + days * DAY) / 1000);

  it('is hidden with 8 days left', () => {
    expect(shouldShowTrialModal({ Tier: 0, EndTime: endIn(8) }, now)).toBe(false);
  });

  it('shows with 7 days left and with none left', () => {
    expect(shouldShowTrialModal({ Tier: 0, EndTime: endIn(7) }, now)).toBe(true);
    expect(shouldShowTrialModal({ Tier: 0, EndTime: endIn(0) }, now)).toBe(true);
  });

  it('needs the free tier and a known end time', () => {
    expect(shouldShowTrialModal({ Tier: 1, EndTime: endIn(3) }, now)).toBe(false);
    expect(shouldShowTrialModal({ Tier: 0, EndTime: null }, now)).toBe(false);
    expect(shouldShowTrialModal(undefined, now)).toBe(false);
  });
});
