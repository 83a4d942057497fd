import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A labelled amount of a summary card; `detail` says where the figure comes from. */
export function Figure({ label, value, detail }: { label: string; value: string; detail?: ReactNode }) {
  return (
    <Box role="group" aria-label={label}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
        {value}
      </Typography>
      {detail ? (
        <Typography variant="caption" color="text.secondary" component="div">
          {detail}
        </Typography>
      ) : null}
    </Box>
  );
}
