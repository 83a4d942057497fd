import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RegisterAwsRequest, RegisterAwsResponse, RegistrationJob, RegistrationJobRequest } from '../types';
import { call, callBlob } from './http';
import { cloudKeys } from './keys';

export const registerAws = (body: RegisterAwsRequest) => call<RegisterAwsResponse>('POST', '/v1/register', body);

export function useRegisterAws() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerAws,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudKeys.accounts }),
  });
}

/** POST /v1/account/registration/job: the running or last check (restart: a new one). */
export const getRegistrationJob = (body: RegistrationJobRequest) =>
  call<RegistrationJob>('POST', '/v1/account/registration/job', body);

/** "Check again" from the Cloud Accounts table: a new check; the list shows it in progress. */
export function useRecheckRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) => getRegistrationJob({ account_id: accountId, restart: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudKeys.accounts }),
  });
}

/** The template file the registration answer's URL names, fetched with the bearer token. */
export async function downloadTemplate(url: string): Promise<{ blob: Blob; fileName: string }> {
  const parsed = new URL(url, globalThis.location?.origin ?? 'http://localhost');
  const query = Object.fromEntries(parsed.searchParams.entries());
  const { blob, fileName } = await callBlob(parsed.pathname, query);
  return { blob, fileName: fileName ?? 'costscope-onboarding.yaml' };
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string) {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
