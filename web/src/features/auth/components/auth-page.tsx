import { Alert, Box, Container, Paper, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppConfig } from '@/api/queries';
import type { PublicConfig } from '@/api/types';
import { useSessionRestoring } from '@/api/use-session';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { PublicHeader } from '@/components/public-header';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';

type AuthTab = 'signIn' | 'signUp';

/** Spec 1 §2.3: the form starts on sign-up when the address contains "signup". */
export function initialAuthTab(pathname: string, search = ''): AuthTab {
  return `${pathname}${search}`.toLowerCase().includes('signup') ? 'signUp' : 'signIn';
}

/** Addresses that only exist for the auth page; after signing in they lead home. */
const AUTH_ONLY_PATH = /(signup|signin|sign-in|sign-up|login)/i;

/** What the server answers to a sign-up while `allow_signup` is off (the same words). */
export const SIGN_UP_CLOSED =
  'Sign-up is closed on this server. Ask an administrator of your organisation to invite you.';

/** `allow_signup` of GET /v1/auth/config (true when an older server does not send it). */
function useSignUpAllowed(): boolean {
  const config = useAppConfig() as PublicConfig & { allow_signup?: boolean };
  return config.allow_signup !== false;
}

/** Shown for any route while nobody is signed in. */
export function AuthPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [tab, setTab] = useState<AuthTab>(() => initialAuthTab(location.pathname, location.search));
  const signUpAllowed = useSignUpAllowed();
  const restoring = useSessionRestoring();

  const onAuthenticated = () => {
    if (AUTH_ONLY_PATH.test(location.pathname)) navigate('/', { replace: true });
  };

  // A reloaded page asks the server for its session first: no sign-in form flashes meanwhile.
  if (restoring) return <FullPageSpinner />;

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <PublicHeader />
      <Container maxWidth="sm" sx={{ flex: 1, display: 'flex', alignItems: 'center', py: { xs: 3, sm: 6 } }}>
        <Paper variant="outlined" sx={{ width: '100%', p: { xs: 3, sm: 5 } }}>
          <Typography variant="h5" component="h1" gutterBottom>
            {tab === 'signIn' ? 'Sign in to Costscope' : 'Create your Costscope account'}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            See where your cloud money goes across AWS, GCP and Azure.
          </Typography>
          <Tabs
            value={tab}
            onChange={(_, value: AuthTab) => setTab(value)}
            variant="fullWidth"
            sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
          >
            <Tab value="signIn" label="Sign In" id="auth-tab-sign-in" aria-controls="auth-panel-sign-in" />
            <Tab value="signUp" label="Create Account" id="auth-tab-sign-up" aria-controls="auth-panel-sign-up" />
          </Tabs>
          {tab === 'signIn' ? (
            <Box role="tabpanel" id="auth-panel-sign-in" aria-labelledby="auth-tab-sign-in">
              <SignInForm onSignedIn={onAuthenticated} />
            </Box>
          ) : (
            <Box role="tabpanel" id="auth-panel-sign-up" aria-labelledby="auth-tab-sign-up">
              {signUpAllowed ? (
                <SignUpForm onSignedUp={onAuthenticated} />
              ) : (
                <Alert severity="info">{SIGN_UP_CLOSED}</Alert>
              )}
            </Box>
          )}
        </Paper>
      </Container>
    </Box>
  );
}
