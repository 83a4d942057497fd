import { PageHeader } from '@/components/page-header';

export function SavedReportsPage() {
  return <PageHeader title="Cost Report" />;
}
