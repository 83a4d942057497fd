import MailOutlineIcon from '@mui/icons-material/MailOutline';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import { AppBar, Button, IconButton, Stack, Toolbar } from '@mui/material';
import { useAppConfig } from '@/api/queries';
import { mailto } from '@/lib/mailto';
import { Logo } from './logo';

/** Header for visitors who are not signed in: logo, Documentation and the contact e-mail. */
export function PublicHeader() {
  const config = useAppConfig();
  return (
    <AppBar position="static" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 2 }}>
        <Logo color="text.primary" />
        <Stack direction="row" spacing={{ xs: 0, sm: 1 }} sx={{ ml: 'auto' }} alignItems="center">
          {config.documentation_url ? (
            <Button
              href={config.documentation_url}
              target="_blank"
              rel="noreferrer"
              startIcon={<MenuBookOutlinedIcon />}
              color="inherit"
              sx={{ '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } } }}
            >
              Documentation
            </Button>
          ) : null}
          {config.support_email ? (
            <IconButton
              href={mailto(config.support_email)}
              aria-label="Contact support"
              color="inherit"
              sx={{ display: { xs: 'inline-flex', sm: 'none' } }}
            >
              <MailOutlineIcon />
            </IconButton>
          ) : null}
          {config.support_email ? (
            <Button
              href={mailto(config.support_email)}
              startIcon={<MailOutlineIcon />}
              color="inherit"
              sx={{ textTransform: 'none', display: { xs: 'none', sm: 'inline-flex' } }}
            >
              {config.support_email}
            </Button>
          ) : null}
        </Stack>
      </Toolbar>
    </AppBar>
  );
}
