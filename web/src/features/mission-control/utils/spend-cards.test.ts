import { formatShare } from '@/lib/cost';
import { creditBand, creditsConsumption, providerShares, refundsReceived } from './spend-cards';

describe('spend card numbers', () => {
  it('colour the credits bar green below 60 %, amber to under 80 %, red from 80 %', () => {
    expect(creditBand(0)).toBe('green');
    expect(creditBand(59.9)).toBe('green');
    expect(creditBand(60)).toBe('amber');
    expect(creditBand(79.9)).toBe('amber');
    expect(creditBand(80)).toBe('red');
    expect(creditBand(140)).toBe('red');
  });

  it('take credits as a share of the spend before credits and refunds', () => {
    const period = { total_amount: 700, cost_type: { Usage: 1000, Credit: -250, Refund: -50 } };
    expect(creditsConsumption(period)).toEqual({ credits: 250, grossSpend: 1000, percent: 25 });
    expect(refundsReceived(period)).toBe(50);
    expect(creditsConsumption({ total_amount: 0, cost_type: { Credit: 0, Refund: 0 } })).toEqual({ credits: 0, grossSpend: 0, percent: null });
  });

  it('give each provider with spend its share, largest first, with bars at least 2 % wide', () => {
    const shares = providerShares({ AWS: 9_900, GCP: 0, Azure: 100 });
    expect(shares.map((s) => s.provider)).toEqual(['AWS', 'Azure']);
    expect(shares[0]).toEqual({ provider: 'AWS', amount: 9_900, share: 99, width: 99 });
    expect(shares[1]).toEqual({ provider: 'Azure', amount: 100, share: 1, width: 2 });
    expect(providerShares({ AWS: 97.5, GCP: 2.5 })[1].width).toBe(2.5);
  });

  it('has no provider bars when no provider has spend', () => {
    expect(providerShares({ AWS: 0, GCP: 0, Azure: 0 })).toEqual([]);
    expect(providerShares({})).toEqual([]);
  });

  it('gives a provider whose credits exceed its charges no bar', () => {
    expect(providerShares({ AWS: 100, GCP: -20 })).toEqual([
      { provider: 'AWS', amount: 100, share: 100, width: 100 },
      { provider: 'GCP', amount: -20, share: 0, width: 0 },
    ]);
  });

  it('formats shares with 1 decimal', () => {
    expect(formatShare(42.46)).toBe('42.5%');
    expect(formatShare(100)).toBe('100.0%');
  });
});
