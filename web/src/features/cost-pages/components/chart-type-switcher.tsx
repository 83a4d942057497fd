import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import type { CostChartProps } from '@/components/cost';

export type ChartType = CostChartProps['type'];

export const CHART_TYPES: ReadonlyArray<{ value: ChartType; label: string }> = [
  { value: 'line', label: 'Line' },
  { value: 'area', label: 'Area' },
  { value: 'bar', label: 'Bar' },
  { value: 'pie', label: 'Pie' },
];

/** Line, area, bar or pie (spec 1 §2.11). */
export function ChartTypeSwitcher({ value, onChange }: { value: ChartType; onChange: (type: ChartType) => void }) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      aria-label="Chart type"
      onChange={(_, next: ChartType | null) => {
        if (next) onChange(next);
      }}
    >
      {CHART_TYPES.map((type) => (
        <ToggleButton key={type.value} value={type.value}>
          {type.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
