/**
 * The Resources table's rules (spec 2 §2 "Resources table", §4 "Spending trend", §8, §9): page
 * sizes, the page-button window, the 'Showing X to Y of Z entries' text, the empty states, reading
 * the answer, the CSV rows and fetching every page for the export.
 */
import type { BudgetResource, BudgetResourcesResponse } from './types';

/** §9: the page-size options (default 10), the export's page size and the page buttons shown. */
export const RESOURCE_PAGE_SIZES = [10, 25, 50, 100, 200, 500] as const;
export const DEFAULT_RESOURCE_PAGE_SIZE = 10;
export const RESOURCE_EXPORT_PAGE_SIZE = 1000;
export const PAGE_BUTTON_COUNT = 5;

/** §2 and §8 texts, copied exactly. */
export const RESOURCE_MESSAGES = {
  fetchFailed: 'Failed to fetch resources',
  exportFailed: 'Failed to export resources to CSV',
  exportAllFailed: (reason: string) => `Failed to export all resources: ${reason}`,
  nothingToExport: 'No resources found to export',
  noResources: 'No resources found for the selected period',
  noBreakdown: 'No detailed resource breakdown available for this period.',
} as const;

/** The answer's rows: `resources`, or `data` in the other reading (§3). */
export function resourceRows(response: BudgetResourcesResponse | undefined): BudgetResource[] {
  if (!response) return [];
  const { resources, data } = response as { resources?: BudgetResource[] | null; data?: BudgetResource[] | null };
  return resources ?? data ?? [];
}

/** How many resources the range has, over every page. */
export function resourcesTotalCount(response: BudgetResourcesResponse | undefined): number {
  if (!response) return 0;
  return response.pagination?.totalCount ?? response.totalItems ?? response.total ?? resourceRows(response).length;
}

/** How many pages of `size` rows there are (at least 1, so that 'Page 1 of 1' shows when empty). */
export function resourcesTotalPages(response: BudgetResourcesResponse | undefined, size: number): number {
  const pages = response?.pagination?.totalPages ?? Math.ceil(resourcesTotalCount(response) / size);
  return Math.max(1, pages);
}

/** 'Showing 11 to 20 of 118 entries' ('Showing 0 to 0 of 0 entries' when there are none). */
export function showingEntriesText(page: number, size: number, total: number): string {
  if (total <= 0) return 'Showing 0 to 0 of 0 entries';
  const first = (page - 1) * size + 1;
  const last = Math.min(page * size, total);
  return `Showing ${first} to ${last} of ${total} entries`;
}

/**
 * The numbered page buttons: `count` consecutive pages around the current one (it sits in the
 * middle where it can), never past the first or last page.
 */
export function pageWindow(page: number, totalPages: number, count: number = PAGE_BUTTON_COUNT): number[] {
  const shown = Math.min(count, Math.max(totalPages, 0));
  const current = Math.min(Math.max(page, 1), Math.max(totalPages, 1));
  const first = Math.max(1, Math.min(current - Math.floor(count / 2), totalPages - shown + 1));
  return Array.from({ length: shown }, (_, index) => first + index);
}

/**
 * The empty table's message: no spend at all in the range, or spend that belongs to no resource
 * (taxes, support, credits; docs/API-BUDGETS.md).
 */
export function emptyResourcesMessage(totalCost: number | null | undefined): string {
  return typeof totalCost === 'number' && totalCost > 0 ? RESOURCE_MESSAGES.noBreakdown : RESOURCE_MESSAGES.noResources;
}

/**
 * The line above a table with rows: the budget's whole spend in the range and how much of it the
 * resources account for, so the table reconciles with the budget's figures (charges without a
 * resource, such as taxes, support and credits, make the difference).
 */
export function resourcesCostSummary(
  response: Pick<BudgetResourcesResponse, 'totalCost' | 'resourcesCost'> | undefined,
  format: (amount: number) => string,
): string | null {
  if (!response || typeof response.totalCost !== 'number') return null;
  const other = response.totalCost - response.resourcesCost;
  const parts = [`Total cost: ${format(response.totalCost)}`, `resources ${format(response.resourcesCost)}`];
  if (Math.abs(other) >= 0.005) parts.push(`without a resource ${format(other)}`);
  return parts.join(' · ');
}

export const RESOURCE_COLUMNS = ['Cloud Provider', 'Account', 'Resource Name', 'Type', 'Region', 'Cost'] as const;

/** The Account cell: 'Production (123456789012)', or the id alone when the account has no name. */
export function accountText(resource: Pick<BudgetResource, 'accountId'> & { accountName?: string | null }): string {
  const name = resource.accountName?.trim();
  return name && name !== resource.accountId ? `${name} (${resource.accountId})` : resource.accountId;
}

/** The CSV of some rows: the table's columns, the cost as a plain number. */
export function resourcesCsvTable(rows: ReadonlyArray<BudgetResource>): { header: string[]; rows: Array<Array<string | number>> } {
  return {
    header: [...RESOURCE_COLUMNS],
    rows: rows.map((row) => [
      row.cloudProvider ?? '',
      accountText(row),
      row.resourceName ?? '',
      row.resourceType ?? '',
      row.region ?? '',
      row.cost,
    ]),
  };
}

/**
 * Every row of the range, fetched page after page at the export size (§9: 1000), one request at a
 * time. `onProgress` gets the percent of pages fetched after each page (100 after the last).
 */
export async function fetchAllResources(
  fetchPage: (page: number, size: number) => Promise<BudgetResourcesResponse>,
  onProgress: (percent: number) => void,
): Promise<BudgetResource[]> {
  const rows: BudgetResource[] = [];
  let totalPages = 1;
  for (let page = 1; page <= totalPages; page += 1) {
    const response = await fetchPage(page, RESOURCE_EXPORT_PAGE_SIZE);
    const pageRows = resourceRows(response);
    rows.push(...pageRows);
    totalPages = resourcesTotalPages(response, RESOURCE_EXPORT_PAGE_SIZE);
    // A short page is the last one, whatever the totals say (guards against an endless loop).
    if (pageRows.length < RESOURCE_EXPORT_PAGE_SIZE) totalPages = page;
    onProgress(Math.round((page / totalPages) * 100));
  }
  return rows;
}
