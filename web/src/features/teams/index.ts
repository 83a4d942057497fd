export { TeamsConnectPage } from './components/teams-connect-page';
export { TeamsOAuthCallbackPage } from './components/teams-oauth-callback-page';
