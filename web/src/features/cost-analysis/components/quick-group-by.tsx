import { Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useId } from 'react';
import { groupKeyLabel, type GroupKey } from '@/lib/cost';

type Dimension = Exclude<GroupKey, 'none'>;

/** The single groupings one click away (issue 16 "Few clicks, measured"), in the order shown. */
export const QUICK_GROUP_BY: ReadonlyArray<Dimension> = ['service', 'account', 'region', 'cloud_provider'];

export interface QuickGroupByProps {
  /** The chosen dimensions, the primary first (as Group By holds them). */
  value: ReadonlyArray<Dimension>;
  /** Group by this one dimension alone. */
  onChoose(dimension: Dimension): void;
}

/**
 * "Quick group by": one click groups by a single dimension, replacing whatever Group By held
 * (multi-level grouping stays in Group By). The button of the current single grouping is pressed.
 */
export function QuickGroupBy({ value, onChoose }: QuickGroupByProps) {
  const labelId = useId();
  const current = value.length === 1 && QUICK_GROUP_BY.includes(value[0]) ? value[0] : null;
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Typography id={labelId} variant="body2" color="text.secondary">
        Quick group by
      </Typography>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={current}
        aria-labelledby={labelId}
        // Pressing the pressed button again keeps the grouping (there is nothing to undo to).
        onChange={(_event, next: Dimension | null) => {
          if (next && next !== current) onChoose(next);
        }}
      >
        {QUICK_GROUP_BY.map((dimension) => (
          <ToggleButton key={dimension} value={dimension} sx={{ textTransform: 'none', py: 0.5 }}>
            {groupKeyLabel(dimension)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Stack>
  );
}
