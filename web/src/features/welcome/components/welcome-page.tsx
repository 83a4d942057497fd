import CloudOutlinedIcon from '@mui/icons-material/CloudOutlined';
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import { Box, Button, Grid, Paper, Stack, Typography } from '@mui/material';
import { useNavigate } from 'react-router';
import { useAppConfig, useCustomer, useMe } from '@/api/queries';
import { mailto } from '@/lib/mailto';
import { isTrialEnded, trialDaysRemaining } from '@/lib/trial';
import { FeatureCards } from './feature-cards';
import { OnboardingStep } from './onboarding-step';
import { TrialBanner } from './trial-banner';

/** Spec 1 §2.4: onboarding page with the trial banner, two steps and the feature cards. */
export function WelcomePage() {
  const navigate = useNavigate();
  const config = useAppConfig();
  const customer = useCustomer();
  const me = useMe();
  const daysRemaining = trialDaysRemaining(customer.data?.trialEndDate);
  const ended = isTrialEnded(daysRemaining);
  const firstName = me.data?.name?.trim().split(/\s+/)[0];

  return (
    <Box>
      <Typography variant="h4" component="h1">
        {firstName ? `Welcome to Costscope, ${firstName}` : 'Welcome to Costscope'}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
        Two steps to see where your cloud money goes.
      </Typography>

      {customer.isSuccess ? <TrialBanner daysRemaining={daysRemaining} supportEmail={config.support_email} /> : null}

      <Grid container spacing={2} sx={{ mb: 5 }}>
        <Grid size={{ xs: 12, md: 6 }}>
          <OnboardingStep
            step={1}
            title="Connect your cloud accounts"
            icon={<CloudOutlinedIcon />}
            description="Link your AWS accounts or organisation and your GCP projects. Costscope uses read-only access to read billing data and discover resources."
            actionLabel="Connect Accounts"
            disabled={ended}
            onAction={() => navigate('/settings/integrations', { state: { fromWelcome: true } })}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <OnboardingStep
            step={2}
            title="Invite your team members"
            icon={<GroupAddOutlinedIcon />}
            description={
              <>
                Invite colleagues and assign each a role: <strong>Owner</strong> has full access,{' '}
                <strong>Admin</strong> manages users and integrations, and <strong>User</strong> can view.
              </>
            }
            actionLabel="Manage Users"
            disabled={ended}
            onAction={() => navigate('/settings/users', { state: { fromWelcome: true } })}
          />
        </Grid>
      </Grid>

      <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
        What you can do with Costscope
      </Typography>
      <Box sx={{ mb: 5 }}>
        <FeatureCards />
      </Box>

      <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="welcome-support">
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }} justifyContent="space-between">
          <Box>
            <Typography variant="h6" component="h2" id="welcome-support">
              Need help getting started?
            </Typography>
            <Typography color="text.secondary">
              Our support team can help you connect accounts, set up billing exports and invite your team.
            </Typography>
          </Box>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ flexShrink: 0 }}>
            {config.support_email ? (
              <Button variant="outlined" startIcon={<MailOutlineIcon />} href={mailto(config.support_email)} sx={{ textTransform: 'none' }}>
                {config.support_email}
              </Button>
            ) : null}
            {config.documentation_url ? (
              <Button
                variant="outlined"
                startIcon={<MenuBookOutlinedIcon />}
                href={config.documentation_url}
                target="_blank"
                rel="noreferrer"
              >
                Documentation
              </Button>
            ) : null}
          </Stack>
        </Stack>
      </Paper>
    </Box>
  );
}
