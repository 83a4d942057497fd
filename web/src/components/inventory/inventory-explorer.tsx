import { Alert, Box, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '@/api/api-error';
import { formatCurrency } from '@/lib/cost/format';
import { useResourceByKey, useResourceCounts, useResources } from './api';
import { PAGE_SIZE } from './constants';
import { FilterBar } from './filter-bar';
import { defaultFilters, filterBody, pageBody, pageSlice, type InventoryFilters } from './filters';
import { filterOptions } from './format';
import type { ResourceKeyRef } from './resource-link';
import { ResourcePanel } from './resource-panel';
import { ResourceTable } from './resource-table';
import type { Resource } from './types';
import { UnmatchedSpend } from './unmatched-spend';
import { useInventoryExport } from './use-export';

export const RESOURCES_FAILED_MESSAGE = 'Failed to load resources';
export const LINKED_RESOURCE_NOT_FOUND = 'The linked resource is not in the inventory (it may have been deleted more than 900 days ago).';
export const LINKED_RESOURCE_FAILED = 'Failed to load the linked resource';

export interface InventoryExplorerProps {
  /** `tags`: Tags Search (Show Untagged, the tag row open, a Tags column). */
  variant?: 'inventory' | 'tags';
  /** Below the table: spend whose resource is not in the inventory. */
  showUnmatchedSpend?: boolean;
  /** The current time (tests). */
  now?: Date;
  /** A resource whose side panel opens on arrival (a link from a finding or recommendation). */
  openResource?: ResourceKeyRef | null;
  /** The side panel was closed. */
  onPanelClose?(): void;
}

/** The resource inventory (spec 1 §2.7, §4): filter bar, table, side panel. */
export function InventoryExplorer({
  variant = 'inventory',
  showUnmatchedSpend = false,
  now,
  openResource = null,
  onPanelClose,
}: InventoryExplorerProps) {
  const tagsVariant = variant === 'tags';
  const [filters, setFiltersState] = useState<InventoryFilters>(() => defaultFilters(now));
  const [tagsOpen, setTagsOpen] = useState(tagsVariant);
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<Resource | null>(null);
  const setFilters = (next: InventoryFilters) => {
    setFiltersState(next);
    setPage(0);
  };

  const linked = useResourceByKey(openResource, now);
  useEffect(() => {
    if (linked.data) setSelected(linked.data);
  }, [linked.data]);

  const resources = useResources(pageBody(filters, page, PAGE_SIZE));
  const counts = useResourceCounts();
  const options = useMemo(
    () => filterOptions(counts.data, { accounts: filters.accounts, regions: filters.regions, types: filters.types }),
    [counts.data, filters.accounts, filters.regions, filters.types],
  );
  const exporter = useInventoryExport(tagsVariant ? 'tags-search' : 'inventory');

  const answer = resources.data;
  const rows = answer ? pageSlice(answer.resources, page, PAGE_SIZE) : [];

  return (
    <Box>
      <FilterBar
        filters={filters}
        onChange={setFilters}
        onResetAll={() => setFilters(defaultFilters(now))}
        options={options}
        tagsOpen={tagsOpen}
        onTagsOpenChange={setTagsOpen}
        showUntaggedOption={tagsVariant}
        now={now}
      />
      {resources.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(resources.error, RESOURCES_FAILED_MESSAGE)}
        </Alert>
      ) : null}
      {openResource && linked.data === null ? (
        <Alert severity="info" onClose={onPanelClose} sx={{ mb: 2 }}>
          {LINKED_RESOURCE_NOT_FOUND}
        </Alert>
      ) : null}
      {openResource && linked.isError ? (
        <Alert severity="error" onClose={onPanelClose} sx={{ mb: 2 }}>
          {errorMessage(linked.error, LINKED_RESOURCE_FAILED)}
        </Alert>
      ) : null}
      {exporter.error ? (
        <Alert severity="error" onClose={exporter.clearError} sx={{ mb: 2 }}>
          {exporter.error}
        </Alert>
      ) : null}
      <ResourceTable
        rows={rows}
        total={answer?.total ?? 0}
        currency={answer?.currency ?? 'USD'}
        page={page}
        onPageChange={setPage}
        onOpen={setSelected}
        loading={resources.isFetching}
        showTags={tagsVariant}
        onExport={() => void exporter.run(filterBody(filters))}
        exporting={exporter.exporting}
      />
      {answer?.other_currencies?.length ? (
        <Typography variant="body2" color="text.secondary">
          Cost in other currencies is not in the Cost column:{' '}
          {answer.other_currencies.map((amount) => formatCurrency(amount.amount, { currency: amount.currency })).join(', ')}
        </Typography>
      ) : null}
      {showUnmatchedSpend ? <UnmatchedSpend window={filters.window} /> : null}
      <ResourcePanel
        resource={selected}
        onClose={() => {
          setSelected(null);
          onPanelClose?.();
        }}
      />
    </Box>
  );
}
