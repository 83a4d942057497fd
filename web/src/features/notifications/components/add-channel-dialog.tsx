import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { Controller, useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { useCreateChannel } from '../api/create-channel';
import { CHANNEL_TYPES, type CreatedChannel } from '../types';
import { CHANNEL_TYPE_LABELS, TARGET_HELP } from '../utils/labels';
import {
  isChannelType,
  serverProblems,
  toCreateRequest,
  validateChannel,
  type ChannelField,
  type ChannelFormValues,
} from '../utils/validation';

const EMPTY: ChannelFormValues = { type: '', name: '', target: '', secret: '' };

/** Only empty required fields stop the form; the server judges the rest (its 422 lands on the fields). */
const resolver: Resolver<ChannelFormValues> = async (values) => {
  const problems = Object.entries(validateChannel(values));
  if (problems.length === 0) return { values, errors: {} };
  const errors: FieldErrors<ChannelFormValues> = {};
  for (const [field, message] of problems) errors[field as ChannelField] = { type: 'validate', message };
  return { values: {}, errors };
};

export interface AddChannelDialogProps {
  open: boolean;
  onClose: () => void;
  /** `generatedSecret`: the server made the webhook's secret, and this answer is the only one carrying it. */
  onCreated: (channel: CreatedChannel, generatedSecret: boolean) => void;
}

export function AddChannelDialog({ open, onClose, onCreated }: AddChannelDialogProps) {
  const create = useCreateChannel();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm<ChannelFormValues>({ resolver, defaultValues: EMPTY });
  const type = watch('type');

  const close = () => {
    reset(EMPTY);
    create.reset();
    onClose();
  };

  const onSubmit = handleSubmit((values) => {
    if (!isChannelType(values.type)) return;
    const body = toCreateRequest({ ...values, type: values.type });
    create.mutate(body, {
      onSuccess: (channel) => {
        reset(EMPTY);
        create.reset();
        onCreated(channel, body.type === 'webhook' && body.secret === undefined && Boolean(channel.secret));
      },
      onError: (error) => {
        const problems = serverProblems(error, values.name.trim());
        for (const [field, message] of Object.entries(problems.fields)) {
          setError(field as ChannelField, { type: 'server', message }, { shouldFocus: true });
        }
        if (problems.form) setError('root.server', { type: 'server', message: problems.form });
      },
    });
  });

  const formProblem = errors.root?.server?.message;

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="add-channel-title">
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="add-channel-title">Add channel</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            The channel receives every budget alert of this account, unless a budget names its own channels.
          </DialogContentText>
          {formProblem ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {formProblem}
            </Alert>
          ) : null}
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <Controller
              control={control}
              name="type"
              render={({ field }) => (
                <TextField
                  {...field}
                  id="channel-type"
                  select
                  label="Type"
                  fullWidth
                  error={Boolean(errors.type)}
                  helperText={errors.type?.message}
                >
                  {CHANNEL_TYPES.map((value) => (
                    <MenuItem key={value} value={value}>
                      {CHANNEL_TYPE_LABELS[value]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <TextField
              id="channel-name"
              label="Name"
              fullWidth
              autoComplete="off"
              error={Boolean(errors.name)}
              helperText={errors.name?.message}
              {...register('name')}
            />
            <TextField
              id="channel-target"
              label={type === 'email' ? 'E-mail address' : 'Webhook URL'}
              type={type === 'email' ? 'email' : 'url'}
              placeholder={type === 'email' ? 'team@company.com' : 'https://'}
              fullWidth
              autoComplete="off"
              error={Boolean(errors.target)}
              helperText={errors.target?.message ?? (type ? TARGET_HELP[type] : undefined)}
              {...register('target')}
            />
            {type === 'webhook' ? (
              <TextField
                id="channel-secret"
                label="Secret"
                fullWidth
                autoComplete="off"
                error={Boolean(errors.secret)}
                helperText={errors.secret?.message ?? 'Leave empty to have one generated'}
                {...register('secret')}
              />
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" loading={create.isPending}>
            Add channel
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
