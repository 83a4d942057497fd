import { Box, Container, Paper, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
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

/** Shown for any route while nobody is signed in. */
export function AuthPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [tab, setTab] = useState<AuthTab>(() => initialAuthTab(location.pathname, location.search));

  const onAuthenticated = () => {
    if (AUTH_ONLY_PATH.test(location.pathname)) navigate('/', { replace: true });
  };

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
              <SignUpForm onSignedUp={onAuthenticated} />
            </Box>
          )}
        </Paper>
      </Container>
    </Box>
  );
}
