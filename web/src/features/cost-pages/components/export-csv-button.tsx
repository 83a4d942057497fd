import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Button, Stack } from '@mui/material';
import { toCsv, useCsvExport } from '@/lib/cost';

/** The cost visualisation export: `cost-data-{YYYY-MM-DD}.csv` (spec 1 §7), the §8 text on failure. */
export function ExportCsvButton({ disabled, table }: { disabled?: boolean; table: () => { header: string[]; rows: unknown[][] } }) {
  const { exportCsv, error, clearError } = useCsvExport('cost-data');
  const onClick = () =>
    exportCsv(() => {
      const { header, rows } = table();
      return toCsv(header, rows);
    });
  return (
    <Stack spacing={1} alignItems="flex-end">
      <Button variant="outlined" startIcon={<DownloadIcon />} onClick={onClick} disabled={disabled}>
        Export CSV
      </Button>
      {error ? (
        <Alert severity="error" onClose={clearError}>
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
