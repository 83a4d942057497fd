import type { CostRow } from '@/lib/cost';
import { onDemandRows, previousGenerationRows } from './usage-findings';

function row(cloud_provider: string, usage_type: string, amount: number): CostRow {
  return { cloud_provider, service: 'svc', account: 'acct', usage_type, amount, grouping_values: [cloud_provider, 'svc', 'acct', usage_type], grouping_path: usage_type };
}

const rows = [
  row('aws', 'BoxUsage:m5.large', 100),
  row('aws', 'USW2-BoxUsage:t2.micro', 12.5),
  row('aws', 'EBS:VolumeUsage.gp3', 40),
  row('gcp', 'N1 Predefined Instance Core running in Americas', 7.5),
  row('gcp', 'N2 Instance Core running in Americas', 30),
  row('aws', 'BoxUsage:m4.large', 0),
];

describe('usage findings', () => {
  it('keeps the rows naming a previous-generation family, with the family and their total', () => {
    const found = previousGenerationRows(rows);
    expect(found.rows.map((r) => [r.usage_type, r.family])).toEqual([
      ['USW2-BoxUsage:t2.micro', 't2'],
      ['N1 Predefined Instance Core running in Americas', 'N1'],
    ]);
    expect(found.total).toBe(20);
  });

  it('keeps the on-demand compute rows and their total, leaving out rows without cost', () => {
    const found = onDemandRows(rows);
    expect(found.rows.map((r) => r.usage_type)).toEqual([
      'BoxUsage:m5.large',
      'USW2-BoxUsage:t2.micro',
      'N1 Predefined Instance Core running in Americas',
      'N2 Instance Core running in Americas',
    ]);
    expect(found.total).toBe(150);
  });

  it('finds nothing in nothing', () => {
    expect(previousGenerationRows([])).toEqual({ rows: [], total: 0 });
  });
});
