/**
 * The budget detail's downloads (spec 2 §9): CSV files start with a byte order mark and are
 * named with the date, the budget's name and the resolution; images are PNG.
 */
import { downloadFile, downloadHref, toCsv } from '@/lib/cost/csv';

/** Makes spreadsheet programs read the file as UTF-8 (names with accents, '€' in tags…). */
export const BYTE_ORDER_MARK = '\uFEFF';

// Characters that file systems refuse, and runs of spaces, become one '-'.
const UNSAFE_IN_FILE_NAME = /[\s\\/:*?"<>|]+/g;

/** 'Production AWS' → 'Production-AWS'; a name with nothing left becomes 'budget'. */
function fileNamePart(text: string): string {
  const part = text
    .replace(UNSAFE_IN_FILE_NAME, '-')
    .replace(/^-+|-+$/g, '');
  return part || 'budget';
}

/**
 * 'budget-spending-2026-11-23-Production-AWS-daily.csv': `kind`, today's UTC day, the budget's
 * name and the resolution.
 */
export function budgetFileName(kind: string, budgetName: string, resolution: string, extension: string, now: Date = new Date()): string {
  return `budget-${kind}-${now.toISOString().slice(0, 10)}-${fileNamePart(budgetName)}-${fileNamePart(resolution)}.${extension}`;
}

/** The CSV document of a table, with the byte order mark first (cells escaped as everywhere else). */
export function budgetCsv(table: { header: string[]; rows: unknown[][] }): string {
  return BYTE_ORDER_MARK + toCsv(table.header, table.rows);
}

export function downloadBudgetCsv(fileName: string, table: { header: string[]; rows: unknown[][] }): void {
  downloadFile(fileName, budgetCsv(table), 'text/csv;charset=utf-8');
}

/** Lets the browser save an image given as a data URL (the chart's PNG). */
export function downloadDataUrl(fileName: string, dataUrl: string): void {
  downloadHref(fileName, dataUrl);
}
