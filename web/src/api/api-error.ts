export type ApiErrorDetails = Record<string, unknown> | undefined;

/** Every failed API call ends up as one of these, carrying the server's `message`. */
export class ApiError extends Error {
  readonly status: number;
  readonly details: ApiErrorDetails;
  /** The server's own `message`, when its answer had one (else `message` is a generic text). */
  readonly serverMessage: string | undefined;

  constructor(message: string, status: number, details?: ApiErrorDetails, serverMessage?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
    this.serverMessage = serverMessage;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message when the error came from the API, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.message) return error.message;
  return fallback;
}
