import { AppTheme } from './app-theme';
import { AppRoutes } from './routes/app-routes';

/** Everything behind sign-in, in chunks of its own: MUI's theme and the routes of a signed-in user. */
export function SignedInApp() {
  return (
    <AppTheme>
      <AppRoutes />
    </AppTheme>
  );
}
