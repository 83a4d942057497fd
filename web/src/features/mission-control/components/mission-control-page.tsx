import { PageHeader } from '@/components/page-header';

export function MissionControlPage() {
  return <PageHeader title="Mission Control" />;
}
