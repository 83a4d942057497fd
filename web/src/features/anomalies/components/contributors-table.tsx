import { Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { Contributor } from '../types';
import { money } from '../utils/labels';

export interface ContributorsTableProps {
  /** The table's name and heading: "Usage types" or "Resources". */
  title: string;
  /** The first column: "Usage type" or "Resource". */
  keyLabel: string;
  contributors: Contributor[];
  currency: string;
  /** Shown instead of the table when there is none. */
  emptyText: string;
}

/** What rose most on the anomaly's first day against its baseline, as the server explained it. */
export function ContributorsTable({ title, keyLabel, contributors, currency, emptyText }: ContributorsTableProps) {
  return (
    <section aria-label={title}>
      <Typography variant="subtitle1" component="h3" fontWeight={600} sx={{ mb: 1 }}>
        {title}
      </Typography>
      {contributors.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          {emptyText}
        </Typography>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{keyLabel}</TableCell>
                <TableCell align="right">Actual</TableCell>
                <TableCell align="right">Expected</TableCell>
                <TableCell align="right">Difference</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {contributors.map((contributor) => (
                <TableRow key={contributor.key}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{contributor.key}</TableCell>
                  <TableCell align="right">{money(contributor.actual, currency)}</TableCell>
                  <TableCell align="right">{money(contributor.expected, currency)}</TableCell>
                  <TableCell align="right">
                    {contributor.difference > 0 ? '+' : ''}
                    {money(contributor.difference, currency)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </section>
  );
}
