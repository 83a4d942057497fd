import { optionDates } from '@/lib/cost-filters';
import { FILTER_OPTIONS_DEBOUNCE_MS, useCostFilterOptions, type TimeRange } from '@/lib/cost';

const NONE: ReadonlyArray<string> = [];

/**
 * The charge types the API reports for the tenant over the range (`cost_type` of an unfiltered
 * POST /v2/cost/filters), which the Include select offers after the documented ones. Nothing
 * while the answer is pending or failed (the documented types are offered regardless), and
 * nothing is asked for a custom range without dates.
 */
export function useReportedChargeTypes(range: TimeRange): ReadonlyArray<string> {
  const dates = optionDates(range);
  const answer = useCostFilterOptions(dates ? { ...dates, filters: [] } : null, { debounceMs: FILTER_OPTIONS_DEBOUNCE_MS });
  const reported = answer.data?.cost_type;
  return Array.isArray(reported) ? reported : NONE;
}
