/** The file name a Content-Disposition header names (`attachment; filename="x.yaml"`), if any. */
export function contentDispositionFileName(response: Response): string | null {
  return response.headers.get('Content-Disposition')?.match(/filename="?([^";]+)"?/)?.[1] ?? null;
}
