import { Link, Typography } from '@mui/material';

/** Where the guide lives: docs/INGESTION.md under the configured documentation URL. */
export function ingestionGuideUrl(documentationUrl: string | undefined): string | undefined {
  if (!documentationUrl) return undefined;
  return `${documentationUrl.replace(/\/+$/, '')}/INGESTION.md`;
}

/** Which exports the console reads, and what a re-upload does. */
export function SupportedFormatsHelp({ documentationUrl }: { documentationUrl?: string }) {
  const guide = ingestionGuideUrl(documentationUrl);
  return (
    <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 880 }}>
      Load cost exports from your clouds: FOCUS 1.0–1.2 from any provider, AWS Cost and Usage Reports (legacy CUR and CUR 2.0 /
      Data Exports), the GCP billing export and Azure cost details, as CSV, gzipped CSV, Parquet or NDJSON. Exports are
      month-to-date files: uploading a month again replaces what was loaded before for the same provider, billing account and
      month, so nothing is counted twice.
      {guide ? (
        <>
          {' '}
          <Link href={guide} target="_blank" rel="noreferrer">
            Read the ingestion guide
          </Link>
          .
        </>
      ) : null}
    </Typography>
  );
}
