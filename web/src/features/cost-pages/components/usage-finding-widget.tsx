import { Stack, Typography } from '@mui/material';
import { formatCurrency, formatRangeLabel, rowDimension, useCostAggr, type TimeRange } from '@/lib/cost';
import { breakdownRequest } from '../api/requests';
import { accountLabel, providerOf } from '../utils/row-labels';
import { ON_DEMAND_CHARGE_TYPES } from '../utils/saving-rules';
import { onDemandRows, previousGenerationRows, type UsageFinding } from '../utils/usage-findings';
import { CostWidget } from './cost-widget';
import { Figure } from './figure';
import { NothingFound } from './nothing-found';
import { RowsTable, type RowsTableColumn } from './rows-table';

type FindingRow = UsageFinding['rows'][number];

const KINDS = {
  previousGeneration: {
    title: 'Previous-generation instance families',
    explanation:
      'Usage of instance families a newer generation replaces (AWS t2, m4, c4, r4, m3 and older; GCP N1, f1 and g1; Azure A, D, DS, G, GS, NC, NV and H v1). Newer families usually cost less for the same capacity.',
    figure: 'Spend on previous-generation families',
    nothing: 'No spend on previous-generation instance families in this period.',
    pick: previousGenerationRows,
  },
  onDemand: {
    title: 'On-demand compute',
    explanation:
      'Instance hours billed at on-demand rates (AWS EC2, RDS and ElastiCache usage not covered by a Savings Plan or reservation; GCP Compute Engine cores and memory). A Savings Plan, reservation or committed use discount could cover steady usage.',
    figure: 'Spend at on-demand rates',
    nothing: 'No on-demand compute spend in this period.',
    pick: onDemandRows,
  },
} as const;

export type UsageFindingKind = keyof typeof KINDS;

/** A saving finding built from the usage rows (`Usage`/`regular` charges) of the range. */
export function UsageFindingWidget({ kind, range }: { kind: UsageFindingKind; range: TimeRange }) {
  const spec = KINDS[kind];
  const usage = useCostAggr(breakdownRequest(range, ['cloud_provider', 'service', 'account', 'usage_type'], ON_DEMAND_CHARGE_TYPES));
  const columns: RowsTableColumn<FindingRow>[] = [
    { header: 'Provider', cell: providerOf },
    { header: 'Service', cell: (row) => rowDimension(row, 'service') },
    { header: 'Account', cell: accountLabel },
    { header: 'Usage type', cell: (row) => rowDimension(row, 'usage_type') },
    ...(kind === 'previousGeneration' ? [{ header: 'Family', cell: (row: FindingRow) => row.family }] : []),
    { header: 'Amount', align: 'right', cell: (row) => formatCurrency(row.amount) },
  ];
  return (
    <CostWidget
      title={spec.title}
      subtitle={formatRangeLabel(range)}
      queries={[usage]}
      select={() => spec.pick(usage.data!.data)}
      isEmpty={(found) => found.rows.length === 0}
      emptyContent={<NothingFound>{spec.nothing}</NothingFound>}
    >
      {(found) => (
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {spec.explanation}
          </Typography>
          <Figure label={spec.figure} value={formatCurrency(found.total)} />
          <RowsTable label={`${spec.title} rows`} rows={found.rows} rowKey={(row) => row.grouping_path} columns={columns} />
        </Stack>
      )}
    </CostWidget>
  );
}
