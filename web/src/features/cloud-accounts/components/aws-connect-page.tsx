import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Collapse,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '@/api/api-error';
import { PageHeader } from '@/components/page-header';
import { downloadTemplate, saveBlob, useRegisterAws } from '../api/aws';
import { useCloudPermissions } from '../hooks/use-cloud-permissions';
import { INTEGRATIONS_PATH } from '../hooks/use-countdown-redirect';
import { useRegistrationPoll } from '../hooks/use-registration-poll';
import type { RegisterAwsRequest, RegisterAwsResponse } from '../types';
import {
  awsFormSchema,
  fieldErrors,
  normalizeAwsAccountId,
  normalizeOrganizationId,
  type AwsFormValues,
} from '../utils/validation';
import { CodeBlock } from './code-block';
import { CompletionView } from './completion-view';
import { WizardFrame } from './wizard-frame';

export const AWS_STEPS = ['Account Details', 'Create IAM Role', 'Complete'] as const;
/** Spec 2 §4 / §9: success redirects after 5 s. */
export const AWS_SUCCESS_REDIRECT_MS = 5_000;
export const AWS_DATA_TEXT = 'Cost data will appear within 24 hours.';
export const REGISTER_FAILED = 'Failed to register account. Please try again.';
export const REGISTER_ERROR = 'An error occurred during registration. Please try again.';

/** The server's 422 fields, as the form's. */
const SERVER_FIELDS: Record<string, keyof AwsFormValues> = {
  aws_account_id: 'accountId',
  account_name: 'accountName',
  organization_id: 'organizationId',
  organization_name: 'organizationName',
  iam_role_arn: 'roleArn',
  export_bucket: 'bucket',
  export_prefix: 'prefix',
  export_name: 'exportName',
  export_region: 'region',
};

function toRequest(v: AwsFormValues): RegisterAwsRequest {
  const body: RegisterAwsRequest = { aws_account_id: v.accountId, export_format: v.format };
  if (v.mode === 'single') body.account_name = v.accountName.trim();
  else {
    body.organization_id = v.organizationId;
    body.organization_name = v.organizationName.trim();
    body.account_name = v.organizationName.trim();
  }
  if (v.manual) {
    const optional: [keyof RegisterAwsRequest, string][] = [
      ['iam_role_arn', v.roleArn],
      ['export_bucket', v.bucket],
      ['export_prefix', v.prefix],
      ['export_name', v.exportName],
      ['export_region', v.region],
    ];
    for (const [key, value] of optional) if (value.trim()) (body[key] as string) = value.trim();
  }
  return body;
}

/** Spec 2 §8: the server's details, else the generic messages. */
function registerErrorMessage(error: unknown): string {
  if (!isApiError(error)) return REGISTER_ERROR;
  if (error.status === 0) return REGISTER_ERROR;
  if (error.serverMessage && error.status < 500) return error.serverMessage;
  return REGISTER_FAILED;
}

