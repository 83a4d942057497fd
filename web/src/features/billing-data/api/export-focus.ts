import { useMutation } from '@tanstack/react-query';
import { api } from '@/api/client';

/** One FOCUS export: days `start..=end` (YYYY-MM-DD, UTC), file format and FOCUS version. */
export interface FocusExportRequest {
  start: string;
  end: string;
  format: 'csv' | 'parquet';
  version: '1.2' | '1.3';
}

/** The exported file and the name the server gives it (Content-Disposition). */
export interface FocusExportFile {
  blob: Blob;
  fileName: string;
}

/** `focus-1.2-2026-01-01-2026-01-31.csv` from `attachment; filename="…"`, else built from the request. */
export function exportFileName(disposition: string | null, request: FocusExportRequest): string {
  const named = disposition?.match(/filename="([^"]+)"/)?.[1];
  return named ?? `focus-${request.version}-${request.start}-${request.end}.${request.format}`;
}

/** GET /v1/export/focus: the server writes the file; failures arrive as ApiError (422 names the field). */
export async function exportFocus(request: FocusExportRequest): Promise<FocusExportFile> {
  const { data, response } = await api.GET('/v1/export/focus', {
    params: { query: { ...request } },
    parseAs: 'blob',
  });
  return { blob: data as Blob, fileName: exportFileName(response.headers.get('Content-Disposition'), request) };
}

export const useExportFocus = () => useMutation({ mutationFn: exportFocus });
