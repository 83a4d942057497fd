import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Box, Button, Paper } from '@mui/material';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessage, isApiError } from '@/api/api-error';
import { useMe } from '@/api/queries';
import { PageHeader } from '@/components/page-header';
import { PageToast, type Toast } from '@/components/page-toast';
import { useSelectChannel } from '../api/select-channel';
import { useStartSignIn } from '../api/start-sign-in';
import { startFromAuthResult, type ConnectStep as Step } from '../utils/auth-return';
import { callbackUrl, goToSignIn } from '../utils/browser';
import { TEAMS_LABELS, TEAMS_MESSAGES } from '../utils/messages';
import { INTEGRATIONS_PATH, TEAMS_CALLBACK_PATH, TEAMS_CONNECT_PATH, parseAuthResult } from '../utils/paths';
import { forgetPendingChannel, rememberPendingChannel } from '../utils/pending-channel';
import { isAdminLevel } from '@/api/roles';
import { ChannelPicker, type PickedChannel } from './channel-picker';
import { ConnectStep } from './connect-step';
import { ConnectedView } from './connected-view';

/**
 * Spec 2 §2 Microsoft Teams connect (/settings/ms-teams-connect): Connect → Microsoft's sign-in
 * → back here with `auth=…` → team and channel → Complete, then back to the integrations.
 */
export function TeamsConnectPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const me = useMe();
  const canManage = isAdminLevel(me.data?.role);
  // The return from the sign-in decides where the page starts (read once, before the URL is cleaned).
  const [start] = useState(() => startFromAuthResult(parseAuthResult(params.get('auth'))));
  const [step, setStep] = useState<Step>(start.step);
  const [toast, setToast] = useState<Toast | null>(start.toast);
  const signIn = useStartSignIn();
  const select = useSelectChannel();

  const hasQuery = params.size > 0;
  useEffect(() => {
    if (hasQuery) navigate(TEAMS_CONNECT_PATH, { replace: true });
  }, [hasQuery, navigate]);

  const onConnect = () => {
    signIn.mutate(callbackUrl(TEAMS_CALLBACK_PATH), {
      onSuccess: (answer) => {
        if (!answer?.auth_url) {
          setToast({ severity: 'error', message: TEAMS_MESSAGES.initiateFailed(TEAMS_MESSAGES.invalidAuthResponse) });
          return;
        }
        rememberPendingChannel(answer.channel_id);
        goToSignIn(answer.auth_url);
      },
      onError: (error) =>
        setToast({ severity: 'error', message: TEAMS_MESSAGES.initiateFailed(errorMessage(error, 'unexpected error')) }),
    });
  };

  const onContinue = (channelId: number, { team, channel }: PickedChannel) => {
    select.mutate(
      { channelId, teamId: team.id, teamChannelId: channel.id },
      {
        onSuccess: () => {
          forgetPendingChannel();
          setStep({ kind: 'complete', teamName: team.displayName, channelName: channel.displayName });
        },
        onError: (error) =>
          setToast({
            severity: 'error',
            message: TEAMS_MESSAGES.completeFailed(isApiError(error) ? error.message : undefined),
          }),
      },
    );
  };

  return (
    <Box>
      <PageHeader
        title={TEAMS_LABELS.title}
        subtitle="Send budget alerts and notifications to a Microsoft Teams channel."
        actions={
          step.kind === 'complete' ? null : (
            <Button startIcon={<ArrowBackIcon />} onClick={() => navigate(INTEGRATIONS_PATH)}>
              {TEAMS_LABELS.back}
            </Button>
          )
        }
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
        {step.kind === 'connect' ? <ConnectStep canManage={canManage} pending={signIn.isPending} onConnect={onConnect} /> : null}
        {step.kind === 'pick' ? (
          <ChannelPicker
            channelId={step.channelId}
            canManage={canManage}
            pending={select.isPending}
            onContinue={(picked) => onContinue(step.channelId, picked)}
            onConnectAgain={() => {
              forgetPendingChannel();
              setStep({ kind: 'connect' });
            }}
          />
        ) : null}
        {step.kind === 'complete' ? <ConnectedView teamName={step.teamName} channelName={step.channelName} /> : null}
      </Paper>
      <PageToast toast={toast} onClose={() => setToast(null)} />
    </Box>
  );
}
