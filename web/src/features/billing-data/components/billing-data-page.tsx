import { Alert, Box } from '@mui/material';
import { useAppConfig, useMe } from '@/api/queries';
import type { Role } from '@/api/types';
import { PageHeader } from '@/components/page-header';
import { FocusExportButton } from './focus-export-dialog';
import { LoadHistory } from './load-history';
import { SupportedFormatsHelp } from './supported-formats-help';
import { UploadCard } from './upload-card';
import { isAdminLevel } from '@/api/roles';

/** Owners and admins load billing data (POST /v1/ingest answers 403 to the others). */
function canLoadBillingData(role: Role | undefined): boolean {
  return isAdminLevel(role);
}

/** /settings/billing-data — upload cost exports and see what was loaded. */
export function BillingDataPage() {
  const config = useAppConfig();
  const me = useMe();
  const role = me.data?.role;

  return (
    <Box>
      <PageHeader title="Billing Data" subtitle="Load your cloud billing exports into Costscope." />
      <SupportedFormatsHelp documentationUrl={config.documentation_url} />
      {canLoadBillingData(role) ? (
        <UploadCard />
      ) : me.data ? (
        <Alert severity="info" variant="outlined" sx={{ mb: 3 }}>
          Only owners and admins can load billing data.
        </Alert>
      ) : null}
      <FocusExportButton />
      <LoadHistory />
    </Box>
  );
}
