import { Box, CircularProgress } from '@mui/material';

export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '50vh' }}>
      <CircularProgress aria-label={label} />
    </Box>
  );
}
