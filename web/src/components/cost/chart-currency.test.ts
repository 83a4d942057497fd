import { describe, expect, it } from 'vitest';
import { buildChartOption } from './chart-option';

type Formatter = (value: number) => string;

function formatters(option: ReturnType<typeof buildChartOption>) {
  const o = option as { yAxis?: { axisLabel: { formatter: Formatter } }; tooltip: { valueFormatter: Formatter } };
  return { axis: o.yAxis?.axisLabel.formatter, tooltip: o.tooltip.valueFormatter };
}

describe('chart amounts in the answer’s currency', () => {
  const data = { categories: ['2026-11-01'], series: [{ name: 'Total', values: [1234.5] }] };

  it('writes the axis and the tooltip in the given currency', () => {
    const { axis, tooltip } = formatters(buildChartOption({ ...data, type: 'bar', currency: 'EUR' }));
    expect(axis?.(1234.5)).toBe('€1,234.50');
    expect(tooltip(0.0123)).toBe('€0.012');
    expect(formatters(buildChartOption({ ...data, type: 'pie', currency: 'JPY' })).tooltip(1234.5)).toBe('¥1,235');
  });

  it('keeps US dollars when no currency is given', () => {
    expect(formatters(buildChartOption({ ...data, type: 'line' })).axis?.(5)).toBe('$5.00');
  });
});
