import { DiscoverButton, InventoryExplorer } from '@/components/inventory';
import { PageHeader } from '@/components/page-header';

export interface InventoryPageProps {
  now?: Date;
}

/** `/inventory` (spec 1 §2.7): the resource inventory, its discovery trigger and unmatched spend. */
export function InventoryPage({ now }: InventoryPageProps) {
  return (
    <>
      <PageHeader
        title="Resource Inventory"
        subtitle="Every resource discovered in your AWS accounts, with its state, cost, tags and property history."
        actions={<DiscoverButton />}
      />
      <InventoryExplorer showUnmatchedSpend now={now} />
    </>
  );
}
