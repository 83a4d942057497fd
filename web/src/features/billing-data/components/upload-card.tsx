import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { Alert, Box, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage } from '@/api/api-error';
import { useAppConfig } from '@/api/queries';
import { useIngestJob } from '../api/get-ingest-job';
import { ingestKeys } from '../api/keys';
import { useUploadBillingData } from '../api/upload-billing-data';
import type { IngestJob } from '../types';
import { addFiles, fileKey, isArchive, totalBytes } from '../utils/files';
import { AUTO_DETECT, type FormatChoice } from '../utils/formats';
import { formatBytes } from '../utils/numbers';
import { isFinished } from '../utils/status';
import { ChosenFiles } from './chosen-files';
import { FilePicker } from './file-picker';
import { FormatSelect } from './format-select';
import { LoadProgress } from './load-progress';
import { LoadFailure, LoadSummary } from './load-summary';

/** Owners and admins: choose billing files, upload them with progress, follow the load to its end. */
export function UploadCard() {
  const queryClient = useQueryClient();
  const upload = useUploadBillingData();
  const [files, setFiles] = useState<File[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const [format, setFormat] = useState<FormatChoice>(AUTO_DETECT);
  const [jobId, setJobId] = useState<IngestJob['id'] | null>(null);
  const [resultClosed, setResultClosed] = useState(false);
  const job = useIngestJob(jobId);
  const maxUploadBytes = useAppConfig().max_upload_bytes;

  const finishedJob = job.data && isFinished(job.data.status) ? job.data : undefined;
  const processing = jobId !== null && !finishedJob;
  const busy = upload.isPending || processing;
  const tooLarge = totalBytes(files) > maxUploadBytes;

  // A finished load changes the history; a successful one is done with the chosen files.
  const finishedStatus = finishedJob?.status;
  useEffect(() => {
    if (!finishedStatus) return;
    void queryClient.invalidateQueries({ queryKey: ingestKeys.list() });
    if (finishedStatus === 'succeeded') setFiles([]);
  }, [finishedStatus, queryClient]);

  const onFiles = (picked: File[]) => {
    const result = addFiles(files, picked);
    setFiles(result.files);
    setRefused(result.refused);
  };

  const onUpload = () => {
    setJobId(null);
    setResultClosed(false);
    setRefused([]);
    upload.mutate(
      { files, format: format === AUTO_DETECT ? undefined : format },
      { onSuccess: (accepted) => setJobId(accepted.id) },
    );
  };

  const percent =
    upload.progress && upload.progress.total > 0 ? Math.round((upload.progress.loaded / upload.progress.total) * 100) : 0;

  let result = null;
  if (!resultClosed && !busy) {
    const close = () => setResultClosed(true);
    if (upload.isError) {
      result = <LoadFailure message={errorMessage(upload.error, 'The upload failed')} onClose={close} />;
    } else if (finishedJob?.status === 'succeeded') {
      result = <LoadSummary job={finishedJob} onClose={close} />;
    } else if (finishedJob?.status === 'failed') {
      result = <LoadFailure message={finishedJob.error || 'The load failed'} onClose={close} />;
    }
  }

  const refusedArchives = refused.filter(isArchive);
  const refusedOthers = refused.filter((name) => !isArchive(name));

  return (
    <Paper variant="outlined" component="section" aria-labelledby="upload-billing-data-title" sx={{ p: 3, mb: 3 }}>
      <Typography id="upload-billing-data-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        Upload billing files
      </Typography>
      <Stack spacing={2}>
        <FilePicker disabled={busy} maxUploadBytes={maxUploadBytes} onFiles={onFiles} />
        {refused.length > 0 ? (
          <Alert severity="warning" onClose={() => setRefused([])}>
            {refusedArchives.length > 0 ? (
              <div>
                Not added (archives are not supported; extract the export and upload the CSV, gzipped CSV, Parquet or
                NDJSON files inside): {refusedArchives.join(', ')}
              </div>
            ) : null}
            {refusedOthers.length > 0 ? (
              <div>Not added (not a CSV, gzipped CSV, Parquet, JSON or NDJSON file): {refusedOthers.join(', ')}</div>
            ) : null}
          </Alert>
        ) : null}
        <ChosenFiles
          files={files}
          disabled={busy}
          onRemove={(file) => setFiles((current) => current.filter((f) => fileKey(f) !== fileKey(file)))}
        />
        {tooLarge ? (
          <Alert severity="error">
            These files add up to {formatBytes(totalBytes(files))}; one upload can hold at most {formatBytes(maxUploadBytes)}. Upload them in several
            parts.
          </Alert>
        ) : null}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ xs: 'stretch', sm: 'center' }}>
          <FormatSelect value={format} disabled={busy} onChange={setFormat} />
          <Button
            variant="contained"
            startIcon={<CloudUploadIcon />}
            disabled={files.length === 0 || busy || tooLarge}
            onClick={onUpload}
          >
            Upload
          </Button>
        </Stack>

        {upload.isPending ? (
          <Box>
            <Stack direction="row" justifyContent="space-between">
              <Typography variant="body2">Uploading…</Typography>
              <Typography variant="body2">{percent}%</Typography>
            </Stack>
            <LinearProgress variant="determinate" value={percent} aria-label="Upload progress" sx={{ mt: 0.5 }} />
          </Box>
        ) : null}
        {processing ? (
          <Box>
            {job.data ? (
              <LoadProgress progress={job.data.progress} />
            ) : (
              <>
                <Typography variant="body2">Queued…</Typography>
                <LinearProgress aria-label="Loading billing data" sx={{ mt: 0.5 }} />
              </>
            )}
            {job.isError && !job.data ? (
              <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
                {errorMessage(job.error, 'Could not read the state of the upload')} — still trying.
              </Typography>
            ) : null}
          </Box>
        ) : null}
        {result}
      </Stack>
    </Paper>
  );
}
