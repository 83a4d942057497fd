export { AuthPage, initialAuthTab } from './components/auth-page';
export { InvitationPage } from './components/invitation-page';
export { signOut, useSignOut } from './api/sign-out';
