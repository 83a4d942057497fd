import { PageHeader } from '@/components/page-header';

export function CostSavingPage() {
  return <PageHeader title="Cost Saving" />;
}
