import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  FormLabel,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '@/api/api-error';
import { PageHeader } from '@/components/page-header';
import { useConnectAzure } from '../api/azure';
import { useCloudPermissions } from '../hooks/use-cloud-permissions';
import { INTEGRATIONS_PATH } from '../hooks/use-countdown-redirect';
import type { ConnectAzureRequest } from '../types';
import { azureFormSchema, fieldErrors, type AzureFormValues } from '../utils/validation';
import { CompletionView } from './completion-view';

export const AZURE_SUCCESS_REDIRECT_MS = 5_000;
export const AZURE_DATA_TEXT = 'Cost data will appear after the next export run and sync, usually within 24 hours.';
export const AZURE_FAILED = 'Failed to connect the Azure export. Please verify your inputs and try again.';
export const AZURE_NO_RESPONSE = 'Failed to connect the Azure export. No response received.';

const SERVER_FIELDS: Record<string, keyof AzureFormValues> = {
  account_id: 'subscriptionId',
  account_name: 'name',
  storage_account: 'storageAccount',
  container: 'container',
  directory: 'directory',
  sas_token: 'sasToken',
  tenant_id: 'tenantId',
  client_id: 'clientId',
  client_secret: 'clientSecret',
  blob_endpoint: 'blobEndpoint',
};

function toRequest(v: AzureFormValues): ConnectAzureRequest {
  const body: ConnectAzureRequest = {
    account_id: v.subscriptionId.trim(),
    account_name: v.name.trim(),
    storage_account: v.storageAccount.trim(),
    container: v.container.trim(),
    directory: v.directory.trim().replace(/^\/+|\/+$/g, ''),
    auth: v.auth,
  };
  if (v.auth === 'sas') body.sas_token = v.sasToken.trim();
  else {
    body.tenant_id = v.tenantId.trim();
    body.client_id = v.clientId.trim();
    body.client_secret = v.clientSecret;
  }
  if (v.blobEndpoint.trim()) body.blob_endpoint = v.blobEndpoint.trim();
  return body;
}

function connectErrorMessage(error: unknown): string {
  if (!isApiError(error) || error.status === 0) return AZURE_NO_RESPONSE;
  if (error.status === 409 && error.serverMessage) return error.serverMessage;
  if (error.status === 403 && error.serverMessage) return error.serverMessage;
  return AZURE_FAILED;
}

/** /settings/azure-connect (beyond spec 2's "coming soon"): a Cost Management export in a storage account. */
export function AzureConnectPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const access = useCloudPermissions();
  const connect = useConnectAzure();
  const [done, setDone] = useState(false);
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const {
    control,
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<AzureFormValues>({
    resolver: zodResolver(azureFormSchema),
    defaultValues: {
      subscriptionId: params.get('account_id') ?? '',
      name: params.get('name') ?? '',
      storageAccount: '',
      container: '',
      directory: '',
      auth: 'sas',
      sasToken: '',
      tenantId: '',
      clientId: '',
      clientSecret: '',
      blobEndpoint: '',
    },
  });
  const auth = watch('auth');

  const onSubmit = handleSubmit((values) => {
    setOtherErrors([]);
    connect.mutate(toRequest(values), {
      onSuccess: () => setDone(true),
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

  const field = (name: keyof AzureFormValues, label: string, helper?: string, type?: string) => (
    <TextField
      label={label}
      type={type}
      error={Boolean(errors[name])}
      helperText={errors[name]?.message ?? helper}
      fullWidth
      autoComplete="off"
      {...register(name)}
    />
  );

  return (
    <Box>
      <PageHeader title="Connect Azure" subtitle="Connect an Azure Cost Management export delivered to a storage account." />
      {access.reason ? (
        <Alert severity="warning" variant="outlined" sx={{ mb: 3 }}>
          {access.reason}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        {done ? (
          <CompletionView title="Azure export connected" redirectMs={AZURE_SUCCESS_REDIRECT_MS}>
            <Typography>{AZURE_DATA_TEXT}</Typography>
          </CompletionView>
        ) : (
          <Box component="form" onSubmit={onSubmit} noValidate>
            <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
              <Typography color="text.secondary">
                In the Azure portal, create a daily Cost Management export (Cost details, CSV or Parquet) to a storage
                container, then give Costscope read and list access to that container with a SAS token or a service principal
                holding the Storage Blob Data Reader role.
              </Typography>
              {field('subscriptionId', 'Subscription ID')}
              {field('name', 'Name')}
              {field('storageAccount', 'Storage Account')}
              {field('container', 'Container')}
              {field('directory', 'Directory (optional)', 'The export’s root directory in the container; empty for the container’s root.')}
              <Controller
                control={control}
                name="auth"
                render={({ field: f }) => (
                  <Box>
                    <FormLabel id="azure-auth">Authentication</FormLabel>
                    <RadioGroup row aria-labelledby="azure-auth" value={f.value} onChange={(e) => f.onChange(e.target.value)}>
                      <FormControlLabel value="sas" control={<Radio />} label="SAS token" />
                      <FormControlLabel value="service_principal" control={<Radio />} label="Service principal" />
                    </RadioGroup>
                  </Box>
                )}
              />
              {auth === 'sas' ? (
                field('sasToken', 'SAS Token', 'Read and list permissions on the container. Stored encrypted; never shown again.', 'password')
              ) : (
                <>
                  {field('tenantId', 'Tenant ID')}
                  {field('clientId', 'Client ID')}
                  {field('clientSecret', 'Client Secret', 'Stored encrypted; never shown again.', 'password')}
                </>
              )}
              {field('blobEndpoint', 'Blob Endpoint (optional)', 'Only for a non-public cloud or an emulator; https://<account>.blob.core.windows.net when empty.')}
              {connect.isError ? (
                <Alert severity="error">
                  {connectErrorMessage(connect.error)}
                  {otherErrors.map((m) => (
                    <div key={m}>{m}</div>
                  ))}
                </Alert>
              ) : null}
              <Stack direction="row" spacing={1} justifyContent="flex-end">
                <Button onClick={() => navigate(INTEGRATIONS_PATH)}>Cancel</Button>
                <Button type="submit" variant="contained" loading={connect.isPending} disabled={!access.canManage}>
                  Connect Azure
                </Button>
              </Stack>
            </Stack>
          </Box>
        )}
      </Paper>
    </Box>
  );
}
