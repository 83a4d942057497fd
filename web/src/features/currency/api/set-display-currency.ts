import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { CurrencySettings } from '../types';
import { afterCurrencyChange } from './invalidate-cost-answers';

export const setDisplayCurrency = (displayCurrency: string | null) =>
  unwrap<CurrencySettings>(api.PUT('/v1/currency', { body: { displayCurrency } }));

/** PUT /v1/currency (owners and admins); `null` shows amounts in the main currency again. */
export function useSetDisplayCurrency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDisplayCurrency,
    onSuccess: (settings) => afterCurrencyChange(queryClient, settings),
  });
}
