import { Chip, Stack } from '@mui/material';
import { MAX_CHIPS_DISPLAYED, describeFilters, type FlatFilter } from '@/lib/cost-filters';

export interface AppliedFilterChipsProps {
  filters: FlatFilter[];
  /** Opens the filter panel when a chip is clicked. */
  onClick?(): void;
}

/** The applied filters as chips: at most 5, then "+N more" (spec 1 §9). */
export function AppliedFilterChips({ filters, onClick }: AppliedFilterChipsProps) {
  const labels = describeFilters(filters);
  if (labels.length === 0) return null;
  const shown = labels.slice(0, MAX_CHIPS_DISPLAYED);
  const hidden = labels.length - shown.length;
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" component="ul" aria-label="Applied filters" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {shown.map((label, i) => (
        <li key={`${i}-${label}`}>
          <Chip size="small" label={label} onClick={onClick} />
        </li>
      ))}
      {hidden > 0 ? (
        <li>
          <Chip size="small" variant="outlined" label={`+${hidden} more`} onClick={onClick} />
        </li>
      ) : null}
    </Stack>
  );
}
