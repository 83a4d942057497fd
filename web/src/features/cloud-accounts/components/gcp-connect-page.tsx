import { zodResolver } from '@hookform/resolvers/zod';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import { Alert, Box, Button, Checkbox, FormControlLabel, FormHelperText, Stack, TextField, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '@/api/api-error';
import { PageHeader } from '@/components/page-header';
import { useConnectGcp } from '../api/gcp';
import { useCloudPermissions } from '../hooks/use-cloud-permissions';
import { INTEGRATIONS_PATH } from '../hooks/use-countdown-redirect';
import type { ConnectGcpRequest } from '../types';
import {
  MESSAGES,
  billingAccountFromTable,
  fieldErrors,
  gcpFormSchema,
  serviceAccountKeyError,
  type GcpFormValues,
} from '../utils/validation';
import { CompletionView } from './completion-view';
import { WizardFrame } from './wizard-frame';

export const GCP_STEPS = ['Project Details', 'Service Account', 'Complete'] as const;
/** Spec 2 §4 / §9: success redirects after 2 s. */
export const GCP_SUCCESS_REDIRECT_MS = 2_000;
export const GCP_DATA_TEXT = 'Cost data will appear within 24-48 hours.';
export const GCP_NO_RESPONSE = 'Failed to connect GCP project. No response received.';
export const GCP_FAILED = 'Failed to connect GCP project. Please verify your inputs and try again.';
export const BILLING_EXPORT_WARNING =
  'Without a Cloud Billing export to BigQuery, Costscope has no GCP cost data to read. Set up the export first (Billing > Billing export > BigQuery export).';

const SERVER_FIELDS: Record<string, keyof GcpFormValues> = {
  account_id: 'projectId',
  account_name: 'projectName',
  billing_table: 'billingTable',
  billing_project_id: 'billingProjectId',
};

/** Spec 2 §8 GCP connect: no answer, or the server's word on what is wrong. */
function connectErrorMessage(error: unknown): string {
  if (!isApiError(error) || error.status === 0) return GCP_NO_RESPONSE;
  if ((error.status === 409 || error.status === 403) && error.serverMessage) return error.serverMessage;
  return GCP_FAILED;
}

interface KeyFile {
  name: string;
  text: string;
}

/** Reads the chosen key file in the browser: a .json service-account key, or the message why not. */
async function readKeyFile(file: File): Promise<{ key?: KeyFile; error?: string }> {
  if (!file.name.toLowerCase().endsWith('.json')) return { error: MESSAGES.keyFileExtension };
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { error: MESSAGES.invalidKeyFile };
  }
  const error = serviceAccountKeyError(text);
  return error ? { error } : { key: { name: file.name, text } };
}

