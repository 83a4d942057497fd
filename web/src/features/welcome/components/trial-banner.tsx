import { Alert, AlertTitle, Link } from '@mui/material';
import { formatDays, isTrialEnded } from '@/lib/trial';
import { mailto } from '@/lib/mailto';

export interface TrialBannerProps {
  daysRemaining: number;
  supportEmail?: string;
}

export function TrialBanner({ daysRemaining, supportEmail }: TrialBannerProps) {
  if (isTrialEnded(daysRemaining)) {
    return (
      <Alert severity="warning" variant="outlined" sx={{ mb: 4 }}>
        <AlertTitle>Your free trial has ended</AlertTitle>
        Contact support
        {supportEmail ? (
          <>
            {' at '}
            <Link href={mailto(supportEmail, 'Extend or upgrade my Costscope trial')}>{supportEmail}</Link>
          </>
        ) : null}{' '}
        to extend your trial or upgrade your plan.
      </Alert>
    );
  }
  return (
    <Alert severity="info" variant="outlined" sx={{ mb: 4 }}>
      <AlertTitle>Your free trial ends in {formatDays(daysRemaining)}</AlertTitle>
      Connect your cloud accounts and invite your team to get the most out of your trial.
    </Alert>
  );
}
