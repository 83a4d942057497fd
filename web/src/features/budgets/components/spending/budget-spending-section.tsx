import { Stack } from '@mui/material';
import { useState } from 'react';
import type { TrendDataType, TrendPoint } from '../../model/trend';
import type { Budget } from '../../model/types';
import { BudgetResourcesTable } from './budget-resources-table';
import { DEFAULT_SPENDING_PRESET, quickRange, type SpendingRange } from './spending-range';
import { SpendingTrendPanel } from './spending-trend-panel';

export interface BudgetSpendingSectionProps {
  budget: Budget;
}

/**
 * The Spending Trend panel and, under it, the Resources table, which share the date range (Last
 * 90 Days at first), the data type and the clicked point (spec 2 §4 "Spending trend"). Another
 * budget starts again from those defaults.
 */
export function BudgetSpendingSection({ budget }: BudgetSpendingSectionProps) {
  return <SpendingSection key={budget.id} budget={budget} />;
}

function SpendingSection({ budget }: BudgetSpendingSectionProps) {
  const [range, setRange] = useState<SpendingRange>(() => quickRange(DEFAULT_SPENDING_PRESET));
  const [dataType, setDataType] = useState<TrendDataType>('cumulative');
  const [selected, setSelected] = useState<TrendPoint | null>(null);

  // A clicked point belongs to one range and resolution: changing either forgets it.
  const changeRange = (next: SpendingRange) => {
    setRange(next);
    setSelected(null);
  };
  const changeDataType = (next: TrendDataType) => {
    setDataType(next);
    setSelected(null);
  };

  const shown = selected ?? range;
  return (
    <Stack spacing={3}>
      <SpendingTrendPanel
        budget={budget}
        range={range}
        onRangeChange={changeRange}
        dataType={dataType}
        onDataTypeChange={changeDataType}
        selected={selected}
        onSelect={setSelected}
      />
      <BudgetResourcesTable
        budget={budget}
        startDate={shown.startDate}
        endDate={shown.endDate}
        resetKey={`${dataType}|${range.startDate}|${range.endDate}|${shown.startDate}|${shown.endDate}`}
      />
    </Stack>
  );
}
