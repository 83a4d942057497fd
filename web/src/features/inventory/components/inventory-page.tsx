import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { DiscoverButton, InventoryExplorer, resourceFromSearch } from '@/components/inventory';
import { PageHeader } from '@/components/page-header';

export interface InventoryPageProps {
  now?: Date;
}

/**
 * `/inventory` (spec 1 §2.7): the resource inventory, its discovery trigger and unmatched spend.
 * `?account=&region=&type=&resource=` opens that resource's side panel (links from findings).
 */
export function InventoryPage({ now }: InventoryPageProps) {
  const [search, setSearch] = useSearchParams();
  const searchText = search.toString();
  const openResource = useMemo(() => resourceFromSearch(new URLSearchParams(searchText)), [searchText]);
  return (
    <>
      <PageHeader
        title="Resource Inventory"
        subtitle="Every resource discovered in your AWS accounts, with its state, cost, tags and property history."
        actions={<DiscoverButton />}
      />
      <InventoryExplorer
        showUnmatchedSpend
        now={now}
        openResource={openResource}
        onPanelClose={openResource ? () => setSearch({}, { replace: true }) : undefined}
      />
    </>
  );
}
