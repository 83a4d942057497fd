import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { CurrencySettings } from '../types';
import { currencyKeys } from './keys';

export const getCurrencySettings = () => unwrap<CurrencySettings>(api.GET('/v1/currency'));

export const currencySettingsQuery = () =>
  queryOptions({ queryKey: currencyKeys.settings(), queryFn: getCurrencySettings, staleTime: 0 });

/** GET /v1/currency: the display currency, the data's currencies and what the rates cover. */
export const useCurrencySettings = () => useQuery(currencySettingsQuery());
