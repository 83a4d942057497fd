import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Button, Paper, Stack, Typography } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 6 }, maxWidth: 640, mx: 'auto', mt: 4, textAlign: 'center' }}>
      <Stack spacing={2} alignItems="center">
        <SearchOffIcon color="disabled" sx={{ fontSize: 56 }} />
        <Typography variant="h4" component="h1">
          Page not found
        </Typography>
        <Typography color="text.secondary">
          There is no page at <code>{pathname}</code>. It may have moved, or it is not enabled for your account.
        </Typography>
        <Button component={RouterLink} to="/" variant="contained">
          Go to home
        </Button>
      </Stack>
    </Paper>
  );
}
