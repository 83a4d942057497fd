import { PageHeader } from '@/components/page-header';

export function AdvancedCostPage() {
  return <PageHeader title="Advanced Cost" />;
}
