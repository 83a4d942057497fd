import { Chip, Stack, Typography } from '@mui/material';
import { FILTER_TYPE_LABEL } from '../../model/filters';
import type { BudgetFilter } from '../../model/types';
import { DetailPanel } from './detail-panel';

interface FilterGroup {
  type: string;
  label: string;
  values: string[];
}

/** One group per filter type, in the order of FILTER_TYPE_LABEL; repeated types and values are merged. */
export function groupFiltersByType(filters: readonly BudgetFilter[]): FilterGroup[] {
  const labels = FILTER_TYPE_LABEL as Record<string, string>;
  const order = Object.keys(labels);
  const values = new Map<string, string[]>();
  for (const filter of filters) {
    values.set(filter.filterType, [...new Set([...(values.get(filter.filterType) ?? []), ...filter.filterValues])]);
  }
  const rank = (type: string) => (order.includes(type) ? order.indexOf(type) : order.length);
  return [...values.entries()]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([type, groupValues]) => ({ type, label: labels[type] ?? type, values: groupValues }));
}

/** Spec 2 §2: the budget's filters, grouped by filter type. */
export function BudgetFiltersPanel({ filters }: { filters: readonly BudgetFilter[] }) {
  const groups = groupFiltersByType(filters);
  return (
    <DetailPanel title="Filters">
      {groups.length === 0 ? (
        <Typography color="text.secondary">No filters configured.</Typography>
      ) : (
        groups.map((group) => (
          <Stack key={group.type} spacing={1} role="group" aria-label={group.label}>
            <Typography variant="subtitle2" component="h3">
              {group.label}
            </Typography>
            <Stack direction="row" useFlexGap flexWrap="wrap" gap={1}>
              {group.values.map((value) => (
                <Chip key={value} size="small" label={value} />
              ))}
            </Stack>
          </Stack>
        ))
      )}
    </DetailPanel>
  );
}
