import { categoryInsights, largestAmount, serviceListLabel, toSummaries, type ServiceCategoriesResponse } from './category-summary';

type Category = ServiceCategoriesResponse['categories'][number];

function category(name: Category['category'], amount: number, change: number | null, insight = false): Category {
  return {
    category: name,
    amount,
    previous_amount: change === null ? 0 : amount / (1 + change / 100),
    percent_change: change,
    insight,
    services: [{ name: `${name} service`, amount, previous_amount: 0, percent_change: null }],
    previous_only: [{ name: 'Gone', amount: 0, previous_amount: 7, percent_change: -100 }],
  };
}

describe('service category summary', () => {
  it('shapes the server answer for the screen, in the server order', () => {
    const summaries = toSummaries({ categories: [category('Database', 30, 50), category('Operations', 34.11, null)] });
    expect(summaries.map((s) => s.category)).toEqual(['Database', 'Operations']);
    expect(summaries[0]).toMatchObject({ amount: 30, previousAmount: 20, change: 50, insight: false });
    expect(summaries[0].services).toEqual([{ name: 'Database service', amount: 30, previousAmount: 0, change: null }]);
    expect(summaries[0].previousOnly).toEqual([{ name: 'Gone', amount: 0, previousAmount: 7, change: -100 }]);
    expect(summaries[1].change).toBeNull();
    expect(largestAmount(summaries)).toBe(34.11);
    expect(toSummaries({ categories: [] })).toEqual([]);
  });

  it('lists the first 3 services, then "+N more"', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `S${i + 1}` }));
    expect(serviceListLabel(names(1))).toBe('S1');
    expect(serviceListLabel(names(3))).toBe('S1, S2, S3');
    expect(serviceListLabel(names(4))).toBe('S1, S2, S3 +1 more');
    expect(serviceListLabel(names(7))).toBe('S1, S2, S3 +4 more');
  });

  it('warns for the categories the server marks, largest increase first', () => {
    const summaries = toSummaries({
      categories: [category('Database', 300, 200, true), category('Compute', 125, 25), category('Storage', 126, 26, true)],
    });
    expect(categoryInsights(summaries).map((s) => s.category)).toEqual(['Database', 'Storage']);
  });
});
