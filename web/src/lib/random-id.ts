/**
 * Eight hex characters for making client-side ids unique. `crypto.getRandomValues` works on
 * plain-HTTP deployments too, where `crypto.randomUUID` (secure contexts only) is missing.
 */
export function randomSuffix(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