/** Spec 2 §2 GCP connect: Project Details, Service Account, Complete. */
export function GcpConnectPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const access = useCloudPermissions();
  const connect = useConnectGcp();
  const [step, setStep] = useState(0);
  const [key, setKey] = useState<KeyFile | null>(null);
  const [keyError, setKeyError] = useState<string | null>(null);
  const [exportReady, setExportReady] = useState(false);
  const [serverMessages, setServerMessages] = useState<string[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const {
    register,
    handleSubmit,
    getValues,
    setError,
    formState: { errors },
  } = useForm<GcpFormValues>({
    resolver: zodResolver(gcpFormSchema),
    defaultValues: {
      projectId: params.get('account_id') ?? '',
      projectName: params.get('name') ?? '',
      billingTable: '',
      billingProjectId: '',
    },
  });

  const onKeyChosen = async (file: File | undefined) => {
    setKey(null);
    setKeyError(null);
    if (!file) return;
    const read = await readKeyFile(file);
    if (read.key) setKey(read.key);
    else setKeyError(read.error ?? MESSAGES.invalidKeyFile);
  };

  const submit = () => {
    // Spec 2 §5 GCP: the last step needs the project id and the key's content.
    if (!key) {
      setKeyError(MESSAGES.keyFileRequired);
      return;
    }
    const v = getValues();
    const body: ConnectGcpRequest = {
      account_id: v.projectId.trim(),
      account_name: v.projectName.trim(),
      // Kept by the server as given: the Cloud Billing account the export belongs to.
      subscription_id: billingAccountFromTable(v.billingTable),
      secret_key: key.text,
      billing_table: v.billingTable.trim(),
    };
    if (v.billingProjectId.trim()) body.billing_project_id = v.billingProjectId.trim();
    setServerMessages([]);
    connect.mutate(body, {
      onSuccess: () => setStep(2),
      onError: (error) => {
        if (!isApiError(error) || error.status !== 422) return;
        const rest: string[] = [];
        let projectField = false;
        for (const [field, message] of Object.entries(fieldErrors(error.details))) {
          const own = SERVER_FIELDS[field];
          if (own) {
            setError(own, { message });
            projectField = true;
          } else if (field === 'secret_key') setKeyError(message);
          else rest.push(message);
        }
        setServerMessages(rest);
        if (projectField) setStep(0);
      },
    });
  };

  return (
    <Box>
      <PageHeader title="Connect GCP" subtitle="Connect a GCP project with a service account key and its Cloud Billing export." />
      {access.reason ? (
        <Alert severity="warning" variant="outlined" sx={{ mb: 3 }}>
          {access.reason}
        </Alert>
      ) : null}
      <WizardFrame steps={GCP_STEPS} active={step}>
        {step === 0 ? (
          <Box component="form" noValidate onSubmit={handleSubmit(() => setStep(1))}>
            <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
              <TextField
                label="Project ID"
                error={Boolean(errors.projectId)}
                helperText={errors.projectId?.message}
                fullWidth
                autoComplete="off"
                {...register('projectId')}
              />
              <TextField
                label="Project Name (optional)"
                error={Boolean(errors.projectName)}
                helperText={errors.projectName?.message}
                fullWidth
                autoComplete="off"
                {...register('projectName')}
              />
              <TextField
                label="Billing Export Table"
                placeholder="my-project.billing_export.gcp_billing_export_v1_XXXXXX_XXXXXX_XXXXXX"
                error={Boolean(errors.billingTable)}
                helperText={errors.billingTable?.message ?? 'The BigQuery table of the standard or detailed usage cost export.'}
                fullWidth
                autoComplete="off"
                {...register('billingTable')}
              />
              <TextField
                label="Billing Project ID (optional)"
                error={Boolean(errors.billingProjectId)}
                helperText={errors.billingProjectId?.message ?? 'The project BigQuery queries run in; the project above when empty.'}
                fullWidth
                autoComplete="off"
                {...register('billingProjectId')}
              />
              <Stack direction="row" spacing={1} justifyContent="flex-end">
                <Button onClick={() => navigate(INTEGRATIONS_PATH)}>Cancel</Button>
                <Button type="submit" variant="contained" disabled={!access.canManage}>
                  Next
                </Button>
              </Stack>
            </Stack>
          </Box>
        ) : null}
        {step === 1 ? (
          <Stack spacing={2.5} sx={{ maxWidth: 720 }}>
            <Typography>
              Create a service account for Costscope with the roles BigQuery Data Viewer on the billing export dataset and
              BigQuery Job User on the billing project, then create a JSON key for it and upload it here. Costscope stores the
              key encrypted and uses it only to read the billing export.
            </Typography>
            <Box>
              <input
                ref={fileInput}
                type="file"
                accept=".json,application/json"
                hidden
                aria-label="Service account key file"
                onChange={(event) => {
                  void onKeyChosen(event.target.files?.[0]);
                  event.target.value = '';
                }}
              />
              <Button variant="outlined" startIcon={<UploadFileOutlinedIcon />} onClick={() => fileInput.current?.click()}>
                Upload key file
              </Button>
              {key ? (
                <Typography variant="body2" sx={{ mt: 1 }}>
                  Key file: {key.name}
                </Typography>
              ) : null}
              {keyError ? <FormHelperText error>{keyError}</FormHelperText> : null}
            </Box>
            <Box>
              <FormControlLabel
                control={<Checkbox checked={exportReady} onChange={(e) => setExportReady(e.target.checked)} />}
                label="I have set up the Cloud Billing export to BigQuery"
              />
              {!exportReady ? (
                <Alert severity="warning" variant="outlined">
                  {BILLING_EXPORT_WARNING}
                </Alert>
              ) : null}
            </Box>
            {connect.isError ? (
              <Alert severity="error">
                {connectErrorMessage(connect.error)}
                {serverMessages.map((m) => (
                  <div key={m}>{m}</div>
                ))}
              </Alert>
            ) : null}
            <Stack direction="row" spacing={1} justifyContent="flex-end">
              <Button onClick={() => setStep(0)}>Back</Button>
              <Button variant="contained" onClick={submit} loading={connect.isPending} disabled={!access.canManage}>
                Connect
              </Button>
            </Stack>
          </Stack>
        ) : null}
        {step === 2 ? (
          <CompletionView title="GCP project connected" redirectMs={GCP_SUCCESS_REDIRECT_MS}>
            <Typography>{GCP_DATA_TEXT}</Typography>
          </CompletionView>
        ) : null}
      </WizardFrame>
    </Box>
  );
}
