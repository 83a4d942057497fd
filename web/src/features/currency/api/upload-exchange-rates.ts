import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { RatesSummary } from '../types';
import { afterCurrencyChange } from './invalidate-cost-answers';

/**
 * PUT /v1/exchange-rates with the CSV file's text as the body (text/csv): the file replaces all
 * of the tenant's rates, or is refused whole with a message naming the row and column.
 */
export async function uploadExchangeRates(file: Blob): Promise<RatesSummary> {
  const csv = await file.text();
  return unwrap<RatesSummary>(
    api.PUT('/v1/exchange-rates', {
      body: csv,
      bodySerializer: (body: string) => body,
      headers: { 'Content-Type': 'text/csv' },
    }),
  );
}

export function useUploadExchangeRates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadExchangeRates,
    onSuccess: () => afterCurrencyChange(queryClient),
  });
}
