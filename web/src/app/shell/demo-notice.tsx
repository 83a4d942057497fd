import { Alert } from '@mui/material';
import { useCustomer } from '@/api/queries';

/** docs/ANALYST-FLOW.md "Honest context": the words every signed-in page of the demo tenant shows. */
export const DEMO_NOTICE_TEXT = 'Demo data: every figure in this workspace is generated, not a real bill.';

/** The demo tenant's notice (`is_demo` of GET /v1/customer); nothing for any other tenant. */
export function DemoNotice() {
  const customer = useCustomer();
  if (customer.data?.is_demo !== true) return null;
  return (
    <Alert severity="info" role="note" variant="outlined" sx={{ mb: 2, py: 0 }}>
      {DEMO_NOTICE_TEXT}
    </Alert>
  );
}
