import { Typography } from '@mui/material';

/** What a finding says when the cost data shows nothing for it. */
export function NothingFound({ children }: { children: string }) {
  return (
    <Typography role="status" color="text.secondary">
      {children}
    </Typography>
  );
}
