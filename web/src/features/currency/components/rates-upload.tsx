import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { errorMessage } from '@/api/api-error';
import { useUploadExchangeRates } from '../api/upload-exchange-rates';
import { RatesSummary } from './rates-summary';

/** Owners and admins: choose a CSV of date, from, to, rate and upload it; it replaces every rate. */
export function RatesUpload() {
  const upload = useUploadExchangeRates();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);

  return (
    <Stack spacing={1.5}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ xs: 'stretch', sm: 'center' }}>
        <Button component="label" variant="outlined" disabled={upload.isPending}>
          Choose CSV file
          <input
            ref={input}
            hidden
            type="file"
            accept=".csv,text/csv"
            aria-label="Exchange rates file"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              upload.reset();
            }}
          />
        </Button>
        <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }}>
          {file ? file.name : 'No file chosen'}
        </Typography>
        <Button
          variant="contained"
          startIcon={<UploadFileIcon />}
          disabled={!file}
          loading={upload.isPending}
          onClick={() =>
            file &&
            upload.mutate(file, {
              onSuccess: () => {
                setFile(null);
                if (input.current) input.current.value = '';
              },
            })
          }
        >
          Upload rates
        </Button>
      </Stack>
      {upload.isError ? (
        <Alert severity="error" onClose={() => upload.reset()}>
          {errorMessage(upload.error, 'The exchange rates could not be uploaded')}
        </Alert>
      ) : null}
      {upload.isSuccess ? (
        <Alert severity="success" onClose={() => upload.reset()}>
          <Typography component="span" fontWeight={600}>
            Exchange rates uploaded.
          </Typography>{' '}
          <RatesSummary rates={upload.data} />
        </Alert>
      ) : null}
    </Stack>
  );
}
