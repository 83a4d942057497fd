import { useState } from 'react';
import { CSV_EXPORT_FAILED_MESSAGE, datedFileName, downloadHref } from '@/lib/cost/csv';
import { exportResources } from './api';
import type { ResourceListRequest } from './types';

/** Export to CSV (spec 1 §2.7, §8): the server's CSV of every matching resource. */
export function useInventoryExport(fileNamePrefix = 'inventory') {
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (body: ResourceListRequest) => {
    setExporting(true);
    setError(null);
    try {
      const blob = await exportResources(body);
      const href = URL.createObjectURL(blob);
      try {
        downloadHref(datedFileName(fileNamePrefix, 'csv'), href);
      } finally {
        setTimeout(() => URL.revokeObjectURL(href), 0);
      }
    } catch (cause) {
      console.error('Inventory CSV export failed', cause);
      setError(CSV_EXPORT_FAILED_MESSAGE);
    } finally {
      setExporting(false);
    }
  };
  return { exporting, error, clearError: () => setError(null), run };
}
