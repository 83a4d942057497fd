import { Box, LinearProgress, Stack, Typography } from '@mui/material';
import type { IngestProgress } from '../types';
import { PHASE_LABELS, progressDetails, readPercent } from '../utils/progress';

/**
 * A running load: its phase, a bar of the bytes read while the files are read and checked
 * (moving without a figure while the rows are written), the file, MB and rows read so far.
 */
export function LoadProgress({ progress }: { progress: IngestProgress }) {
  const percent = readPercent(progress);
  return (
    <Box role="group" aria-label="Load progress">
      <Stack direction="row" justifyContent="space-between" spacing={2}>
        <Typography variant="body2">{PHASE_LABELS[progress.phase]}</Typography>
        {percent === null ? null : <Typography variant="body2">{percent}%</Typography>}
      </Stack>
      <LinearProgress
        aria-label="Loading billing data"
        variant={percent === null ? 'indeterminate' : 'determinate'}
        value={percent ?? undefined}
        sx={{ mt: 0.5 }}
      />
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5, overflowWrap: 'anywhere' }}>
        {progressDetails(progress)}
      </Typography>
    </Box>
  );
}
