import type { IngestFormat } from '../types';

/** The select's value for "let the server detect the format" (no `format` part is sent). */
export const AUTO_DETECT = 'auto';
export type FormatChoice = IngestFormat | typeof AUTO_DETECT;

export const FORMAT_OPTIONS: { value: FormatChoice; label: string }[] = [
  { value: AUTO_DETECT, label: 'Auto-detect' },
  { value: 'focus', label: 'FOCUS 1.0–1.2' },
  { value: 'aws-cur', label: 'AWS CUR (legacy)' },
  { value: 'aws-cur2', label: 'AWS CUR 2.0 / Data Exports' },
  { value: 'gcp-billing', label: 'GCP billing export' },
  { value: 'azure-cost-details', label: 'Azure cost details' },
];

/** "AWS CUR (legacy)" for "aws-cur"; unknown values are shown as the server wrote them. */
export function formatLabel(format: string | null | undefined): string {
  if (!format) return 'Auto-detect';
  return FORMAT_OPTIONS.find((option) => option.value === format)?.label ?? format;
}
