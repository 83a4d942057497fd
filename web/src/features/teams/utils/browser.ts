/** Leaves the app for Microsoft's sign-in page (a full navigation, not a route change). */
export function goToSignIn(url: string): void {
  window.location.assign(url);
}

/** The return page's address on this origin: Microsoft sends the browser back there. */
export function callbackUrl(path: string): string {
  return `${window.location.origin}${path}`;
}
