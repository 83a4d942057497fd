import { Alert, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { errorMessage } from '@/api/api-error';
import { useSetDisplayCurrency } from '../api/set-display-currency';
import type { CurrencySettings } from '../types';
import { displayCurrencyOptions, mainCurrency } from '../utils/currency-options';
import { MANAGE_CURRENCY_DENIED } from '../utils/permissions';

/** The Select's value for "no display currency". */
const NONE = '';

function noneLabel(settings: CurrencySettings): string {
  const main = mainCurrency(settings);
  return main ? `None: each answer in your main currency (${main})` : 'None: each answer in your main currency';
}

/** The display currency: a select for owners and admins, the current choice for the others. */
export function DisplayCurrencyCard({ settings, canManage }: { settings: CurrencySettings; canManage: boolean }) {
  const save = useSetDisplayCurrency();
  const options = displayCurrencyOptions(settings);
  const current = settings.displayCurrency ?? NONE;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="display-currency-title" sx={{ p: 3 }}>
      <Typography id="display-currency-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        Display currency
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        With a display currency, every cost screen converts amounts in other currencies with your exchange rates and
        says so. Without one, amounts in currencies other than your main currency are left out, and the screens say
        how much.
      </Typography>
      {canManage ? (
        <Stack spacing={2} sx={{ maxWidth: 420 }}>
          <TextField
            select
            label="Display currency"
            value={current}
            disabled={save.isPending}
            onChange={(event) => save.mutate(event.target.value === NONE ? null : event.target.value)}
            helperText="To show a currency your data is not in, upload rates to it first."
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value={NONE}>{noneLabel(settings)}</MenuItem>
            {options.map((code) => (
              <MenuItem key={code} value={code}>
                {code}
              </MenuItem>
            ))}
          </TextField>
          {save.isError ? (
            <Alert severity="error" onClose={() => save.reset()}>
              {errorMessage(save.error, 'The display currency could not be saved')}
            </Alert>
          ) : null}
          {save.isSuccess ? (
            <Alert severity="success" onClose={() => save.reset()}>
              {save.data.displayCurrency
                ? `Amounts are now shown in ${save.data.displayCurrency}.`
                : 'Amounts are now shown in your main currency.'}
            </Alert>
          ) : null}
        </Stack>
      ) : (
        <Stack spacing={1}>
          <Typography>
            <strong>Display currency:</strong> {settings.displayCurrency ?? noneLabel(settings)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {MANAGE_CURRENCY_DENIED}.
          </Typography>
        </Stack>
      )}
    </Paper>
  );
}
