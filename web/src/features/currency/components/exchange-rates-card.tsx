import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { downloadFile } from '@/lib/cost/csv';
import type { CurrencySettings } from '../types';
import { TEMPLATE_FILE_NAME, exchangeRatesTemplate } from '../utils/template';
import { DeleteRatesDialog } from './delete-rates-dialog';
import { RatesSummary } from './rates-summary';
import { RatesTable } from './rates-table';
import { RatesUpload } from './rates-upload';

/** The exchange rates: what they cover, the upload (owners and admins), the template, the table. */
export function ExchangeRatesCard({ settings, canManage }: { settings: CurrencySettings; canManage: boolean }) {
  const [deleting, setDeleting] = useState(false);
  const { rates } = settings;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="exchange-rates-title" sx={{ p: 3 }}>
      <Stack direction="row" justifyContent="space-between" alignItems="center" spacing={2} sx={{ mb: 1 }}>
        <Typography id="exchange-rates-title" variant="h6" component="h2">
          Exchange rates
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button
            size="small"
            startIcon={<DownloadIcon />}
            onClick={() => downloadFile(TEMPLATE_FILE_NAME, exchangeRatesTemplate(settings), 'text/csv;charset=utf-8')}
          >
            Download template
          </Button>
          {canManage && rates.count > 0 ? (
            <Button size="small" color="error" startIcon={<DeleteOutlineIcon />} onClick={() => setDeleting(true)}>
              Delete all rates
            </Button>
          ) : null}
        </Stack>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        A CSV file with the columns <code>date,from,to,rate</code>, one rate a line, e.g.{' '}
        <code>2026-11-01,USD,EUR,0.9213</code> (1 USD is 0.9213 EUR). A cost uses the rate of its currency to the
        display currency with the latest date on or before its day, else the earliest one after; a pair given the other
        way round is used inverted. An upload replaces all of your rates; a file with an error changes nothing.
      </Typography>
      <Stack spacing={2}>
        <RatesSummary rates={rates} />
        {canManage ? <RatesUpload /> : null}
        <Box>
          <RatesTable key={`${rates.count}-${rates.firstDate}-${rates.lastDate}`} />
        </Box>
      </Stack>
      {deleting ? <DeleteRatesDialog count={rates.count} onClose={() => setDeleting(false)} /> : null}
    </Paper>
  );
}
