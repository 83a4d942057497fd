import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DEFAULT_INCLUSIONS, DEFAULT_PRESET, STORAGE_KEYS, usePersistentState, type CostInclusions } from '@/lib/cost';
import { useAppliedFilters } from '@/lib/cost-filters';
import type { AnalysisState, PeriodChoice, SavedReport } from '../types';
import { DEFAULT_GROUPING, DEFAULT_VIEW, INCLUSIONS_STORAGE_KEY, isViewType, normaliseGrouping } from '../utils/analysis-state';
import { REPORT_NOT_FOUND, loadReport, reportToState } from '../utils/saved-reports';
import { REPORT_PARAM, decodeAnalysisSearch, encodeAnalysisSearch, foreignParams, searchParam } from '../utils/url-state';

export interface AnalysisStateApi {
  state: AnalysisState;
  /** Sets the whole state: stored under the §9 keys and written to the query string. */
  setState(next: AnalysisState): void;
  /** Opens a saved report; a report no longer in storage sets `reportError`. */
  openReport(id: string): void;
  /** The report last opened on this page (cleared by any other change). */
  openedReport: SavedReport | null;
  reportError: string | null;
  dismissReportError(): void;
}

type ReportLookup = { report: SavedReport } | { error: string } | null;

function lookUpReport(id: string | null): ReportLookup {
  if (!id) return null;
  try {
    return { report: loadReport(id) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : REPORT_NOT_FOUND };
  }
}

/**
 * The screen's state. It lives in localStorage under the §9 keys (the charge types under a key of
 * the same family) and in the query string; on load the query string wins, and `?report={id}`
 * opens a saved report. Every change is written to both.
 */
export function useAnalysisState(): AnalysisStateApi {
  const location = useLocation();
  const navigate = useNavigate();
  const [preset, setPreset] = usePersistentState<string>(STORAGE_KEYS.timeRangePreset, DEFAULT_PRESET);
  const [customStart, setCustomStart] = usePersistentState<string | null>(STORAGE_KEYS.customStart, null);
  const [customEnd, setCustomEnd] = usePersistentState<string | null>(STORAGE_KEYS.customEnd, null);
  const [viewType, setViewType] = usePersistentState<string>(STORAGE_KEYS.viewType, DEFAULT_VIEW);
  const [grouping, setGrouping] = usePersistentState<unknown>(STORAGE_KEYS.groupingState, DEFAULT_GROUPING);
  const [inclusions, setInclusions] = usePersistentState<CostInclusions>(INCLUSIONS_STORAGE_KEY, DEFAULT_INCLUSIONS);
  const applied = useAppliedFilters('cost_analysis');
  const [openedReport, setOpenedReport] = useState<SavedReport | null>(null);
  const [reportError, setReportError] = useState<string | null>(null);

  const stored = useMemo<AnalysisState>(() => {
    const period: PeriodChoice =
      preset === 'custom'
        ? { preset: 'custom', ...(customStart ? { startDate: customStart } : {}), ...(customEnd ? { endDate: customEnd } : {}) }
        : { preset: preset as PeriodChoice['preset'] };
    return {
      period,
      viewType: isViewType(viewType) ? viewType : DEFAULT_VIEW,
      grouping: normaliseGrouping(grouping),
      inclusions: inclusions && typeof inclusions === 'object' ? inclusions : DEFAULT_INCLUSIONS,
      filters: applied.filters,
    };
  }, [preset, customStart, customEnd, viewType, grouping, inclusions, applied.filters]);

  const fromUrl = useMemo(() => decodeAnalysisSearch(location.search), [location.search]);
  const reportId = searchParam(location.search, REPORT_PARAM);
  const fromReport = useMemo(() => lookUpReport(reportId), [reportId]);

  const state = useMemo<AnalysisState>(() => {
    if (fromReport && 'report' in fromReport) return reportToState(fromReport.report, stored);
    if (!fromUrl) return stored;
    // The link carries the dimensions; the hierarchy flag and sort order are the user's own.
    const { sortConfig } = stored.grouping;
    const dims = fromUrl.grouping.groupByDimensions;
    const sortShown = sortConfig.field === 'cost' || dims.includes(sortConfig.field);
    return {
      ...fromUrl,
      grouping: {
        ...fromUrl.grouping,
        groupByHierarchy: stored.grouping.groupByHierarchy,
        sortConfig: sortShown ? sortConfig : DEFAULT_GROUPING.sortConfig,
      },
    };
  }, [fromReport, fromUrl, stored]);

  const persist = useCallback(
    (next: AnalysisState, current: AnalysisState) => {
      setPreset(next.period.preset);
      // §4: a non-custom preset clears the custom dates.
      setCustomStart(next.period.preset === 'custom' ? (next.period.startDate ?? null) : null);
      setCustomEnd(next.period.preset === 'custom' ? (next.period.endDate ?? null) : null);
      setViewType(next.viewType);
      setGrouping(next.grouping);
      setInclusions(next.inclusions);
      if (JSON.stringify(next.filters) !== JSON.stringify(current.filters)) applied.setFilters(next.filters);
    },
    [setPreset, setCustomStart, setCustomEnd, setViewType, setGrouping, setInclusions, applied.setFilters],
  );

  const latest = useRef({ state, stored, search: location.search });
  latest.current = { state, stored, search: location.search };

  const writeUrl = useCallback(
    (next: AnalysisState) => {
      const search = encodeAnalysisSearch(next, foreignParams(latest.current.search));
      if (search !== latest.current.search) navigate({ search }, { replace: true });
    },
    [navigate],
  );

  const setState = useCallback(
    (next: AnalysisState) => {
      persist(next, latest.current.stored);
      writeUrl(next);
      setOpenedReport(null);
    },
    [persist, writeUrl],
  );

  const openReport = useCallback(
    (id: string) => {
      const found = lookUpReport(id);
      if (found && 'report' in found) {
        const next = reportToState(found.report, latest.current.state);
        persist(next, latest.current.stored);
        writeUrl(next);
        setOpenedReport(found.report);
        setReportError(null);
      } else {
        setReportError(found?.error ?? REPORT_NOT_FOUND);
      }
    },
    [persist, writeUrl],
  );

  // A `?report=` link: apply the report (or say it is gone) and replace the link by its state.
  useEffect(() => {
    if (!reportId) return;
    if (fromReport && 'report' in fromReport) {
      openReport(reportId);
    } else {
      setReportError(fromReport && 'error' in fromReport ? fromReport.error : REPORT_NOT_FOUND);
      writeUrl(latest.current.stored);
    }
  }, [reportId, fromReport, openReport, writeUrl]);

  // On load the query string wins over storage and is stored. Without one (first visit, or the
  // menu's plain link), the state is written to the query string so that it can be shared.
  const loaded = useRef(false);
  useEffect(() => {
    if (reportId) return;
    if (!fromUrl) writeUrl(latest.current.stored);
    else if (!loaded.current) persist(latest.current.state, latest.current.stored);
    loaded.current = true;
  }, [fromUrl, reportId, persist, writeUrl]);

  const dismissReportError = useCallback(() => setReportError(null), []);

  return { state, setState, openReport, openedReport, reportError, dismissReportError };
}
