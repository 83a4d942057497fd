import { Box, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CostErrorAlert, NoCostData, WidgetBoundary } from '@/components/cost';
import { COST_FETCH_FAILED_MESSAGE } from '@/lib/cost';

export interface CostWidgetProps<T> {
  title: string;
  /** Shown under the title (e.g. the period). */
  subtitle?: ReactNode;
  /** The query, or several: the widget waits for all and shows the first failure. */
  queries: ReadonlyArray<UseQueryResult<unknown, Error>>;
  /** Reads the data once every query has an answer. */
  select: () => T;
  /** With no cost data the widget shows "No cost data available" instead of its content. */
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
  /** Replaces "No cost data available" (e.g. a finding that found nothing). */
  emptyContent?: ReactNode;
}

/**
 * A card of a cost page with the §8 states: a spinner while loading, the error text (or "Failed
 * to fetch cost data"), "No cost data available" with a refresh; render errors are caught by the
 * widget's error boundary (§2.13).
 */
export function CostWidget<T>({ title, subtitle, queries, select, isEmpty, children, emptyContent }: CostWidgetProps<T>) {
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ height: '100%' }}>
      <CardContent>
        <Stack spacing={0.5} sx={{ mb: 2 }}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          {subtitle ? (
            <Typography variant="body2" color="text.secondary">
              {subtitle}
            </Typography>
          ) : null}
        </Stack>
        <WidgetBoundary component={title}>
          <WidgetBody queries={queries} select={select} isEmpty={isEmpty} emptyContent={emptyContent} title={title}>
            {children}
          </WidgetBody>
        </WidgetBoundary>
      </CardContent>
    </Card>
  );
}

function WidgetBody<T>({ queries, select, isEmpty, children, emptyContent, title }: Omit<CostWidgetProps<T>, 'subtitle'>) {
  const failed = queries.find((q) => q.isError);
  if (failed) {
    return <CostErrorAlert error={failed.error} fallback={COST_FETCH_FAILED_MESSAGE} onRetry={() => void failed.refetch()} />;
  }
  if (queries.some((q) => q.data === undefined)) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label={`Loading ${title}`} />
      </Box>
    );
  }
  const data = select();
  if (isEmpty?.(data)) {
    return emptyContent ?? <NoCostData onRefresh={() => queries.forEach((q) => void q.refetch())} />;
  }
  return <>{children(data)}</>;
}
