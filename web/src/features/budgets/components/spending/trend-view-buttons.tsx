import AreaChartIcon from '@mui/icons-material/AreaChart';
import BarChartIcon from '@mui/icons-material/BarChart';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import { ToggleButton, ToggleButtonGroup, Tooltip } from '@mui/material';
import type { ReactElement } from 'react';
import { TREND_DATA_TYPES, type TrendDataType } from '../../model/trend';
import type { TrendChartType } from './spending-chart-option';

/** Cumulative, Daily, Weekly, Monthly. */
export function DataTypeButtons({ value, onChange }: { value: TrendDataType; onChange(value: TrendDataType): void }) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      aria-label="Data type"
      value={value}
      // A click on the pressed button answers null: the choice stays.
      onChange={(_event, next: TrendDataType | null) => next && onChange(next)}
    >
      {TREND_DATA_TYPES.map((type) => (
        <ToggleButton key={type.value} value={type.value} sx={{ textTransform: 'none' }}>
          {type.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

const CHART_TYPES: ReadonlyArray<{ value: TrendChartType; label: string; icon: ReactElement }> = [
  { value: 'bar', label: 'Bar chart', icon: <BarChartIcon fontSize="small" /> },
  { value: 'line', label: 'Line chart', icon: <ShowChartIcon fontSize="small" /> },
  { value: 'area', label: 'Area chart', icon: <AreaChartIcon fontSize="small" /> },
];

/** bar, line, area. */
export function ChartTypeButtons({ value, onChange }: { value: TrendChartType; onChange(value: TrendChartType): void }) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      aria-label="Chart type"
      value={value}
      onChange={(_event, next: TrendChartType | null) => next && onChange(next)}
    >
      {CHART_TYPES.map((type) => (
        <Tooltip key={type.value} title={type.label}>
          <ToggleButton value={type.value} aria-label={type.label}>
            {type.icon}
          </ToggleButton>
        </Tooltip>
      ))}
    </ToggleButtonGroup>
  );
}
