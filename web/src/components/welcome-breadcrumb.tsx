import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { Breadcrumbs, Link, Typography } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router';

/** State carried by the welcome page's links to the settings pages. */
export interface FromWelcomeState {
  fromWelcome?: boolean;
}

export function cameFromWelcome(state: unknown): boolean {
  return Boolean(state && typeof state === 'object' && (state as FromWelcomeState).fromWelcome);
}

/** "Welcome > page name", shown only when the user came from the welcome page. */
export function WelcomeBreadcrumb({ pageName }: { pageName: string }) {
  const location = useLocation();
  if (!cameFromWelcome(location.state)) return null;
  return (
    <Breadcrumbs aria-label="breadcrumb" separator={<NavigateNextIcon fontSize="small" />} sx={{ mb: 2 }}>
      <Link component={RouterLink} to="/welcome" underline="hover" color="inherit">
        Welcome
      </Link>
      <Typography color="text.primary" aria-current="page">
        {pageName}
      </Typography>
    </Breadcrumbs>
  );
}
