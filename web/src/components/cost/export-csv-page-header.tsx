import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Button } from '@mui/material';
import { PageHeader } from '@/components/page-header';

export interface ExportCsvPageHeaderProps {
  title: string;
  /** Nothing to export yet (no answer, or no rows). */
  disabled: boolean;
  onExport: () => void;
  /** The §8 message of a failed export (`useCsvExport().error`), shown under the header. */
  error: string | null;
  onDismissError: () => void;
}

/** A cost page's title with its Export CSV action, and the export's failure message below it. */
export function ExportCsvPageHeader({ title, disabled, onExport, error, onDismissError }: ExportCsvPageHeaderProps) {
  return (
    <>
      <PageHeader
        title={title}
        actions={
          <Button variant="outlined" startIcon={<DownloadIcon />} onClick={onExport} disabled={disabled}>
            Export CSV
          </Button>
        }
      />
      {error ? (
        <Alert severity="error" onClose={onDismissError} sx={{ mb: 2 }}>
          {error}
        </Alert>
      ) : null}
    </>
  );
}
