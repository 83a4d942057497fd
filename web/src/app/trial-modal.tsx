import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState } from 'react';
import type { Customer } from '@/api/types';
import { formatDateUtc } from '@/lib/dates';
import { mailto } from '@/lib/mailto';
import { daysUntilEpochSeconds, formatDays, shouldShowTrialModal } from '@/lib/trial';

const DISMISSED_KEY = 'costscope.trialModalDismissed';

function wasDismissed(): boolean {
  try {
    return globalThis.sessionStorage?.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export interface TrialModalProps {
  /** The Tier and EndTime of GET /v1/customer (an end time may be missing on older servers). */
  customer: { Tier?: Customer['Tier'] | null; EndTime?: Customer['EndTime'] | null } | undefined;
  supportEmail?: string;
  now?: Date;
}

/** Spec 2 §4: warns free-tier customers in the last 7 days of the trial; closing hides it for the session. */
export function TrialModal({ customer, supportEmail, now }: TrialModalProps) {
  const [dismissed, setDismissed] = useState(wasDismissed);
  if (dismissed || !customer || !shouldShowTrialModal(customer, now)) return null;

  const endTime = customer.EndTime as number;
  const days = daysUntilEpochSeconds(endTime, now);
  const close = () => {
    try {
      globalThis.sessionStorage?.setItem(DISMISSED_KEY, '1');
    } catch {
      // ignore
    }
    setDismissed(true);
  };

  return (
    <Dialog open onClose={close} aria-labelledby="trial-modal-title" maxWidth="xs" fullWidth>
      <DialogTitle id="trial-modal-title">Free trial ends soon!</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1.5 }}>
          {days > 0
            ? `Your free trial ends in ${formatDays(days)}, on ${formatDateUtc(endTime * 1000)}.`
            : 'Your free trial has ended.'}
        </DialogContentText>
        <DialogContentText>
          {supportEmail
            ? `To keep using Costscope without interruption, contact ${supportEmail} to extend your trial or upgrade your plan.`
            : 'To keep using Costscope without interruption, contact support to extend your trial or upgrade your plan.'}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {supportEmail ? (
          <Button href={mailto(supportEmail, 'Extend or upgrade my Costscope trial')}>Contact support</Button>
        ) : null}
        <Button variant="contained" onClick={close}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
