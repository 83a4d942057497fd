import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { formatDayLabel } from '@/lib/cost';
import { formatDateUtc } from '@/lib/dates';
import type { Anomaly } from '../types';
import { accountLabel, daysLabel, impactLabel, money, providerText } from '../utils/labels';
import { AnomalyStatusChip } from './anomaly-status-chip';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography component="dt" variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body1" fontWeight={600} sx={{ m: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** Since when, for how long, actual against expected, the impact, where, and the status. */
export function AnomalyFacts({ anomaly }: { anomaly: Anomaly }) {
  const since =
    anomaly.start === anomaly.end
      ? formatDayLabel(anomaly.start)
      : `${formatDayLabel(anomaly.start)} – ${formatDayLabel(anomaly.end)}`;
  return (
    <Box
      component="dl"
      aria-label="Anomaly facts"
      sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}
    >
      <Fact label="Since">
        {since} ({daysLabel(anomaly.days)})
      </Fact>
      <Fact label="Actual">{money(anomaly.actual, anomaly.currency)}</Fact>
      <Fact label="Expected">{money(anomaly.expected, anomaly.currency)}</Fact>
      <Fact label="Impact">{impactLabel(anomaly)}</Fact>
      {anomaly.tagKey ? (
        <Fact label="Tag">
          {anomaly.tagKey} = {anomaly.tagValue}
        </Fact>
      ) : (
        <Fact label="Service">{anomaly.service}</Fact>
      )}
      <Fact label="Account">{accountLabel(anomaly) ?? 'All accounts'}</Fact>
      <Fact label="Provider">{providerText(anomaly.provider) ?? 'All providers'}</Fact>
      <Fact label="Status">
        <AnomalyStatusChip status={anomaly.status} />
      </Fact>
      <Fact label="Detected">{formatDateUtc(anomaly.detectedAt)}</Fact>
    </Box>
  );
}
