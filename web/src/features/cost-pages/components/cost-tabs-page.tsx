import { PageHeader } from '@/components/page-header';

export type CostTab = 'basic' | 'advanced' | 'saving';

export function CostTabsPage({ tab }: { tab: CostTab }) {
  return <PageHeader title="Cost Analysis" subtitle={tab} />;
}
