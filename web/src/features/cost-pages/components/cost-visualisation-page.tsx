import { PageHeader } from '@/components/page-header';

export function CostVisualisationPage() {
  return <PageHeader title="Cost Analysis" />;
}
