/** Test helpers of the Spending Trend and Resources table tests (never imported by the app). */
import { vi } from 'vitest';
import { jsonResponse } from '@/test/mock-api';
import type { Budget, BudgetHistoryItem, BudgetResource, BudgetResourcesResponse } from '../../model/types';

export function makeBudget(overrides: Partial<Budget> = {}): Budget {
  return {
    id: 7,
    name: 'Production AWS',
    amount: 3000,
    period: 'Monthly',
    filters: [{ filterType: 'account', filterValues: ['123456789012'] }],
    alerts: [
      { thresholdType: 'Percentage', thresholdValue: 50, basis: 'Actual' },
      { thresholdType: 'Absolute', thresholdValue: 2000, basis: 'Actual' },
    ],
    currentSpent: 2300,
    previousSpent: 2900,
    percentUsed: 76.6667,
    status: 'warning',
    detailStatus: 'warning',
    missionControlStatus: 'warning',
    exceeded: false,
    triggeredAlerts: 2,
    reachedAlerts: [
      { thresholdType: 'Percentage', thresholdValue: 50, basis: 'Actual' },
      { thresholdType: 'Absolute', thresholdValue: 2000, basis: 'Actual' },
    ],
    periodStart: '2026-11-01',
    periodEnd: '2026-11-30',
    daysRemaining: 7,
    createdAt: '2026-08-01T10:00:00Z',
    updatedAt: '2026-08-01T10:00:00Z',
    forecast: null,
    ...overrides,
  } as Budget;
}

/** One history item per day from `startDate` to `endDate`, spending `spend(date)`. */
export function makeHistory(startDate: string, endDate: string, spend: (date: string) => number, budgetAmount = 3000): BudgetHistoryItem[] {
  const items: BudgetHistoryItem[] = [];
  for (let time = Date.parse(`${startDate}T00:00:00Z`); time <= Date.parse(`${endDate}T00:00:00Z`); time += 86_400_000) {
    const date = new Date(time).toISOString().slice(0, 10);
    items.push({ date, amountSpent: spend(date), budgetAmount } as BudgetHistoryItem);
  }
  return items;
}

export function makeResource(index: number, overrides: Partial<BudgetResource> = {}): BudgetResource {
  return {
    cloudProvider: 'AWS',
    accountId: '123456789012',
    accountName: 'Production',
    resourceId: `i-${String(index).padStart(4, '0')}`,
    resourceName: `i-${String(index).padStart(4, '0')}`,
    resourceType: 'Amazon Elastic Compute Cloud',
    region: 'us-east-1',
    service: 'Amazon Elastic Compute Cloud',
    cost: 1000 - index,
    ...overrides,
  } as BudgetResource;
}

/** The resources answer for `page` of `size` out of `totalCount` resources. */
export function makeResourcesPage(page: number, size: number, totalCount: number, totalCost = 5310.42): BudgetResourcesResponse {
  const first = (page - 1) * size;
  const count = Math.max(0, Math.min(size, totalCount - first));
  return {
    budgetId: 7,
    budgetName: 'Production AWS',
    resources: Array.from({ length: count }, (_, index) => makeResource(first + index)),
    pagination: { page, size, totalPages: Math.ceil(totalCount / size), totalCount },
    count,
    totalItems: totalCount,
    total: totalCount,
    resourcesCost: totalCost,
    totalCost,
  } as BudgetResourcesResponse;
}

export type Reply = { status?: number; body?: unknown };

/**
 * Replaces fetch with routes keyed by path that see the whole URL (the query string included);
 * `requests` records every URL asked for. Unknown paths answer 404.
 */
export function stubBudgetApi(routes: Record<string, (url: URL) => Reply | Promise<Reply>>) {
  const requests: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string) => {
      const url = new URL(typeof input === 'string' ? input : input.url, 'http://localhost:3000');
      requests.push(url);
      const route = routes[url.pathname];
      const reply = route ? await route(url) : { status: 404, body: { message: 'Not found' } };
      return jsonResponse(reply.status ?? 200, reply.body);
    }),
  );
  const queriesTo = (path: string) => requests.filter((url) => url.pathname === path).map((url) => Object.fromEntries(url.searchParams));
  return { requests, queriesTo };
}

/** Captures the files the page lets the browser save: name, and the bytes of CSV blobs. */
export function captureDownloads() {
  const saved: Array<{ name: string; href: string }> = [];
  const blobs: Blob[] = [];
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => {
        blobs.push(blob);
        return `blob:${blobs.length}`;
      }),
      revokeObjectURL: vi.fn(),
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.getAttribute('href') ?? '' });
  });
  /** The bytes of the n-th blob, decoded without dropping a byte order mark. */
  const blobText = async (index: number) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blobs[index].arrayBuffer());
  return { saved, blobs, blobText };
}

/** A stand-in for the lazily loaded ECharts build: records options, answers clicks and images. */
export function createFakeEcharts() {
  const zrHandlers = new Map<string, (event: { offsetX: number; offsetY: number }) => void>();
  const instance = {
    setOption: vi.fn(),
    resize: vi.fn(),
    dispose: vi.fn(),
    getDataURL: vi.fn(() => 'data:image/png;base64,iVBORw0KGgo='),
    getZr: () => ({ on: (name: string, handler: (event: { offsetX: number; offsetY: number }) => void) => zrHandlers.set(name, handler) }),
    containPixel: vi.fn((_finder: unknown, pixel: number[]) => pixel[1] >= 0),
    // The fake's x pixel is the point's index.
    convertFromPixel: vi.fn((_finder: unknown, pixel: number[]) => [pixel[0], 0]),
  };
  return {
    echarts: { init: vi.fn(() => instance) },
    instance,
    /** A click over the column of point `index`; a negative `y` is outside the plot area. */
    clickPoint: (index: number, y = 10) => zrHandlers.get('click')?.({ offsetX: index, offsetY: y }),
  };
}
