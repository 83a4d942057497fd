/**
 * GET /v1/forecast (docs/ANOMALIES.md "Forecast API and where it shows"): the server's forecast
 * of the tenant's cost to the end of the month, quarter or year with its 80 % interval.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema.gen';
import { COST_STALE_TIME_MS } from '@/lib/cost';

export type ForecastResponse = components['schemas']['ForecastResponse'];
export type Forecast = components['schemas']['Forecast'];
export type ForecastPeriod = 'month' | 'quarter' | 'year';

export const forecastKeys = {
  all: ['forecast'] as const,
  total: (period: ForecastPeriod) => ['forecast', 'total', period] as const,
};

export const getForecast = (period: ForecastPeriod, signal?: AbortSignal) =>
  unwrap<ForecastResponse>(api.GET('/v1/forecast', { params: { query: { period } }, signal }));

export const forecastQuery = (period: ForecastPeriod) =>
  queryOptions({
    queryKey: forecastKeys.total(period),
    queryFn: ({ signal }) => getForecast(period, signal),
    staleTime: COST_STALE_TIME_MS,
  });

export const useForecast = (period: ForecastPeriod) => useQuery(forecastQuery(period));
