import { PageHeader } from '@/components/page-header';

export function DashboardTabsPage() {
  return <PageHeader title="Dashboard" />;
}
