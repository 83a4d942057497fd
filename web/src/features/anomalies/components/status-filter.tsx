import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { STATUS_FILTERS, type StatusFilter as Status } from '../hooks/use-anomaly-filters';
import { STATUS_LABELS } from '../utils/labels';

const label = (status: Status) => (status === 'all' ? 'All' : STATUS_LABELS[status]);

/** Open, Dismissed, Expected or All; one is always chosen. */
export function StatusFilter({ value, onChange }: { value: Status; onChange(status: Status): void }) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      aria-label="Status"
      value={value}
      onChange={(_, next: Status | null) => {
        if (next) onChange(next);
      }}
    >
      {STATUS_FILTERS.map((status) => (
        <ToggleButton key={status} value={status}>
          {label(status)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
