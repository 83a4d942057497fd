import {
  Alert,
  Box,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '@/api/api-error';
import { TagCompliance, useTagCompliance } from '@/components/findings';
import { presetWindow, typeLabel } from '@/components/inventory';
import { formatCurrency } from '@/lib/cost/format';
import { useResourceStats, useResourceTrend, useStandardTagStats } from '../api/tags-api';
import { TrendChart } from './trend-chart';

export const OVERVIEW_MESSAGES = {
  statsFailed: 'Failed to load resource statistics',
  trendFailed: 'Failed to load the resource trend',
  complianceFailed: 'Failed to load standard tag compliance',
  noStandardTags: 'No standard tags defined yet. Use Standard Tags to define the tags every resource should carry.',
} as const;

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Paper variant="outlined" role="group" aria-label={label} sx={{ p: 2, flex: 1, minWidth: 160 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p">
        {value}
      </Typography>
      {note ? (
        <Typography variant="caption" color="text.secondary">
          {note}
        </Typography>
      ) : null}
    </Paper>
  );
}

/**
 * A cost of `GET /tags/standard/stats`, which names no currency: its costs come from the same
 * billed cost per resource as `GET /v1/tags/compliance` (the tenant's main currency), whose
 * answer does name it. Until that answer is there, the bare amount (no currency guessed).
 */
function statsCost(amount: number, currency: string | undefined): string {
  return currency ? formatCurrency(amount, { currency }) : amount.toFixed(2);
}

function share(part: number, whole: number): string | undefined {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}% of live resources` : undefined;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Tags page Overview (spec 1 §2.8, built natively): resources, tagged vs untagged, trend, compliance. */
export function TagsOverview({ now }: { now?: Date }) {
  const [window] = useState(() => presetWindow('last30Days', now));
  const stats = useResourceStats();
  const trend = useResourceTrend({ start_time: window.start, end_time: window.end });
  const compliance = useStandardTagStats();
  // The same query (and cache entry) as the Tag compliance section below.
  const currency = useTagCompliance().data?.currency;

  return (
    <Stack spacing={3}>
      {stats.isError ? <Alert severity="error">{errorMessage(stats.error, OVERVIEW_MESSAGES.statsFailed)}</Alert> : null}
      {stats.isPending ? (
        <Skeleton aria-label="Loading resource statistics" height={90} />
      ) : stats.data ? (
        <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', rowGap: 2 }}>
          <Figure label="Live resources" value={String(stats.data.live)} />
          <Figure label="Deleted resources" value={String(stats.data.deleted)} />
          <Figure label="Tagged" value={String(stats.data.tagged)} note={share(stats.data.tagged, stats.data.live)} />
          <Figure label="Untagged" value={String(stats.data.untagged)} note={share(stats.data.untagged, stats.data.live)} />
        </Stack>
      ) : null}
      <Section title="Live resources, last 30 days">
        {trend.isError ? <Alert severity="error">{errorMessage(trend.error, OVERVIEW_MESSAGES.trendFailed)}</Alert> : null}
        {trend.isPending ? <Skeleton aria-label="Loading the resource trend" height={160} /> : null}
        {trend.data ? <TrendChart points={trend.data} startDate={window.startDate} endDate={window.endDate} /> : null}
      </Section>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
        <Box sx={{ flex: 1 }}>
          <Section title="Live resources by type">
            {stats.data && stats.data.by_type.length ? (
              <Table size="small" aria-label="Live resources by type">
                <TableHead>
                  <TableRow>
                    <TableCell>Resource Type</TableCell>
                    <TableCell align="right">Live</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {stats.data.by_type.map((row) => (
                    <TableRow key={row.resource_type}>
                      <TableCell title={row.resource_type}>{typeLabel(row.resource_type)}</TableCell>
                      <TableCell align="right">{row.live}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            ) : (
              <Typography variant="body2" color="text.secondary">
                No live resources
              </Typography>
            )}
          </Section>
        </Box>
        <Box sx={{ flex: 2 }}>
          <Section title="Standard tag compliance">
            {compliance.isError ? (
              <Alert severity="error">{errorMessage(compliance.error, OVERVIEW_MESSAGES.complianceFailed)}</Alert>
            ) : null}
            {compliance.isPending ? <Skeleton aria-label="Loading standard tag compliance" height={100} /> : null}
            {compliance.data && compliance.data.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {OVERVIEW_MESSAGES.noStandardTags}
              </Typography>
            ) : null}
            {compliance.data && compliance.data.length ? (
              <Table size="small" aria-label="Standard tag compliance">
                <TableHead>
                  <TableRow>
                    <TableCell>Tag Key</TableCell>
                    <TableCell align="right">Compliant</TableCell>
                    <TableCell align="right">Missing</TableCell>
                    <TableCell align="right">Invalid Value</TableCell>
                    <TableCell align="right">Cost Missing</TableCell>
                    <TableCell align="right">Cost Invalid</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {compliance.data.map((row) => (
                    <TableRow key={row.id}>
                      <TableCell>{row.key}</TableCell>
                      <TableCell align="right">{row.compliant}</TableCell>
                      <TableCell align="right">{row.missing}</TableCell>
                      <TableCell align="right">{row.invalid}</TableCell>
                      <TableCell align="right">{statsCost(row.missing_cost, currency)}</TableCell>
                      <TableCell align="right">{statsCost(row.invalid_cost, currency)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            ) : null}
          </Section>
        </Box>
      </Stack>
      <TagCompliance standardTagCount={compliance.data?.length} />
    </Stack>
  );
}
