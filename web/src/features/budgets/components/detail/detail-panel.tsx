import { Paper, Stack, Typography } from '@mui/material';
import { useId, type ReactNode } from 'react';

export interface DetailPanelProps {
  title: string;
  children: ReactNode;
}

/** One titled panel of the budget detail page; a region named by its title. */
export function DetailPanel({ title, children }: DetailPanelProps) {
  const headingId = useId();
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 }, height: '100%' }}>
      <Stack spacing={2}>
        <Typography id={headingId} variant="h6" component="h2">
          {title}
        </Typography>
        {children}
      </Stack>
    </Paper>
  );
}
