import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormHelperText,
  MenuItem,
  Paper,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/api/api-error';
import { useMe } from '@/api/queries';
import { PageHeader } from '@/components/page-header';
import { useChannels } from '../api/get-channels';
import { useMyDigest } from '../api/get-my-digest';
import { useUpdateMyDigest } from '../api/update-my-digest';
import type { DigestFrequency, DigestSettings } from '../types';
import { digestProblems, type DigestFieldErrors } from '../utils/digest-form';
import { DIGEST_MESSAGES, NOTIFICATION_MESSAGES } from '../utils/messages';

const FREQUENCIES: { value: DigestFrequency; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly (Mondays)' },
];

/** The channel select's value for "no channel". */
const NO_CHANNEL = '';

/** Issue 15: /settings/digest — the signed-in user's own scheduled digest. */
export function DigestPage() {
  const digest = useMyDigest();
  let body;
  if (digest.isError) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void digest.refetch()}>
            Retry
          </Button>
        }
      >
        {DIGEST_MESSAGES.loadFailed}: {errorMessage(digest.error, 'unexpected error')}
      </Alert>
    );
  } else if (digest.isPending) {
    body = <Skeleton variant="rounded" height={200} aria-label="Loading your digest settings" />;
  } else {
    body = <DigestForm saved={digest.data} />;
  }
  return (
    <Box>
      <PageHeader
        title={DIGEST_MESSAGES.title}
        subtitle="A summary for you alone: spend this period against the one before, the top movers, open anomalies and budgets at risk."
      />
      <Paper variant="outlined" sx={{ p: 3 }}>
        {body}
      </Paper>
    </Box>
  );
}

function DigestForm({ saved }: { saved: DigestSettings }) {
  const me = useMe();
  const channels = useChannels();
  const save = useUpdateMyDigest();
  const [values, setValues] = useState<DigestSettings>(saved);
  const [errors, setErrors] = useState<DigestFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [savedNotice, setSavedNotice] = useState(false);

  const change = (next: Partial<DigestSettings>) => {
    setValues((current) => ({ ...current, ...next }));
    setSavedNotice(false);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    setSavedNotice(false);
    setErrors({});
    save.mutate(values, {
      onSuccess: (stored) => {
        setValues(stored);
        setSavedNotice(true);
      },
      onError: (error) => {
        const problems = digestProblems(error);
        setErrors(problems.fields);
        setFormError(problems.form);
      },
    });
  };

  const channelList = channels.data ?? [];
  // A channel chosen before but not listed (yet) stays shown by its id.
  const unlisted = values.channelId != null && !channelList.some((channel) => channel.id === values.channelId);
  const address = me.data?.email;

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Digest settings">
      {formError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {formError}
        </Alert>
      ) : null}
      <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
        <TextField
          select
          label="Frequency"
          value={values.frequency}
          onChange={(event) => change({ frequency: event.target.value as DigestFrequency })}
          error={Boolean(errors.frequency)}
          helperText={errors.frequency ?? 'Daily: the latest complete day. Weekly: on Mondays (UTC), the last 7 days.'}
        >
          {FREQUENCIES.map((frequency) => (
            <MenuItem key={frequency.value} value={frequency.value}>
              {frequency.label}
            </MenuItem>
          ))}
        </TextField>
        <FormControl error={Boolean(errors.email)}>
          <FormControlLabel
            control={
              <Checkbox
                checked={values.email}
                onChange={(event) => change({ email: event.target.checked })}
                slotProps={{ input: { 'aria-describedby': 'digest-email-help', 'aria-invalid': Boolean(errors.email) } }}
              />
            }
            label="E-mail it to me"
          />
          <FormHelperText id="digest-email-help">{errors.email ?? (address ? `To ${address}` : 'To your own address')}</FormHelperText>
        </FormControl>
        <TextField
          select
          label="Channel"
          value={values.channelId == null ? NO_CHANNEL : String(values.channelId)}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          onChange={(event) => change({ channelId: event.target.value === NO_CHANNEL ? null : Number(event.target.value) })}
          error={Boolean(errors.channelId)}
          helperText={
            errors.channelId ??
            (channels.isError ? NOTIFICATION_MESSAGES.channelsFailed : 'Also send it to one of your team’s channels; only the one you pick gets it')
          }
        >
          <MenuItem value={NO_CHANNEL}>None</MenuItem>
          {channelList.map((channel) => (
            <MenuItem key={channel.id} value={String(channel.id)}>
              {channel.name}
            </MenuItem>
          ))}
          {unlisted ? <MenuItem value={String(values.channelId)}>{`Channel ${values.channelId}`}</MenuItem> : null}
        </TextField>
        <Stack direction="row" spacing={2} alignItems="center">
          <Button type="submit" variant="contained" loading={save.isPending}>
            Save digest
          </Button>
          {savedNotice ? (
            <Typography role="status" color="success.main" variant="body2">
              {DIGEST_MESSAGES.saved}
            </Typography>
          ) : null}
        </Stack>
      </Stack>
    </Box>
  );
}
