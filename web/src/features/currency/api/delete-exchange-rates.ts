import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import { afterCurrencyChange } from './invalidate-cost-answers';

export const deleteExchangeRates = () => unwrap<unknown>(api.DELETE('/v1/exchange-rates'));

/** DELETE /v1/exchange-rates (owners and admins): every uploaded rate goes. */
export function useDeleteExchangeRates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteExchangeRates,
    onSuccess: () => afterCurrencyChange(queryClient),
  });
}
