import { describe, expect, it, vi } from 'vitest';
import {
  resourcesCostSummary,
  accountText,
  emptyResourcesMessage,
  fetchAllResources,
  pageWindow,
  resourceRows,
  resourcesCsvTable,
  resourcesTotalCount,
  resourcesTotalPages,
  showingEntriesText,
} from './resources';
import type { BudgetResource, BudgetResourcesResponse } from './types';

function resource(index: number): BudgetResource {
  return {
    cloudProvider: 'AWS',
    accountId: '123456789012',
    accountName: 'Production',
    resourceId: `i-${index}`,
    resourceName: `i-${index}`,
    resourceType: 'Amazon Elastic Compute Cloud',
    region: 'us-east-1',
    service: 'Amazon Elastic Compute Cloud',
    cost: index,
  } as BudgetResource;
}

function answer(rows: BudgetResource[], page: number, size: number, totalCount: number): BudgetResourcesResponse {
  return {
    budgetId: 7,
    budgetName: 'Production AWS',
    resources: rows,
    pagination: { page, size, totalPages: Math.ceil(totalCount / size), totalCount },
    count: rows.length,
    totalItems: totalCount,
    total: totalCount,
    resourcesCost: 0,
    totalCost: 0,
  } as BudgetResourcesResponse;
}

describe('showingEntriesText', () => {
  it('tells the rows of the page and the total', () => {
    expect(showingEntriesText(1, 10, 118)).toBe('Showing 1 to 10 of 118 entries');
    expect(showingEntriesText(2, 10, 118)).toBe('Showing 11 to 20 of 118 entries');
    expect(showingEntriesText(12, 10, 118)).toBe('Showing 111 to 118 of 118 entries');
    expect(showingEntriesText(1, 25, 3)).toBe('Showing 1 to 3 of 3 entries');
  });

  it('shows zeros when there is nothing', () => {
    expect(showingEntriesText(1, 10, 0)).toBe('Showing 0 to 0 of 0 entries');
  });
});

describe('pageWindow', () => {
  it('shows 5 pages around the current one', () => {
    expect(pageWindow(1, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 12)).toEqual([2, 3, 4, 5, 6]);
    expect(pageWindow(6, 12)).toEqual([4, 5, 6, 7, 8]);
    expect(pageWindow(11, 12)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(12, 12)).toEqual([8, 9, 10, 11, 12]);
  });

  it('shows every page when there are 5 or fewer', () => {
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('keeps a page past the end inside the window', () => {
    expect(pageWindow(40, 12)).toEqual([8, 9, 10, 11, 12]);
  });
});

describe('reading the answer', () => {
  it('takes the rows from resources, else data', () => {
    expect(resourceRows(answer([resource(1)], 1, 10, 1))).toEqual([resource(1)]);
    expect(resourceRows({ data: [resource(2)] } as unknown as BudgetResourcesResponse)).toEqual([resource(2)]);
    expect(resourceRows(undefined)).toEqual([]);
  });

  it('takes the counts from the pagination, else the totals', () => {
    const paged = answer([resource(1)], 1, 10, 118);
    expect(resourcesTotalCount(paged)).toBe(118);
    expect(resourcesTotalPages(paged, 10)).toBe(12);
    const bare = { resources: [resource(1)], totalItems: 31 } as unknown as BudgetResourcesResponse;
    expect(resourcesTotalCount(bare)).toBe(31);
    expect(resourcesTotalPages(bare, 10)).toBe(4);
    expect(resourcesTotalPages(answer([], 1, 10, 0), 10)).toBe(1);
  });
});

describe('emptyResourcesMessage', () => {
  it('tells apart no spend from spend without resources', () => {
    expect(emptyResourcesMessage(0)).toBe('No resources found for the selected period');
    expect(emptyResourcesMessage(undefined)).toBe('No resources found for the selected period');
    expect(emptyResourcesMessage(12.5)).toBe('No detailed resource breakdown available for this period.');
  });
});

describe('resourcesCostSummary', () => {
  const usd = (amount: number) => `$${amount.toFixed(2)}`;

  it('names the total, the resources and the rest', () => {
    expect(resourcesCostSummary({ totalCost: 808, resourcesCost: 800 }, usd)).toBe(
      'Total cost: $808.00 · resources $800.00 · without a resource $8.00',
    );
  });

  it('leaves out a rest of less than a cent', () => {
    expect(resourcesCostSummary({ totalCost: 800.001, resourcesCost: 800 }, usd)).toBe('Total cost: $800.00 · resources $800.00');
  });

  it('says nothing without an answer', () => {
    expect(resourcesCostSummary(undefined, usd)).toBeNull();
  });
});

describe('resourcesCsvTable', () => {
  it('writes the table columns with the cost as a number', () => {
    expect(resourcesCsvTable([resource(3)])).toEqual({
      header: ['Cloud Provider', 'Account', 'Resource Name', 'Type', 'Region', 'Cost'],
      rows: [['AWS', 'Production (123456789012)', 'i-3', 'Amazon Elastic Compute Cloud', 'us-east-1', 3]],
    });
  });

  it('shows the account id alone when the account has no other name', () => {
    expect(accountText({ accountId: 'acme-prod', accountName: null })).toBe('acme-prod');
    expect(accountText({ accountId: 'acme-prod', accountName: 'acme-prod' })).toBe('acme-prod');
  });
});

describe('fetchAllResources', () => {
  it('fetches pages of 1000 one after another, reporting the percent done', async () => {
    const total = 2500;
    const fetchPage = vi.fn(async (page: number, size: number) => {
      const count = Math.min(size, total - (page - 1) * size);
      return answer(Array.from({ length: count }, (_, index) => resource((page - 1) * size + index)), page, size, total);
    });
    const progress: number[] = [];
    const rows = await fetchAllResources(fetchPage, (percent) => progress.push(percent));
    expect(rows).toHaveLength(2500);
    expect(rows[2499].cost).toBe(2499);
    expect(fetchPage.mock.calls).toEqual([
      [1, 1000],
      [2, 1000],
      [3, 1000],
    ]);
    expect(progress).toEqual([33, 67, 100]);
  });

  it('stops at a short page and reaches 100 with no rows', async () => {
    const progress: number[] = [];
    const rows = await fetchAllResources(async () => answer([], 1, 1000, 0), (percent) => progress.push(percent));
    expect(rows).toEqual([]);
    expect(progress).toEqual([100]);
  });

  it('passes a failing page on', async () => {
    await expect(
      fetchAllResources(async () => {
        throw new Error('Server error occurred');
      }, () => undefined),
    ).rejects.toThrow('Server error occurred');
  });
});
