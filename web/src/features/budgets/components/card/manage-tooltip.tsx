import { Tooltip } from '@mui/material';
import type { ReactElement } from 'react';
import { MANAGE_BUDGETS_DENIED } from './use-can-manage-budgets';

/**
 * Explains a control disabled for a plain user. A disabled button gets no pointer events, so
 * the tooltip hangs on a wrapper.
 */
export function ManageTooltip({ canManage, children }: { canManage: boolean; children: ReactElement }) {
  if (canManage) return children;
  return (
    <Tooltip title={MANAGE_BUDGETS_DENIED}>
      <span>{children}</span>
    </Tooltip>
  );
}
