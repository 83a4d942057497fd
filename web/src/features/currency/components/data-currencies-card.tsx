import { Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { formatCurrency } from '@/lib/cost/format';
import type { DataCurrency } from '../types';

/** The currencies the tenant's billing data is in, with the billed cost in each, most first. */
export function DataCurrenciesCard({ currencies }: { currencies: DataCurrency[] }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby="data-currencies-title" sx={{ p: 3 }}>
      <Typography id="data-currencies-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        Currencies of your data
      </Typography>
      {currencies.length === 0 ? (
        <Typography color="text.secondary">No billing data loaded yet.</Typography>
      ) : (
        <Table size="small" aria-labelledby="data-currencies-title">
          <TableHead>
            <TableRow>
              <TableCell>Currency</TableCell>
              <TableCell align="right">Billed cost</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {currencies.map((c) => (
              <TableRow key={c.currency}>
                <TableCell>{c.currency}</TableCell>
                <TableCell align="right">{formatCurrency(c.billedCost, { currency: c.currency })}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
