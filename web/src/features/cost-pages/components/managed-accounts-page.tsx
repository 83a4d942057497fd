import { PageHeader } from '@/components/page-header';

export function ManagedAccountsPage() {
  return <PageHeader title="Managed Accounts" />;
}
