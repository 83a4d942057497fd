import { useState } from 'react';
import { CSV_EXPORT_FAILED_MESSAGE, datedFileName, downloadFile } from './csv';

/**
 * Downloads `{prefix}-{YYYY-MM-DD}.csv` of what `csv()` builds; a failure is logged and kept as
 * the §8 message for the page to show (cleared by the next success or `clearError`).
 */
export function useCsvExport(prefix: string) {
  const [error, setError] = useState<string | null>(null);
  const exportCsv = (csv: () => string) => {
    try {
      downloadFile(datedFileName(prefix, 'csv'), csv(), 'text/csv;charset=utf-8');
      setError(null);
    } catch (cause) {
      console.error(`CSV export (${prefix}) failed`, cause);
      setError(CSV_EXPORT_FAILED_MESSAGE);
    }
  };
  return { exportCsv, error, clearError: () => setError(null) };
}
