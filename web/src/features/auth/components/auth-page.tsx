import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppConfig } from '@/api/queries';
import type { PublicConfig } from '@/api/types';
import { useSessionRestoring } from '@/api/use-session';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { Alert } from '@/components/plain/alert';
import { Tabs, type TabItem } from '@/components/plain/tabs';
import { PublicHeader } from '@/components/public-header';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';
import './auth-page.css';

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

const TABS: TabItem<AuthTab>[] = [
  { value: 'signIn', label: 'Sign In', id: 'auth-tab-sign-in', controls: 'auth-panel-sign-in' },
  { value: 'signUp', label: 'Create Account', id: 'auth-tab-sign-up', controls: 'auth-panel-sign-up' },
];

/**
 * Shown for any route while nobody is signed in. Plain (no MUI): the sign-in page loads at most 120 KB
 * of script (docs/ANALYST-FLOW.md, "Speed over a real network").
 */
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
    <div className="cs-auth-page cs-font">
      <PublicHeader />
      <div className="cs-auth-page__container">
        <div className="cs-paper cs-auth-page__card">
          <h1 className="cs-h5">{tab === 'signIn' ? 'Sign in to Costscope' : 'Create your Costscope account'}</h1>
          <p className="cs-body1 cs-secondary cs-mb-3">See where your cloud money goes across AWS, GCP and Azure.</p>
          <Tabs tabs={TABS} value={tab} onChange={setTab} />
          {tab === 'signIn' ? (
            <div role="tabpanel" id="auth-panel-sign-in" aria-labelledby="auth-tab-sign-in">
              <SignInForm onSignedIn={onAuthenticated} />
            </div>
          ) : (
            <div role="tabpanel" id="auth-panel-sign-up" aria-labelledby="auth-tab-sign-up">
              {signUpAllowed ? <SignUpForm onSignedUp={onAuthenticated} /> : <Alert severity="info">{SIGN_UP_CLOSED}</Alert>}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
