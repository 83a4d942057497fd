import { Alert, Box, Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { errorMessage } from '@/api/api-error';
import { DELIVERIES_LIMIT, DELIVERIES_REFRESH_MS, useDeliveries } from '../api/get-deliveries';
import { NOTIFICATION_MESSAGES } from '../utils/messages';
import { DeliveriesTable } from './deliveries-table';

/** The latest deliveries of every channel, re-read every 30 s while the page is open. */
export function RecentDeliveries() {
  const deliveries = useDeliveries();
  return (
    <Box component="section" aria-labelledby="recent-deliveries-heading" sx={{ mt: 5 }}>
      <Typography variant="h6" component="h2" id="recent-deliveries-heading">
        Recent deliveries
      </Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 1.5 }}>
        The latest {DELIVERIES_LIMIT} messages to your channels, newest first; refreshed every {DELIVERIES_REFRESH_MS / 1000}{' '}
        seconds. A failed attempt is tried again with growing delays, at most 8 times.
      </Typography>
      {deliveries.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => deliveries.refetch()}>
              Retry
            </Button>
          }
        >
          {NOTIFICATION_MESSAGES.deliveriesFailed}: {errorMessage(deliveries.error, 'unexpected error')}
        </Alert>
      ) : deliveries.isPending ? (
        <Stack spacing={1} aria-label="Loading recent deliveries">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={40} />
          ))}
        </Stack>
      ) : deliveries.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography color="text.secondary">No deliveries yet. Alerts and test messages sent to your channels appear here.</Typography>
        </Paper>
      ) : (
        <DeliveriesTable deliveries={deliveries.data} />
      )}
    </Box>
  );
}
