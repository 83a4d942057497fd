import {
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useCustomer, useMe } from '@/api/queries';
import { isDemoCustomer } from '@/components/inventory';
import { formatCurrency } from '@/lib/cost/format';
import { useDismissal, useSavings } from './api';
import { failureText, moneyOrNone, otherCurrenciesText, periodText } from './format';
import { ResourceRefCell } from './resource-ref';
import type { Recommendation, RecommendationKind } from './types';

export const RECOMMENDATION_MESSAGES = {
  loadFailed: 'Failed to load recommendations',
  dismissFailed: 'Failed to dismiss the recommendation',
  restoreFailed: 'Failed to restore the recommendation',
  none: 'No recommendations right now. None of the EC2 instances, EBS volumes, snapshots or Elastic IPs found by discovery is unused, idle or on an older, more expensive type. Recommendations appear here once discovery has scanned your AWS accounts.',
  allDismissed: (count: number) =>
    count === 1
      ? 'The only recommendation is dismissed. Turn on Show dismissed to see it.'
      : `All ${count} recommendations are dismissed. Turn on Show dismissed to see them.`,
  notAdmin: 'Only owners and admins can dismiss recommendations',
  demo: 'Recommendations cannot be dismissed in the demo',
} as const;

export const KIND_LABELS: Record<RecommendationKind, string> = {
  unattached_volume: 'Unattached volume',
  unassociated_elastic_ip: 'Unassociated Elastic IP',
  orphaned_snapshot: 'Old snapshot of a deleted volume',
  gp2_volume: 'gp2 volume',
  previous_generation_instance: 'Previous-generation instance',
  stopped_instance_volumes: 'Stopped instance',
  idle_instance: 'Idle instance',
};

function Row({
  recommendation,
  canManage,
  reason,
  busy,
  onToggle,
}: {
  recommendation: Recommendation;
  canManage: boolean;
  reason: string | null;
  busy: boolean;
  onToggle(recommendation: Recommendation): void;
}) {
  const { dismissed } = recommendation;
  const label = `${dismissed ? 'Restore' : 'Dismiss'} ${recommendation.title}`;
  return (
    <TableRow sx={dismissed ? { opacity: 0.6 } : undefined}>
      <TableCell sx={{ minWidth: 180 }}>
        <ResourceRefCell resource={recommendation.resource} />
      </TableCell>
      <TableCell sx={{ minWidth: 260 }}>
        <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 0.5, flexWrap: 'wrap', rowGap: 0.5 }}>
          <Chip size="small" variant="outlined" label={KIND_LABELS[recommendation.kind] ?? recommendation.kind} />
          {dismissed ? <Chip size="small" label="Dismissed" /> : null}
        </Stack>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {recommendation.title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {recommendation.evidence}
        </Typography>
      </TableCell>
      <TableCell sx={{ minWidth: 200 }}>
        <Typography variant="body2">{recommendation.action}</Typography>
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {moneyOrNone(recommendation.monthly_saving, recommendation.currency)}
      </TableCell>
      <TableCell align="right">
        <Tooltip title={reason ?? ''}>
          <span>
            <Button size="small" aria-label={label} disabled={!canManage || busy} onClick={() => onToggle(recommendation)}>
              {dismissed ? 'Restore' : 'Dismiss'}
            </Button>
          </span>
        </Tooltip>
      </TableCell>
    </TableRow>
  );
}

/**
 * Cost Saving's recommendations (issue 14 "Savings"): each names the resource, the evidence, the
 * monthly saving from the resource's own billed cost and how to act; the total; Dismiss
 * (owners and admins, remembered by the server) and Show dismissed with Restore.
 */
