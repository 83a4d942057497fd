import { Box, List, ListItem, ListItemButton, Skeleton, Stack, Typography } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { CostErrorAlert } from '@/components/cost';
import {
  changeDirection,
  comparedWithLabel,
  drillUrl,
  formatChangePercent,
  formatCurrency,
  formatSignedAmount,
  type ApiFilterGroup,
  type CompareResponse,
  type CompareRow,
  type TimeRange,
} from '@/lib/cost';
import { useTopMovers } from '../api/use-top-movers';
import { DashboardCard } from './dashboard-card';

export const TOP_MOVERS_ERROR = 'Failed to load top movers';
export const NO_MOVERS = 'No spend in either period';

type Dimension = 'service' | 'account';

export interface TopMoversCardProps {
  range: TimeRange;
  filters: ApiFilterGroup[];
}

/** An account's name (its id when the data has none); a service's name. */
function moverName(row: CompareRow): string {
  return row.name?.trim() || row.key || 'Unknown';
}

/**
 * The Advanced Cost link drilled into a mover, over Mission Control's period and with every charge
 * type counted (an empty Include), as the card counts them.
 */
export function moverHref(dimension: Dimension, row: CompareRow, range: TimeRange): string {
  return drillUrl(dimension, row.key, {
    period: range.preset,
    from: range.startDate,
    to: range.endDate,
    include: [],
  });
}

function changeColor(change: number): string {
  const direction = changeDirection(change);
  return direction === 'up' ? 'error.main' : direction === 'down' ? 'success.main' : 'text.secondary';
}

function MoverList({ title, dimension, query, range }: { title: string; dimension: Dimension; query: UseQueryResult<CompareResponse, Error>; range: TimeRange }) {
  let body;
  if (query.isError) {
    body = <CostErrorAlert title={TOP_MOVERS_ERROR} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (!query.data) {
    body = (
      <Stack spacing={1} aria-busy="true" aria-label="Loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={28} />
        ))}
      </Stack>
    );
  } else if (query.data.rows.length === 0) {
    body = (
      <Typography variant="body2" color="text.secondary" role="status">
        {NO_MOVERS}
      </Typography>
    );
  } else {
    const { currency } = query.data;
    body = (
      <List aria-label={title} dense disablePadding>
        {query.data.rows.map((row) => (
          <ListItem key={row.key} disablePadding>
            <ListItemButton component={RouterLink} to={moverHref(dimension, row, range)} sx={{ px: 1, borderRadius: 1 }}>
              <Stack direction="row" spacing={2} justifyContent="space-between" alignItems="baseline" sx={{ width: '100%' }}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" fontWeight={600} noWrap>
                    {moverName(row)}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {formatCurrency(row.current, { decimals: 0, currency })}
                  </Typography>
                </Box>
                <Box sx={{ textAlign: 'right', color: changeColor(row.change), whiteSpace: 'nowrap' }}>
                  <Typography variant="body2" color="inherit">
                    {formatSignedAmount(row.change, currency, 0)}
                  </Typography>
                  <Typography variant="caption" color="inherit">
                    {formatChangePercent(row)}
                  </Typography>
                </Box>
              </Stack>
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    );
  }
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      {body}
    </Box>
  );
}

/** Top movers (docs/ANALYST-FLOW.md): the five largest changes by service and by account, each a link to Advanced Cost drilled into it. */
export function TopMoversCard({ range, filters }: TopMoversCardProps) {
  const { services, accounts } = useTopMovers(range, filters);
  const previous = services.data?.previous_period ?? accounts.data?.previous_period;
  return (
    <DashboardCard title="Top movers">
      {previous ? (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1.5 }}>
          {comparedWithLabel(previous)}
        </Typography>
      ) : null}
      <Stack spacing={2}>
        <MoverList title="Services" dimension="service" query={services} range={range} />
        <MoverList title="Accounts" dimension="account" query={accounts} range={range} />
      </Stack>
    </DashboardCard>
  );
}
