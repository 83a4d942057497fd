import { makeJob, makeProgress } from '../testing/jobs';
import { addFiles, isAcceptedFile, isArchive } from './files';
import { formatLabel } from './formats';
import { progressDetails, readPercent } from './progress';
import { billingMonth, formatBilledTotal, formatBytes, formatDateTimeUtc, formatMoney, providerLabel } from './numbers';

const file = (name: string, size = 3) => new File(['x'.repeat(size)], name, { lastModified: 1 });

describe('billing data utils', () => {
  it('accepts CSV, gzipped CSV, Parquet, JSON and NDJSON files only', () => {
    for (const name of ['a.csv', 'A.CSV', 'b.csv.gz', 'c.gz', 'd.parquet', 'e.json', 'f.ndjson']) expect(isAcceptedFile(name)).toBe(true);
    for (const name of ['a.txt', 'b.zip', 'csv', 'c.csv.bak']) expect(isAcceptedFile(name)).toBe(false);
    for (const name of ['b.zip', 'B.ZIP', 'c.7z', 'd.tar', 'e.csv.bz2', 'f.xz']) expect(isArchive(name)).toBe(true);
    for (const name of ['a.csv', 'b.csv.gz', 'notes.txt']) expect(isArchive(name)).toBe(false);
  });

  it('adds picked files once and names the refused ones', () => {
    const a = file('a.csv');
    const { files, refused } = addFiles([a], [file('a.csv'), file('b.parquet'), file('notes.txt')]);
    expect(files.map((f) => f.name)).toEqual(['a.csv', 'b.parquet']);
    expect(refused).toEqual(['notes.txt']);
  });

  it('formats sizes, money, months, providers, formats and dates', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GB');
    expect(formatMoney(123.45, 'USD')).toBe('$123.45');
    expect(formatMoney(-1234.5, 'EUR')).toBe('-€1,234.50');
    expect(formatMoney(7, 'XX1')).toBe('7.00 XX1');
    expect(billingMonth('2026-10-01T00:00:00Z')).toBe('2026-10');
    expect(billingMonth('2026-09-01')).toBe('2026-09');
    expect(providerLabel('gcp')).toBe('GCP');
    expect(providerLabel('oracle')).toBe('oracle');
    expect(formatLabel('aws-cur2')).toBe('AWS CUR 2.0 / Data Exports');
    expect(formatLabel(undefined)).toBe('Auto-detect');
    expect(formatLabel('something-new')).toBe('something-new');
    expect(formatDateTimeUtc('2026-11-02T23:59:00Z')).toBe('2 Nov 2026, 23:59 UTC');
  });

  it('sums the billed cost of a load per currency', () => {
    const t = makeJob().totals[0];
    expect(formatBilledTotal([])).toBe('—');
    expect(formatBilledTotal([t, { ...t, provider: 'gcp', billed_cost: 0.55 }])).toBe('$124.00');
    expect(formatBilledTotal([t, { ...t, billed_cost: 5, currency: 'EUR' }])).toBe('$123.45 + €5.00');
  });

  it('says how far a load has got in each phase', () => {
    const reading = makeProgress({ phase: 'reading', file_name: 'big.csv.gz', files: 1, rows_read: 0, bytes_read: 512 * 1024 * 1024, bytes_total: 2 * 1024 * 1024 * 1024 });
    expect(readPercent(reading)).toBe(25);
    expect(progressDetails(reading)).toBe('big.csv.gz · 512.0 MB of 2.0 GB read');
    const second = makeProgress({ phase: 'reading', file_index: 1, files: 3, file_name: 'b.csv', rows_read: 1500, bytes_read: 3000, bytes_total: 4096 });
    expect(progressDetails(second)).toBe('b.csv (2 of 3) · 2.9 KB of 4.0 KB read · 1,500 rows so far');
    const checking = makeProgress({ phase: 'checking', file_name: 'a.csv', rows_read: 1234567, bytes_read: 2048, bytes_total: 2048 });
    expect(readPercent(checking)).toBe(100);
    expect(progressDetails(checking)).toBe('a.csv · 2.0 KB of 2.0 KB read · 1,234,567 rows read');
    const writing = makeProgress({ phase: 'writing', rows_read: 1234567, bytes_total: 2048 });
    expect(readPercent(writing)).toBeNull();
    expect(progressDetails(writing)).toBe('1,234,567 rows read · 2.0 KB');
    expect(readPercent(makeProgress({ phase: 'reading', bytes_read: 0, bytes_total: 0 }))).toBeNull();
    expect(progressDetails(makeProgress({ phase: 'queued', bytes_total: 1536 }))).toBe('Waiting for the loader · 1.5 KB');
    expect(progressDetails(makeProgress({ phase: 'failed', file_name: 'x.csv', rows_read: 7, bytes_read: 1024, bytes_total: 2048 }))).toBe(
      'Stopped at x.csv · 1.0 KB of 2.0 KB read · 7 rows read',
    );
  });
});