function AccountDetailsStep({ onRegistered }: { onRegistered: (answer: RegisterAwsResponse) => void }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const access = useCloudPermissions();
  const register = useRegisterAws();
  const {
    control,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<AwsFormValues>({
    resolver: zodResolver(awsFormSchema),
    defaultValues: {
      mode: 'single',
      accountId: normalizeAwsAccountId(params.get('account_id') ?? ''),
      accountName: params.get('name') ?? '',
      organizationId: '',
      organizationName: '',
      format: 'focus-1.2',
      manual: false,
      roleArn: '',
      bucket: '',
      prefix: '',
      exportName: '',
      region: '',
    },
  });
  const mode = watch('mode');
  const manual = watch('manual');
  const [otherErrors, setOtherErrors] = useState<string[]>([]);

  const onSubmit = handleSubmit((values) => {
    setOtherErrors([]);
    register.mutate(toRequest(values), {
      onSuccess: onRegistered,
      onError: (error) => {
        if (!isApiError(error) || error.status !== 422) return;
        const rest: string[] = [];
        for (const [field, message] of Object.entries(fieldErrors(error.details))) {
          const own = SERVER_FIELDS[field];
          if (own) setError(own, { message });
          else rest.push(message);
        }
        setOtherErrors(rest);
      },
    });
  });

  const text = (name: keyof AwsFormValues, label: string, extra: { helper?: string; normalize?: (s: string) => string; placeholder?: string } = {}) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          label={label}
          value={field.value as string}
          onChange={(event) => field.onChange(extra.normalize ? extra.normalize(event.target.value) : event.target.value)}
          onBlur={field.onBlur}
          inputRef={field.ref}
          placeholder={extra.placeholder}
          error={Boolean(errors[name])}
          helperText={errors[name]?.message ?? extra.helper}
          fullWidth
          autoComplete="off"
        />
      )}
    />
  );

  return (
    <Box component="form" onSubmit={onSubmit} noValidate>
      <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
        <Controller
          control={control}
          name="mode"
          render={({ field }) => (
            <ToggleButtonGroup
              exclusive
              color="primary"
              value={field.value}
              onChange={(_, value) => value && field.onChange(value)}
              aria-label="Account type"
            >
              <ToggleButton value="single">Single Account</ToggleButton>
              <ToggleButton value="organization">Organization</ToggleButton>
            </ToggleButtonGroup>
          )}
        />
        {mode === 'single' ? (
          <>
            {text('accountId', 'AWS Account ID', { normalize: normalizeAwsAccountId, placeholder: '123456789012' })}
            {text('accountName', 'Account Name')}
          </>
        ) : (
          <>
            {text('organizationId', 'Organization ID', { normalize: normalizeOrganizationId, placeholder: 'r-ab12' })}
            {text('organizationName', 'Organization Name')}
            {text('accountId', 'Management Account ID', {
              normalize: normalizeAwsAccountId,
              placeholder: '123456789012',
              helper: 'The AWS account that owns the organisation and its billing export.',
            })}
          </>
        )}
        <Controller
          control={control}
          name="format"
          render={({ field }) => (
            <Box>
              <FormLabel id="aws-export-format">Billing export format</FormLabel>
              <RadioGroup row aria-labelledby="aws-export-format" value={field.value} onChange={(e) => field.onChange(e.target.value)}>
                <FormControlLabel value="focus-1.2" control={<Radio />} label="FOCUS 1.2" />
                <FormControlLabel value="cur-2.0" control={<Radio />} label="CUR 2.0" />
              </RadioGroup>
            </Box>
          )}
        />
        <Controller
          control={control}
          name="manual"
          render={({ field }) => (
            <FormControlLabel
              control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
              label="I set up the role and export myself"
            />
          )}
        />
        <Collapse in={manual} unmountOnExit>
          <Stack spacing={2.5}>
            <Typography variant="body2" color="text.secondary">
              Leave a field empty to use what the Costscope template creates: role CostscopeReadOnly, bucket
              costscope-exports-&lt;account id&gt;, prefix costscope, export costscope-focus (or costscope-cur2), region us-east-1.
              The external id to trust is shown on the next step.
            </Typography>
            {text('roleArn', 'IAM Role ARN', { placeholder: 'arn:aws:iam::123456789012:role/CostscopeReadOnly' })}
            {text('bucket', 'S3 Bucket')}
            {text('prefix', 'Prefix')}
            {text('exportName', 'Export Name')}
            {text('region', 'Region', { placeholder: 'us-east-1' })}
          </Stack>
        </Collapse>
        {register.isError ? (
          <Alert severity="error">
            {registerErrorMessage(register.error)}
            {otherErrors.map((m) => (
              <div key={m}>{m}</div>
            ))}
          </Alert>
        ) : null}
        <Stack direction="row" spacing={1} justifyContent="flex-end">
          <Button onClick={() => navigate(INTEGRATIONS_PATH)}>Cancel</Button>
          <Button type="submit" variant="contained" loading={register.isPending} disabled={!access.canManage}>
            Next
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}

