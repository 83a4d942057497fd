import { PageHeader } from '@/components/page-header';

export function BasicCostPage() {
  return <PageHeader title="Basic Cost" />;
}
