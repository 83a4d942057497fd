/** CSV building with the §5 escaping rules, file download and dated file names (§7). */

/** §8 "CSV export failure". */
export const CSV_EXPORT_FAILED_MESSAGE =
  'Failed to export CSV file. Please try again or contact support if the issue persists.';

// Control characters except line breaks (a cell with a line break is quoted instead).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F]/g;
const FORMULA_START = /^[=+\-@]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell (§5): control characters stripped, a text starting with =, +, - or @ gets a
 * leading ' (so a spreadsheet does not run it as a formula), and a cell holding a comma, quote
 * or line break is quoted with its quotes doubled. Numbers are written as they are.
 */
export function escapeCsvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = (typeof value === 'string' ? value : String(value)).replace(CONTROL_CHARACTERS, '');
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV document: the header line, then one line per row, each ending with a line break. */
export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((cells) => `${cells.map(escapeCsvCell).join(',')}\n`).join('');
}

/** Lets the browser save what `href` points at (an object or data URL) as `fileName`. */
export function downloadHref(fileName: string, href: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** Lets the browser save `content` as `fileName`. */
export function downloadFile(fileName: string, content: string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  try {
    downloadHref(fileName, url);
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** "cost-analysis-2026-11-23.csv" (the UTC day). */
export function datedFileName(prefix: string, extension: string, now: Date = new Date()): string {
  return `${prefix}-${now.toISOString().slice(0, 10)}.${extension.replace(/^\./, '')}`;
}
