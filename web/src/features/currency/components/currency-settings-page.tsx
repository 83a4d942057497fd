import { Alert, Box, Button, CircularProgress, Stack } from '@mui/material';
import { errorMessage } from '@/api/api-error';
import { useMe } from '@/api/queries';
import { PageHeader } from '@/components/page-header';
import { useCurrencySettings } from '../api/get-currency-settings';
import { canManageCurrency } from '../utils/permissions';
import { DataCurrenciesCard } from './data-currencies-card';
import { DisplayCurrencyCard } from './display-currency-card';
import { ExchangeRatesCard } from './exchange-rates-card';

/** /settings/currency — the data's currencies, the display currency and the exchange rates. */
export function CurrencySettingsPage() {
  const settings = useCurrencySettings();
  const canManage = canManageCurrency(useMe().data?.role);

  return (
    <Box>
      <PageHeader title="Currency" subtitle="Which currency costs are shown in, and the exchange rates that convert them." />
      {settings.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void settings.refetch()}>
              Retry
            </Button>
          }
        >
          {errorMessage(settings.error, 'The currency settings could not be read')}
        </Alert>
      ) : !settings.data ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label="Loading currency settings" />
        </Box>
      ) : (
        <Stack spacing={3}>
          <DataCurrenciesCard currencies={settings.data.dataCurrencies} />
          <DisplayCurrencyCard settings={settings.data} canManage={canManage} />
          <ExchangeRatesCard settings={settings.data} canManage={canManage} />
        </Stack>
      )}
    </Box>
  );
}