export function SavingsRecommendations() {
  const savings = useSavings();
  const dismissal = useDismissal();
  const me = useMe();
  const customer = useCustomer();
  const [showDismissed, setShowDismissed] = useState(false);
  const [pending, setPending] = useState<string | null>(null);

  const adminLevel = me.data?.role === 'owner' || me.data?.role === 'admin';
  const reason = !me.data ? null : !adminLevel ? RECOMMENDATION_MESSAGES.notAdmin : isDemoCustomer(customer.data) ? RECOMMENDATION_MESSAGES.demo : null;
  const canManage = Boolean(me.data && customer.data) && reason === null;

  const answer = savings.data;
  const all = answer?.recommendations ?? [];
  const dismissedCount = all.filter((r) => r.dismissed).length;
  const activeCount = all.length - dismissedCount;
  const rows = showDismissed ? all : all.filter((r) => !r.dismissed);

  const toggle = (recommendation: Recommendation) => {
    setPending(recommendation.id);
    dismissal.mutate({ id: recommendation.id, restore: recommendation.dismissed }, { onSettled: () => setPending(null) });
  };
  const failed = dismissal.isError
    ? failureText(dismissal.error, dismissal.variables?.restore ? RECOMMENDATION_MESSAGES.restoreFailed : RECOMMENDATION_MESSAGES.dismissFailed)
    : null;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="savings-recommendations-title" sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} justifyContent="space-between" alignItems={{ sm: 'flex-start' }} spacing={2} sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h6" component="h2" id="savings-recommendations-title">
            Recommendations
          </Typography>
          <Typography variant="body2" color="text.secondary">
            What to cut in the resources discovery found, priced from each resource&apos;s own billed cost
            {answer ? ` (${periodText(answer.cost_period)}, UTC)` : ''}.
          </Typography>
        </Box>
        {answer ? (
          <Paper variant="outlined" role="group" aria-label="Total monthly saving" sx={{ p: 1.5, minWidth: 200 }}>
            <Typography variant="body2" color="text.secondary">
              Total monthly saving
            </Typography>
            <Typography variant="h5" component="p">
              {formatCurrency(answer.total_monthly_saving, { currency: answer.currency })}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {activeCount === 1 ? 'from 1 recommendation' : `from ${activeCount} recommendations`}
              {dismissedCount ? `, ${dismissedCount} dismissed left out` : ''}
            </Typography>
          </Paper>
        ) : null}
      </Stack>
      {savings.isError ? <Alert severity="error">{failureText(savings.error, RECOMMENDATION_MESSAGES.loadFailed)}</Alert> : null}
      {failed ? (
        <Alert severity="error" onClose={() => dismissal.reset()} sx={{ mb: 2 }}>
          {failed}
        </Alert>
      ) : null}
      {savings.isPending ? <Skeleton aria-label="Loading recommendations" height={120} /> : null}
      {answer ? (
        <>
          <FormControlLabel
            control={<Switch checked={showDismissed} onChange={(_, checked) => setShowDismissed(checked)} />}
            label={`Show dismissed (${dismissedCount})`}
            sx={{ mb: 1 }}
          />
          {all.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {RECOMMENDATION_MESSAGES.none}
            </Typography>
          ) : rows.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {RECOMMENDATION_MESSAGES.allDismissed(dismissedCount)}
            </Typography>
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Savings recommendations">
                <TableHead>
                  <TableRow>
                    <TableCell>Resource</TableCell>
                    <TableCell>Recommendation</TableCell>
                    <TableCell>How to act</TableCell>
                    <TableCell align="right">Monthly saving</TableCell>
                    <TableCell align="right">
                      <Box component="span" sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                        Actions
                      </Box>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((recommendation) => (
                    <Row
                      key={recommendation.id}
                      recommendation={recommendation}
                      canManage={canManage}
                      reason={reason}
                      busy={pending === recommendation.id}
                      onToggle={toggle}
                    />
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
          {answer.other_currencies.length ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Billed cost in other currencies is left out of every saving: {otherCurrenciesText(answer.other_currencies)}
            </Typography>
          ) : null}
        </>
      ) : null}
    </Paper>
  );
}
