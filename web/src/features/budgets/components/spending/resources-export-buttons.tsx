import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import type { ResourcesExport } from './use-resources-export';

export interface ResourcesExportButtonsProps {
  exporter: ResourcesExport;
  /** Resources over every page, for 'All (n)'. */
  totalCount: number;
  disabled?: boolean;
}

/** 'Current Page' and 'All (n)', the export's percent while it runs, and its error. */
export function ResourcesExportButtons({ exporter, totalCount, disabled }: ResourcesExportButtonsProps) {
  const busy = exporter.progress !== null;
  return (
    <Stack spacing={1} alignItems={{ sm: 'flex-end' }}>
      <Stack direction="row" spacing={1} alignItems="center">
        <Typography variant="body2" color="text.secondary">
          Export:
        </Typography>
        <Button size="small" variant="outlined" startIcon={<DownloadIcon />} disabled={disabled || busy} onClick={exporter.exportCurrentPage}>
          Current Page
        </Button>
        <Button size="small" variant="outlined" startIcon={<DownloadIcon />} disabled={disabled || busy} onClick={() => void exporter.exportAll()}>
          All ({totalCount})
        </Button>
      </Stack>
      {busy ? (
        <Box sx={{ width: 200 }} role="status" aria-live="polite">
          <LinearProgress variant="determinate" value={exporter.progress ?? 0} aria-label="Export progress" />
          <Typography variant="caption" color="text.secondary">
            Exporting… {exporter.progress}%
          </Typography>
        </Box>
      ) : null}
      {exporter.error ? (
        <Alert severity="error" onClose={exporter.clearError}>
          {exporter.error}
        </Alert>
      ) : null}
    </Stack>
  );
}
