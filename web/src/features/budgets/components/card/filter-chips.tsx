import { Chip, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import type { Budget } from '../../model/types';
import { FILTER_CHIPS_SHOWN, filterChipLabels } from './card-rules';

/** The budget's filter values as chips: 5, then '+N more' (which shows the rest). */
export function FilterChips({ filters }: { filters: Budget['filters'] }) {
  const [showAll, setShowAll] = useState(false);
  const labels = filterChipLabels(filters);
  if (labels.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        None
      </Typography>
    );
  }
  const hidden = labels.length - FILTER_CHIPS_SHOWN;
  const shown = showAll ? labels : labels.slice(0, FILTER_CHIPS_SHOWN);
  return (
    <Stack direction="row" useFlexGap flexWrap="wrap" spacing={0.5}>
      {shown.map((label, index) => (
        <Chip key={`${label}-${index}`} label={label} size="small" />
      ))}
      {hidden > 0 && !showAll ? (
        <Chip label={`+${hidden} more`} size="small" variant="outlined" onClick={() => setShowAll(true)} />
      ) : null}
    </Stack>
  );
}
