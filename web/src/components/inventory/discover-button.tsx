import RadarIcon from '@mui/icons-material/Radar';
import { Alert, Box, Button, IconButton, Snackbar, Tooltip } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useCustomer } from '@/api/queries';
import { triggerDiscovery } from './api';
import {
  DISCOVERY_COOLDOWN_MS,
  DISCOVERY_TOAST_MS,
  isDemoCustomer,
  outcomeOfAnswer,
  outcomeOfError,
  type DiscoveryOutcome,
} from './discovery';

export const DISCOVER_LABEL = 'Discover now';
export const DEMO_DISCOVERY_TEXT = 'Discovery cannot be triggered in the demo';

export interface DiscoverButtonProps {
  /** The header's icon button instead of the page's button. */
  compact?: boolean;
}

/**
 * The on-demand discovery trigger (spec 2 §4, §8): `POST /v1/job`; disabled while the call
 * runs, for the demo user, and for 2 s after it; the answer as a toast at the top right (5 s).
 */
export function DiscoverButton({ compact = false }: DiscoverButtonProps) {
  const customer = useCustomer();
  const queryClient = useQueryClient();
  const [coolingDown, setCoolingDown] = useState(false);
  const [toast, setToast] = useState<DiscoveryOutcome | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const trigger = useMutation({
    mutationFn: triggerDiscovery,
    onSuccess: (answer) => {
      const outcome = outcomeOfAnswer(answer);
      setToast(outcome);
      if (outcome.severity === 'success') void queryClient.invalidateQueries({ queryKey: ['discovery'] });
    },
    onError: (error) => setToast(outcomeOfError(error)),
    onSettled: () => {
      setCoolingDown(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCoolingDown(false), DISCOVERY_COOLDOWN_MS);
    },
  });

  const demo = isDemoCustomer(customer.data);
  const disabled = trigger.isPending || coolingDown || demo || !customer.data;
  const tooltip = demo ? DEMO_DISCOVERY_TEXT : 'Discover the resources of every connected AWS account now';

  return (
    <>
      <Tooltip title={tooltip}>
        <span>
          {compact ? (
            <IconButton aria-label={DISCOVER_LABEL} disabled={disabled} onClick={() => trigger.mutate()}>
              <RadarIcon />
            </IconButton>
          ) : (
            <Button variant="outlined" startIcon={<RadarIcon />} disabled={disabled} onClick={() => trigger.mutate()}>
              {DISCOVER_LABEL}
            </Button>
          )}
        </span>
      </Tooltip>
      <Snackbar
        open={toast !== null}
        autoHideDuration={DISCOVERY_TOAST_MS}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        onClose={(_, reason) => {
          if (reason !== 'clickaway') setToast(null);
        }}
      >
        {toast ? (
          <Alert severity={toast.severity} variant="filled" onClose={() => setToast(null)} sx={{ maxWidth: 480 }}>
            {toast.message}
            {toast.detail ? <Box sx={{ mt: 0.5 }}>{toast.detail}</Box> : null}
          </Alert>
        ) : (
          <span />
        )}
      </Snackbar>
    </>
  );
}
