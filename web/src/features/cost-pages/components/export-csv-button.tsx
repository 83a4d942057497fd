import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Button, Stack } from '@mui/material';
import { useState } from 'react';
import { CSV_EXPORT_FAILED_MESSAGE, datedFileName, downloadFile, toCsv } from '@/lib/cost';

/** The cost visualisation export: `cost-data-{YYYY-MM-DD}.csv` (spec 1 §7), the §8 text on failure. */
export function ExportCsvButton({ disabled, table }: { disabled?: boolean; table: () => { header: string[]; rows: unknown[][] } }) {
  const [failed, setFailed] = useState(false);
  const exportCsv = () => {
    try {
      const { header, rows } = table();
      downloadFile(datedFileName('cost-data', 'csv'), toCsv(header, rows), 'text/csv;charset=utf-8');
      setFailed(false);
    } catch (error) {
      console.error('CSV export failed', error);
      setFailed(true);
    }
  };
  return (
    <Stack spacing={1} alignItems="flex-end">
      <Button variant="outlined" startIcon={<DownloadIcon />} onClick={exportCsv} disabled={disabled}>
        Export CSV
      </Button>
      {failed ? (
        <Alert severity="error" onClose={() => setFailed(false)}>
          {CSV_EXPORT_FAILED_MESSAGE}
        </Alert>
      ) : null}
    </Stack>
  );
}
