/**
 * The id of the integration being connected (the login answer's `channel_id`), kept in
 * sessionStorage across the round trip to Microsoft's sign-in page.
 */
const KEY = 'costscope.teams.channel_id';

export function rememberPendingChannel(channelId: number): void {
  sessionStorage.setItem(KEY, String(channelId));
}

/** The kept id, or null when there is none (or it is not an id). */
export function pendingChannel(): number | null {
  const value = Number(sessionStorage.getItem(KEY) ?? '');
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

export function forgetPendingChannel(): void {
  sessionStorage.removeItem(KEY);
}
