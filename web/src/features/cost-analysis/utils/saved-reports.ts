/**
 * Saved reports (§3 "Saved report"): kept in browser storage only (§7), under the §9 key.
 * Every read goes to storage, so a report deleted in another tab is really gone.
 */
import { STORAGE_KEYS, readStored, writeStored } from '@/lib/cost';
import type { AnalysisState, SavedReport } from '../types';
import { DEFAULT_DISPLAY, withDimensions } from './analysis-state';
import { randomSuffix } from '@/lib/random-id';

/** §5 / §8: loading a report that is not in storage. */
export const REPORT_NOT_FOUND = 'Report not found';

/** Fired on `window` when this tab changes the saved reports (`storage` covers other tabs). */
export const SAVED_REPORTS_EVENT = 'costscope:saved-reports';

function isReport(value: unknown): value is SavedReport {
  if (!value || typeof value !== 'object') return false;
  const r = value as Partial<SavedReport>;
  return typeof r.id === 'string' && typeof r.name === 'string' && !!r.timeRange && typeof r.timeRange === 'object';
}

/** The saved reports, newest first. */
export function listSavedReports(): SavedReport[] {
  const stored = readStored<unknown>(STORAGE_KEYS.savedReports, []);
  return Array.isArray(stored) ? stored.filter(isReport) : [];
}

function store(reports: SavedReport[]) {
  writeStored(STORAGE_KEYS.savedReports, reports);
  window.dispatchEvent(new Event(SAVED_REPORTS_EVENT));
}

function newReportId(now: Date): string {
  return `report-${now.getTime().toString(36)}-${randomSuffix()}`;
}

/** Saves the state under a name (required) and an optional description. */
export function saveReport(
  input: { name: string; description?: string },
  state: AnalysisState,
  now: Date = new Date(),
): SavedReport {
  const name = input.name.trim();
  if (!name) throw new Error('Report name is required');
  const report: SavedReport = {
    id: newReportId(now),
    name,
    description: input.description?.trim() ?? '',
    timeRange: { ...state.period },
    filters: state.filters,
    groupBy: [...state.grouping.groupByDimensions],
    viewType: state.viewType,
    displayType: DEFAULT_DISPLAY,
    costInclusions: { ...state.inclusions },
    savedAt: now.toISOString(),
  };
  store([report, ...listSavedReports()]);
  return report;
}

/** The report with this id; throws "Report not found" when it is not in storage. */
export function loadReport(id: string): SavedReport {
  const report = listSavedReports().find((r) => r.id === id);
  if (!report) throw new Error(REPORT_NOT_FOUND);
  return report;
}

export function deleteReport(id: string): void {
  store(listSavedReports().filter((r) => r.id !== id));
}

/** The screen's state a report describes (the hierarchy flag and sort order stay the user's). */
export function reportToState(report: SavedReport, current: AnalysisState): AnalysisState {
  return {
    period: { ...report.timeRange },
    viewType: report.viewType,
    grouping: withDimensions(current.grouping, report.groupBy),
    inclusions: { ...report.costInclusions },
    filters: report.filters,
  };
}
