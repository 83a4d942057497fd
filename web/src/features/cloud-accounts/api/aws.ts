import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RegisterAwsRequest, RegisterAwsResponse, RegistrationJob, RegistrationJobRequest } from '../types';
import { api, unwrap } from '@/api/client';
import { contentDispositionFileName } from './http';
import { cloudKeys } from './keys';

export const registerAws = (body: RegisterAwsRequest) => unwrap<RegisterAwsResponse>(api.POST('/v1/register', { body }));

export function useRegisterAws() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerAws,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudKeys.accounts }),
  });
}

/** POST /v1/account/registration/job: the running or last check (restart: a new one). */
export const getRegistrationJob = (body: RegistrationJobRequest) =>
  unwrap<RegistrationJob>(api.POST('/v1/account/registration/job', { body }));

/** "Check again" from the Cloud Accounts table: a new check; the list shows it in progress. */
export function useRecheckRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) => getRegistrationJob({ account_id: accountId, restart: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cloudKeys.accounts }),
  });
}

export const TEMPLATE_FILE_NAME = 'costscope-onboarding.yaml';

/**
 * The onboarding template the registration answer's URL names (GET /v1/aws/onboarding-template
 * with its `format`), fetched with the bearer token; the file name from Content-Disposition.
 */
export async function downloadTemplate(url: string): Promise<{ blob: Blob; fileName: string }> {
  const parsed = new URL(url, globalThis.location?.origin ?? 'http://localhost');
  const format = parsed.searchParams.get('format') ?? undefined;
  const { data, response } = await api.GET('/v1/aws/onboarding-template', {
    params: { query: format === undefined ? {} : { format } },
    parseAs: 'blob',
  });
  // openapi-fetch types a blob answer as `Blob | undefined`; failures have already thrown (ApiError).
  return { blob: data as Blob, fileName: contentDispositionFileName(response) ?? TEMPLATE_FILE_NAME };
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
