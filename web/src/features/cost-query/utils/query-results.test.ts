import { formatShare, type CostRow } from '@/lib/cost';
import { queryCsv, queryRowLabel, shareOf, type CostQueryAnswer } from './query-results';

const row = (service: string, amount: number, extra: Partial<CostRow> = {}): CostRow => ({
  service,
  amount,
  grouping_values: [service],
  grouping_path: service,
  ...extra,
});

const answer = (data: CostRow[], total: number): CostQueryAnswer => ({
  data,
  summary: { accrued_cost: total, previous_cost: 0, currency: 'EUR' },
  total_groups: data.length,
  warnings: [],
  currency: 'EUR',
  converted: false,
  otherCurrencies: [],
});

describe('query results', () => {
  it('gives each row its share of the total', () => {
    expect(shareOf(25, 200)).toBe(12.5);
    expect(shareOf(5, 0)).toBeNull();
    expect(formatShare(12.5)).toBe('12.5%');
    expect(formatShare(1 / 3)).toBe('0.3%');
    expect(formatShare(0.01)).toBe('0.0%');
    expect(formatShare(null)).toBe('—');
  });

  it('labels accounts by name when the API has one', () => {
    expect(queryRowLabel({ account: '111', account_name: 'Production', amount: 1, grouping_values: ['111'], grouping_path: '111' }, 'account')).toBe('Production');
    expect(queryRowLabel({ account: '222', amount: 1, grouping_values: ['222'], grouping_path: '222' }, 'account')).toBe('222');
    expect(queryRowLabel(row('', 1), 'service')).toBe('Unknown');
  });

  it('exports rows, then the total, with the currency in the header and cells escaped', () => {
    const csv = queryCsv(answer([row('AmazonEC2', 150), row('=cmd|evil', 50)], 200), 'service');
    expect(csv).toBe('Service,Amount (EUR),Share %\nAmazonEC2,150,75\n\'=cmd|evil,50,25\nTotal,200,100\n');
    expect(queryCsv(answer([row('A, B', 0)], 0), 'service')).toBe('Service,Amount (EUR),Share %\n"A, B",0,\nTotal,0,\n');
  });
});
