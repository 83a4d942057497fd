import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '@/api/api-error';
import { ensureFreshSession } from '@/api/auth-refresh';
import { apiUrl } from '@/api/base-url';
import { NETWORK_ERROR_MESSAGE, defaultMessage } from '@/api/client';
import { clearSession } from '@/api/session';
import type { IngestAccepted, IngestFormat } from '../types';
import { ingestKeys } from './keys';

export interface UploadBillingDataInput {
  files: File[];
  /** Left out: the server detects the format of each file. */
  format?: IngestFormat;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * POST /v1/ingest as multipart/form-data (`file` parts, then `format`) with XMLHttpRequest, the
 * only browser API that reports upload progress. Same rules as the openapi-fetch middleware:
 * bearer token of the (fresh) session, failures become an ApiError with the server's message,
 * and a 401 signs the user out.
 */
export async function uploadBillingData(
  { files, format }: UploadBillingDataInput,
  onProgress?: (progress: UploadProgress) => void,
): Promise<IngestAccepted> {
  const session = await ensureFreshSession();
  const body = new FormData();
  for (const file of files) body.append('file', file, file.name);
  if (format) body.append('format', format);

  return new Promise<IngestAccepted>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('/v1/ingest'));
    if (session) xhr.setRequestHeader('Authorization', `Bearer ${session.accessToken}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      const parsed = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(parsed as IngestAccepted);
        return;
      }
      const errorBody = parsed && typeof parsed === 'object' ? (parsed as { message?: unknown; details?: unknown }) : undefined;
      const serverMessage = typeof errorBody?.message === 'string' && errorBody.message ? errorBody.message : undefined;
      const details =
        errorBody?.details && typeof errorBody.details === 'object' ? (errorBody.details as Record<string, unknown>) : undefined;
      if (xhr.status === 401) clearSession();
      reject(new ApiError(serverMessage ?? defaultMessage(xhr.status), xhr.status, details, serverMessage));
    };
    xhr.onerror = () => reject(new ApiError(NETWORK_ERROR_MESSAGE, 0));
    xhr.onabort = () => reject(new ApiError('Upload cancelled', 0));
    xhr.send(body);
  });
}

/** The upload as a mutation, with the bytes sent so far; the history is re-read once accepted. */
export function useUploadBillingData() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: (input: UploadBillingDataInput) => {
      setProgress(null);
      return uploadBillingData(input, setProgress);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ingestKeys.list() }),
  });
  return { ...mutation, progress };
}
