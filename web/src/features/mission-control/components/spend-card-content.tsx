import { Skeleton, Stack } from '@mui/material';
import type { ReactNode } from 'react';
import { CostErrorAlert } from '@/components/cost';
import type { SpendResponse } from '@/lib/cost';
import { DASHBOARD_ERROR, DASHBOARD_ERROR_FALLBACK } from '../constants';

export interface SpendState {
  data: SpendResponse | undefined;
  error: Error | null;
  onRetry(): void;
}

export interface SpendCardContentProps {
  spend: SpendState;
  children(data: SpendResponse): ReactNode;
}

/** A spend card's body: the error (§8), a placeholder while loading, else the card's numbers. */
export function SpendCardContent({ spend, children }: SpendCardContentProps) {
  if (spend.error) {
    return <CostErrorAlert title={DASHBOARD_ERROR} error={spend.error} fallback={DASHBOARD_ERROR_FALLBACK} onRetry={spend.onRetry} />;
  }
  if (!spend.data) {
    return (
      <Stack spacing={1} aria-busy="true" aria-label="Loading">
        <Skeleton variant="text" width="60%" height={40} />
        <Skeleton variant="text" width="80%" />
      </Stack>
    );
  }
  return <>{children(spend.data)}</>;
}
