import type { CostRow } from '@/lib/cost';
import { categoryInsights, needsInsight, percentChange, serviceListLabel, summariseCategories } from './category-summary';

function row(service: string, amount: number): CostRow {
  return { service, amount, grouping_values: [service], grouping_path: service };
}

describe('service category summary', () => {
  it('adds services up per category, in category order, with the real previous spend', () => {
    const summaries = summariseCategories(
      [row('AmazonS3', 40), row('AmazonEC2', 100), row('Compute Engine', 50), row('AmazonRDS', 30)],
      [row('AmazonEC2', 120), row('AmazonS3', 10), row('Cloud SQL', 20)],
    );
    expect(summaries.map((s) => s.category)).toEqual(['Database', 'Compute', 'Storage']);
    const [database, compute, storage] = summaries;
    expect(compute).toMatchObject({ amount: 150, previousAmount: 120, change: 25 });
    expect(compute.services.map((s) => s.name)).toEqual(['AmazonEC2', 'Compute Engine']);
    expect(compute.services[0]).toEqual({ name: 'AmazonEC2', amount: 100, previousAmount: 120 });
    expect(storage).toMatchObject({ amount: 40, previousAmount: 10, change: 300 });
    expect(database).toMatchObject({ amount: 30, previousAmount: 20, change: 50 });
  });

  it('hides categories and services without spend', () => {
    const summaries = summariseCategories(
      [row('AmazonEC2', 10), row('AWSLambda', 0), row('AmazonS3', 5), row('Cloud Storage', -5), row('Compute Engine', 0.001)],
      [row('AWSLambda', 80)],
    );
    expect(summaries.map((s) => s.category)).toEqual(['Compute']);
    expect(summaries[0].services.map((s) => s.name)).toEqual(['AmazonEC2']);
    // Lambda had spend only before, and Serverless has none now: hidden with its category.
    expect(summaries[0].previousOnly).toEqual([]);
    expect(summariseCategories([], [])).toEqual([]);
  });

  it('keeps the services that had spend only in the previous period apart', () => {
    const [operations] = summariseCategories(
      [row('AmazonCloudWatch', 2_220)],
      [row('AmazonCloudWatch', 2_922), row('AWSSupportBusiness', 5_377), row('AWSCloudTrail', 10)],
    );
    expect(operations).toMatchObject({ category: 'Operations', amount: 2_220, previousAmount: 8_309 });
    expect(operations.services.map((s) => s.name)).toEqual(['AmazonCloudWatch']);
    expect(operations.previousOnly).toEqual([
      { name: 'AWSSupportBusiness', amount: 0, previousAmount: 5_377 },
      { name: 'AWSCloudTrail', amount: 0, previousAmount: 10 },
    ]);
  });

  it('has no change when the previous period had no spend', () => {
    const [compute] = summariseCategories([row('AmazonEC2', 10)], []);
    expect(compute.change).toBeNull();
    expect(percentChange(10, 0)).toBeNull();
    expect(percentChange(50, -100)).toBe(150);
  });

  it('lists the first 3 services, then "+N more"', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `S${i + 1}` }));
    expect(serviceListLabel(names(1))).toBe('S1');
    expect(serviceListLabel(names(3))).toBe('S1, S2, S3');
    expect(serviceListLabel(names(4))).toBe('S1, S2, S3 +1 more');
    expect(serviceListLabel(names(7))).toBe('S1, S2, S3 +4 more');
  });

  it('warns only when the change exceeds 25 %', () => {
    expect(needsInsight({ change: 25 })).toBe(false);
    expect(needsInsight({ change: 25.01 })).toBe(true);
    expect(needsInsight({ change: -60 })).toBe(false);
    expect(needsInsight({ change: null })).toBe(false);
    const summaries = summariseCategories(
      [row('AmazonEC2', 125), row('AmazonS3', 126), row('AmazonRDS', 300)],
      [row('AmazonEC2', 100), row('AmazonS3', 100), row('AmazonRDS', 100)],
    );
    expect(categoryInsights(summaries).map((s) => s.category)).toEqual(['Database', 'Storage']);
  });
});
