import { Alert, Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow } from '@mui/material';
import { useState } from 'react';
import { errorMessage } from '@/api/api-error';
import { useExchangeRates } from '../api/get-exchange-rates';

export const RATES_PAGE_SIZES = [25, 50, 100];

/** The uploaded rates, newest date first, a page at a time from the server. */
export function RatesTable() {
  const [limit, setLimit] = useState(RATES_PAGE_SIZES[0]);
  const [page, setPage] = useState(0);
  const rates = useExchangeRates(limit, page * limit);

  if (rates.isError) return <Alert severity="error">{errorMessage(rates.error, 'The exchange rates could not be read')}</Alert>;
  if (!rates.data || rates.data.total === 0) return null;
  const lastPage = Math.max(0, Math.ceil(rates.data.total / limit) - 1);

  return (
    <TableContainer>
      <Table size="small" aria-label="Exchange rates">
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell>From</TableCell>
            <TableCell>To</TableCell>
            <TableCell align="right">Rate</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rates.data.rates.map((rate) => (
            <TableRow key={`${rate.date}-${rate.from}-${rate.to}`}>
              <TableCell>{rate.date}</TableCell>
              <TableCell>{rate.from}</TableCell>
              <TableCell>{rate.to}</TableCell>
              <TableCell align="right">{rate.rate}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={rates.data.total}
        page={Math.min(page, lastPage)}
        rowsPerPage={limit}
        rowsPerPageOptions={RATES_PAGE_SIZES}
        onPageChange={(_, next) => setPage(next)}
        onRowsPerPageChange={(event) => {
          setLimit(Number(event.target.value));
          setPage(0);
        }}
      />
    </TableContainer>
  );
}
