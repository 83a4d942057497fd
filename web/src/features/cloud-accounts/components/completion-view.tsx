import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import { Button, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { INTEGRATIONS_PATH, useCountdownRedirect } from '../hooks/use-countdown-redirect';

export interface CompletionViewProps {
  title: string;
  children?: ReactNode;
  /** Goes back to Cloud Accounts after this long. */
  redirectMs: number;
}

/** The last step of a connect wizard: what happened, then back to Cloud Accounts. */
export function CompletionView({ title, children, redirectMs }: CompletionViewProps) {
  const navigate = useNavigate();
  const left = useCountdownRedirect(true, redirectMs);
  return (
    <Stack spacing={2} alignItems="center" sx={{ py: 3, textAlign: 'center' }} role="status">
      <CheckCircleOutlineIcon color="success" sx={{ fontSize: 56 }} />
      <Typography variant="h5" component="h2">
        {title}
      </Typography>
      {children}
      <Typography variant="body2" color="text.secondary">
        Redirecting to Cloud Accounts in {left} {left === 1 ? 'second' : 'seconds'}
      </Typography>
      <Button variant="outlined" onClick={() => navigate(INTEGRATIONS_PATH)}>
        Back to Cloud Accounts
      </Button>
    </Stack>
  );
}
