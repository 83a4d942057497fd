import { describe, expect, it } from 'vitest';
import { BYTE_ORDER_MARK, budgetCsv, budgetFileName } from './budget-downloads';

const now = new Date('2026-11-23T22:00:00Z');

describe('budgetFileName', () => {
  it('names the file with the kind, the UTC day, the budget name and the resolution', () => {
    expect(budgetFileName('spending', 'Production AWS', 'daily', 'csv', now)).toBe('budget-spending-2026-11-23-Production-AWS-daily.csv');
    expect(budgetFileName('spending', 'Production AWS', 'weekly', 'png', now)).toBe('budget-spending-2026-11-23-Production-AWS-weekly.png');
  });

  it('replaces characters a file name cannot hold', () => {
    expect(budgetFileName('resources', ' Team: A/B  "core" ', 'all', 'csv', now)).toBe('budget-resources-2026-11-23-Team-A-B-core-all.csv');
    expect(budgetFileName('spending', '***', 'monthly', 'csv', now)).toBe('budget-spending-2026-11-23-budget-monthly.csv');
  });
});

describe('budgetCsv', () => {
  it('starts with a byte order mark and escapes cells the shared way', () => {
    const csv = budgetCsv({ header: ['Date', 'Spending'], rows: [['2026-11-01', 12.5], ['=SUM(A1)', 'a,b']] });
    expect(csv.startsWith(BYTE_ORDER_MARK)).toBe(true);
    expect(csv.slice(1)).toBe("Date,Spending\n2026-11-01,12.5\n'=SUM(A1),\"a,b\"\n");
  });
});
