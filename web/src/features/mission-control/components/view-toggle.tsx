import { ToggleButton, ToggleButtonGroup } from '@mui/material';

export type SectionView = 'overview' | 'detail';

export interface ViewToggleProps {
  /** Names the group for assistive technology, e.g. "Service category view". */
  label: string;
  value: SectionView;
  onChange(view: SectionView): void;
}

/** The Overview / Detail switch of a dashboard section (§2.10). */
export function ViewToggle({ label, value, onChange }: ViewToggleProps) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      aria-label={label}
      value={value}
      onChange={(_, next: SectionView | null) => {
        if (next) onChange(next);
      }}
    >
      <ToggleButton value="overview">Overview</ToggleButton>
      <ToggleButton value="detail">Detail</ToggleButton>
    </ToggleButtonGroup>
  );
}