function CreateRoleStep({ answer, onBack, onNext }: { answer: RegisterAwsResponse; onBack: () => void; onNext: () => void }) {
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const organization = Boolean(answer.OrgId);

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      const { blob, fileName } = await downloadTemplate(answer.URL);
      saveBlob(blob, fileName);
    } catch (error) {
      setDownloadError(isApiError(error) ? error.message : 'Failed to download the template. Please try again.');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack spacing={2.5}>
      <Typography>
        Create the read-only IAM role and the daily billing export in{' '}
        {organization ? `your organisation ${answer.OrgId} (from its management account)` : `account ${answer.accountNumber}`} with
        the Costscope CloudFormation template:
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 3, '& li': { mb: 1 } }}>
        <li>Download the template (it trusts Costscope only with your external id).</li>
        <li>Run the two commands below with the AWS CLI, or create the stack set in the CloudFormation console.</li>
        <li>Wait until the stack instances are created, then continue: Costscope checks that it can assume the role and read the export.</li>
      </Box>
      <TextField
        label="External ID"
        value={answer.external_id}
        slotProps={{ htmlInput: { readOnly: true } }}
        helperText="The role trusts Costscope only when it presents this id."
        sx={{ maxWidth: 480 }}
      />
      <Box>
        <Button variant="outlined" onClick={download} loading={downloading}>
          Download template
        </Button>
        {downloadError ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            {downloadError}
          </Alert>
        ) : null}
      </Box>
      {answer.StackSetCmds.map((command, index) => (
        <CodeBlock key={command} title={`Command ${index + 1}`} text={command} copyLabel={`Copy command ${index + 1}`} />
      ))}
      <Stack direction="row" spacing={1} justifyContent="flex-end">
        <Button onClick={onBack}>Back</Button>
        <Button variant="contained" onClick={onNext}>
          Next
        </Button>
      </Stack>
    </Stack>
  );
}

function CompleteStep({ accountId }: { accountId: string }) {
  const navigate = useNavigate();
  const { state, restart } = useRegistrationPoll(accountId, true);

  useEffect(() => {
    if (state.kind === 'gave-up') navigate(INTEGRATIONS_PATH);
  }, [state.kind, navigate]);

  if (state.kind === 'succeeded') {
    return (
      <CompletionView title="AWS account connected" redirectMs={AWS_SUCCESS_REDIRECT_MS}>
        {state.job.details ? <Typography color="text.secondary">{state.job.details}</Typography> : null}
        <Typography>{AWS_DATA_TEXT}</Typography>
      </CompletionView>
    );
  }
  if (state.kind === 'failed' || state.kind === 'error') {
    return (
      <Stack spacing={2}>
        <Alert severity="error">
          <AlertTitle>Costscope could not reach your AWS account</AlertTitle>
          {state.kind === 'failed' ? state.job.details : state.message}
        </Alert>
        <Stack direction="row" spacing={1} justifyContent="flex-end">
          <Button onClick={() => navigate(INTEGRATIONS_PATH)}>Back to Cloud Accounts</Button>
          <Button variant="contained" onClick={restart}>
            Check again
          </Button>
        </Stack>
      </Stack>
    );
  }
  return (
    <Stack spacing={2} alignItems="center" sx={{ py: 3, textAlign: 'center' }} role="status">
      <CircularProgress aria-label="Checking the connection" />
      <Typography variant="h6" component="h2">
        Checking the connection to account {accountId}
      </Typography>
      <Typography color="text.secondary">
        {state.kind === 'checking' && state.job?.details
          ? state.job.details
          : 'Costscope is assuming the role and reading the billing export location. This can take a minute.'}
      </Typography>
    </Stack>
  );
}

/** Spec 2 §2 AWS connect: Account Details, Create IAM Role, Complete. */
export function AwsConnectPage() {
  const [step, setStep] = useState(0);
  const [answer, setAnswer] = useState<RegisterAwsResponse | null>(null);
  const access = useCloudPermissions();

  return (
    <Box>
      <PageHeader title="Connect AWS" subtitle="Register an AWS account or organisation with a read-only IAM role." />
      {access.reason ? (
        <Alert severity="warning" variant="outlined" sx={{ mb: 3 }}>
          {access.reason}
        </Alert>
      ) : null}
      <WizardFrame steps={AWS_STEPS} active={step}>
        {/* Step 1 stays mounted so that "Back" finds the values as they were. */}
        <Box hidden={step !== 0 && answer !== null}>
          <AccountDetailsStep
            onRegistered={(registered) => {
              setAnswer(registered);
              setStep(1);
            }}
          />
        </Box>
        {answer && step === 1 ? <CreateRoleStep answer={answer} onBack={() => setStep(0)} onNext={() => setStep(2)} /> : null}
        {answer && step === 2 ? <CompleteStep accountId={answer.accountNumber} /> : null}
      </WizardFrame>
    </Box>
  );
}
