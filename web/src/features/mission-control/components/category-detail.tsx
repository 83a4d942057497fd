import { Box, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { formatCurrency } from '@/lib/cost';
import type { CategorySummary } from '../utils/category-summary';
import { ChangeLabel } from './change-label';

/**
 * Each category with its services and their amounts, now and in the previous period; services
 * that had spend only in the previous period come last (at $0), so that a fall is explained.
 */
export function CategoryDetail({ summaries }: { summaries: CategorySummary[] }) {
  return (
    <Stack spacing={2.5}>
      {summaries.map((summary) => (
        <Box key={summary.category}>
          <Stack direction="row" spacing={1} alignItems="baseline" justifyContent="space-between">
            <Typography variant="subtitle2" component="h3">
              {summary.category}
            </Typography>
            <Stack direction="row" spacing={1} alignItems="baseline">
              <Typography variant="body2" fontWeight={600}>
                {formatCurrency(summary.amount, { decimals: 0 })}
              </Typography>
              <ChangeLabel change={summary.change} />
            </Stack>
          </Stack>
          <Table size="small" aria-label={`${summary.category} services`}>
            <TableHead>
              <TableRow>
                <TableCell>Service</TableCell>
                <TableCell align="right">Amount</TableCell>
                <TableCell align="right">Previous period</TableCell>
                <TableCell align="right">Change</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {[...summary.services, ...summary.previousOnly].map((service) => (
                <TableRow key={service.name}>
                  <TableCell component="th" scope="row">
                    {service.name}
                  </TableCell>
                  <TableCell align="right">{formatCurrency(service.amount, { decimals: 0 })}</TableCell>
                  <TableCell align="right">{formatCurrency(service.previousAmount, { decimals: 0 })}</TableCell>
                  <TableCell align="right">
                    <ChangeLabel change={service.change} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ))}
    </Stack>
  );
}
