/** The Resources table's exports (spec 2 §2, §4 "Spending trend", §8): this page, or every row with progress. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { getBudgetResources } from '../../api';
import { RESOURCE_MESSAGES, fetchAllResources, resourcesCsvTable } from '../../model/resources';
import type { BudgetResource } from '../../model/types';
import { budgetFileName, downloadBudgetCsv } from './budget-downloads';

/** §4: the progress stays at 100 for 1 s before the export button comes back. */
export const EXPORT_RESET_DELAY_MS = 1_000;

export interface ResourcesExportOptions {
  budgetId: number;
  budgetName: string;
  startDate: string;
  endDate: string;
  page: number;
  /** The rows on screen. */
  pageRows: ReadonlyArray<BudgetResource>;
}

export interface ResourcesExport {
  exportCurrentPage(): void;
  exportAll(): Promise<void>;
  /** Percent of the pages fetched while exporting everything; null when idle. */
  progress: number | null;
  error: string | null;
  clearError(): void;
}

function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

export function useResourcesExport({ budgetId, budgetName, startDate, endDate, page, pageRows }: ResourcesExportOptions): ResourcesExport {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(resetTimer.current), []);

  const range = `${startDate}-to-${endDate}`;

  const exportCurrentPage = useCallback(() => {
    if (pageRows.length === 0) {
      setError(RESOURCE_MESSAGES.nothingToExport);
      return;
    }
    try {
      downloadBudgetCsv(budgetFileName('resources', budgetName, `${range}-page-${page}`, 'csv'), resourcesCsvTable(pageRows));
      setError(null);
    } catch (cause) {
      console.error('Resources CSV export failed', cause);
      setError(RESOURCE_MESSAGES.exportFailed);
    }
  }, [pageRows, budgetName, range, page]);

  const exportAll = useCallback(async () => {
    clearTimeout(resetTimer.current);
    setError(null);
    setProgress(0);
    try {
      const rows = await fetchAllResources(
        (pageNumber, size) => getBudgetResources(budgetId, { startDate, endDate, page: pageNumber, size }),
        setProgress,
      );
      if (rows.length === 0) {
        setProgress(null);
        setError(RESOURCE_MESSAGES.nothingToExport);
        return;
      }
      downloadBudgetCsv(budgetFileName('resources', budgetName, `${range}-all`, 'csv'), resourcesCsvTable(rows));
      resetTimer.current = setTimeout(() => setProgress(null), EXPORT_RESET_DELAY_MS);
    } catch (cause) {
      console.error('Resources export failed', cause);
      setProgress(null);
      setError(RESOURCE_MESSAGES.exportAllFailed(reasonOf(cause)));
    }
  }, [budgetId, budgetName, startDate, endDate, range]);

  return { exportCurrentPage, exportAll, progress, error, clearError: () => setError(null) };
}
