import { Box } from '@mui/material';
import { formatDateTimeUtc, formatRelative } from '../utils/time';

/** "5 minutes ago", with the UTC date and time on hover. */
export function RelativeTime({ value }: { value: string }) {
  return (
    <Box component="time" dateTime={value} title={formatDateTimeUtc(value)} sx={{ whiteSpace: 'nowrap' }}>
      {formatRelative(value)}
    </Box>
  );
}
