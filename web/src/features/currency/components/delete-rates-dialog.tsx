import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { errorMessage } from '@/api/api-error';
import { useDeleteExchangeRates } from '../api/delete-exchange-rates';

/** Confirms deleting every uploaded rate; converted figures go back to leaving other currencies out. */
export function DeleteRatesDialog({ count, onClose }: { count: number; onClose(): void }) {
  const remove = useDeleteExchangeRates();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="delete-rates-title">
      <DialogTitle id="delete-rates-title">Delete all exchange rates</DialogTitle>
      <DialogContent>
        {remove.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorMessage(remove.error, 'The exchange rates could not be deleted')}
          </Alert>
        ) : null}
        <DialogContentText>
          Delete all {count} exchange {count === 1 ? 'rate' : 'rates'}? Amounts in other currencies are then left out
          of the cost screens until you upload rates again.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" color="error" loading={remove.isPending} onClick={() => remove.mutate(undefined, { onSuccess: onClose })}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
