import { Alert, Autocomplete, Box, Button, InputAdornment, Paper, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/api/api-error';
import { useAnomalySettings } from '../api/get-anomaly-settings';
import { useChannelChoices } from '../api/get-channel-choices';
import { useTagKeyChoices } from '../api/get-tag-key-choices';
import { useUpdateAnomalySettings } from '../api/update-anomaly-settings';
import type { AnomalySettings, Channel } from '../types';
import { ANOMALY_MESSAGES } from '../utils/messages';
import { settingsProblems, toFormValues, toSettings, type SettingsFieldErrors, type SettingsFormValues } from '../utils/settings-form';

/** The settings section of /anomalies (owners and admins): thresholds, tag keys, channels. */
export function AnomalySettingsPanel() {
  const settings = useAnomalySettings();
  let body;
  if (settings.isError) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void settings.refetch()}>
            Retry
          </Button>
        }
      >
        {ANOMALY_MESSAGES.settingsFailed}: {errorMessage(settings.error, 'unexpected error')}
      </Alert>
    );
  } else if (settings.isPending) {
    body = <Skeleton variant="rounded" height={160} aria-label="Loading the anomaly settings" />;
  } else {
    body = <SettingsForm saved={settings.data} />;
  }
  return (
    <Paper component="section" aria-labelledby="anomaly-settings-heading" variant="outlined" sx={{ p: 3, mt: 4 }}>
      <Typography variant="h6" component="h2" id="anomaly-settings-heading" sx={{ mb: 0.5 }}>
        {ANOMALY_MESSAGES.settingsTitle}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        A day is an anomaly when its cost is above the expected cost by both thresholds. Changes apply from the next detection run.
      </Typography>
      {body}
    </Paper>
  );
}

function SettingsForm({ saved }: { saved: AnomalySettings }) {
  const save = useUpdateAnomalySettings();
  const channels = useChannelChoices();
  const tagKeys = useTagKeyChoices();
  const [values, setValues] = useState<SettingsFormValues>(() => toFormValues(saved));
  const [errors, setErrors] = useState<SettingsFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [savedNotice, setSavedNotice] = useState(false);

  const change = <K extends keyof SettingsFormValues>(field: K, value: SettingsFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setSavedNotice(false);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    setSavedNotice(false);
    const parsed = toSettings(values);
    if ('errors' in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    save.mutate(parsed.settings, {
      onSuccess: (stored) => {
        setValues(toFormValues(stored));
        setSavedNotice(true);
      },
      onError: (error) => {
        const problems = settingsProblems(error);
        setErrors(problems.fields);
        setFormError(problems.form);
      },
    });
  };

  const channelList = channels.data ?? [];
  const chosenChannels = values.channelIds.map(
    (id) => channelList.find((channel) => channel.id === id) ?? ({ id, name: `Channel ${id}` } as Channel),
  );
  // A key chosen before may no longer be in the data; it stays choosable (and removable).
  const keyOptions = [...new Set([...tagKeys.keys, ...values.tagKeys])];

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={ANOMALY_MESSAGES.settingsTitle}>
      {formError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {formError}
        </Alert>
      ) : null}
      <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label="Relative threshold"
            type="number"
            value={values.relativePercent}
            onChange={(event) => change('relativePercent', event.target.value)}
            error={Boolean(errors.relativeThreshold)}
            helperText={errors.relativeThreshold ?? 'How much above the expected cost, in percent'}
            slotProps={{ input: { endAdornment: <InputAdornment position="end">%</InputAdornment> }, htmlInput: { step: 'any' } }}
            fullWidth
          />
          <TextField
            label="Absolute threshold"
            type="number"
            value={values.absolute}
            onChange={(event) => change('absolute', event.target.value)}
            error={Boolean(errors.absoluteThreshold)}
            helperText={errors.absoluteThreshold ?? "How much above the expected cost a day, in the series' currency"}
            slotProps={{ htmlInput: { step: 'any' } }}
            fullWidth
          />
        </Stack>
        <Autocomplete
          multiple
          options={keyOptions}
          value={values.tagKeys}
          onChange={(_, next) => change('tagKeys', next)}
          loading={tagKeys.isLoading}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Monitored tag keys"
              error={Boolean(errors.tagKeys)}
              helperText={
                errors.tagKeys ?? (tagKeys.isError ? ANOMALY_MESSAGES.tagKeysFailed : 'Each value of these tag keys is also watched as its own series')
              }
            />
          )}
        />
        <Autocomplete
          multiple
          options={channelList}
          value={chosenChannels}
          onChange={(_, next) => change('channelIds', next.map((channel) => channel.id))}
          getOptionLabel={(channel) => channel.name}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          loading={channels.isLoading}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Channels"
              error={Boolean(errors.channelIds)}
              helperText={
                errors.channelIds ??
                (channels.isError
                  ? ANOMALY_MESSAGES.channelsFailed
                  : 'None chosen: every channel, or the owners and admins by e-mail when there is no channel')
              }
            />
          )}
        />
        <Stack direction="row" spacing={2} alignItems="center">
          <Button type="submit" variant="contained" loading={save.isPending}>
            Save settings
          </Button>
          {savedNotice ? (
            <Typography role="status" color="success.main" variant="body2">
              {ANOMALY_MESSAGES.settingsSaved}
            </Typography>
          ) : null}
        </Stack>
      </Stack>
    </Box>
  );
}
