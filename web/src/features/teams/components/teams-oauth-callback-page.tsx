import { Box, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { completeSignIn } from '../api/complete-sign-in';
import { callbackVerdict } from '../utils/auth-return';
import { TEAMS_LABELS } from '../utils/messages';
import { connectPathWithAuth, type AuthResult } from '../utils/paths';

/** Spec 2 §9: without a redirect after 5 s the page gives up with auth=timeout. */
export const CALLBACK_TIMEOUT_MS = 5_000;

/**
 * /teams-oauth-callback, where Microsoft's sign-in returns (spec 2 §2; docs/NOTIFICATIONS.md):
 * with a code, the server redeems it (`POST /v1/api/teams/oauth/callback {code, state}`), then
 * the connect page opens with auth=success, or auth=error when that failed; error=access_denied
 * is auth=cancelled, another error auth=error. The history entry carrying the code is replaced.
 */
export function TeamsOAuthCallbackPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code');
  const state = params.get('state');
  const error = params.get('error');
  // One exchange per code, even when effects run twice (React's StrictMode): a code is redeemed once.
  const outcome = useRef<Promise<AuthResult> | null>(null);

  useEffect(() => {
    let done = false;
    const finish = (auth: AuthResult) => {
      if (done) return;
      done = true;
      navigate(connectPathWithAuth(auth), { replace: true });
    };
    if (outcome.current === null) {
      const verdict = callbackVerdict(code, error);
      outcome.current =
        verdict === 'exchange'
          ? completeSignIn({ code: code ?? '', state: state ?? '' }).then(
              (): AuthResult => 'success',
              (): AuthResult => 'error',
            )
          : Promise.resolve(verdict);
    }
    void outcome.current.then(finish);
    const timer = setTimeout(() => finish('timeout'), CALLBACK_TIMEOUT_MS);
    return () => {
      done = true;
      clearTimeout(timer);
    };
  }, [code, state, error, navigate]);

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
      <Stack spacing={2} alignItems="center" sx={{ textAlign: 'center' }}>
        <CircularProgress aria-label="Connecting Microsoft Teams" />
        <Typography variant="h6" component="h1">
          {TEAMS_LABELS.processing}
        </Typography>
        <Typography color="text.secondary">
          If nothing happens in a few seconds,{' '}
          <Link component={RouterLink} to={connectPathWithAuth('manual')} replace>
            {TEAMS_LABELS.clickHere}
          </Link>
          .
        </Typography>
        <noscript>
          <a href={connectPathWithAuth('nojs')}>{TEAMS_LABELS.clickHere}</a>
        </noscript>
      </Stack>
    </Box>
  );
}
