import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { ExchangeRatesPage } from '../types';
import { currencyKeys } from './keys';

export const getExchangeRates = (limit: number, offset: number) =>
  unwrap<ExchangeRatesPage>(api.GET('/v1/exchange-rates', { params: { query: { limit, offset } } }));

export const exchangeRatesQuery = (limit: number, offset: number) =>
  queryOptions({
    queryKey: currencyKeys.ratesPage(limit, offset),
    queryFn: () => getExchangeRates(limit, offset),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** GET /v1/exchange-rates: one page of the rates, newest date first. */
export const useExchangeRates = (limit: number, offset: number) => useQuery(exchangeRatesQuery(limit, offset));
