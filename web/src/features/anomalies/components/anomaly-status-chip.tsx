import { Chip } from '@mui/material';
import type { AnomalyStatus } from '../types';
import { STATUS_COLORS, STATUS_LABELS } from '../utils/labels';

export function AnomalyStatusChip({ status }: { status: AnomalyStatus }) {
  return <Chip size="small" variant="outlined" color={STATUS_COLORS[status]} label={STATUS_LABELS[status]} />;
}
