import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { resolveTimeRange, type TimeRange } from '@/lib/cost/time-range';
import { renderWithProviders } from '@/test/render';
import { TimeRangeSelector } from './time-range-selector';

const NOW = new Date('2026-11-23T15:30:00.000Z');

function Harness({ onChange, initial = resolveTimeRange('thisMonth', undefined, NOW) }: { onChange: (r: TimeRange) => void; initial?: TimeRange }) {
  const [range, setRange] = useState(initial);
  return (
    <TimeRangeSelector
      value={range}
      now={NOW}
      onChange={(next) => {
        setRange(next);
        onChange(next);
      }}
    />
  );
}

describe('TimeRangeSelector', () => {
  it('lists the ten presets and shows the chosen one', async () => {
    const { user } = renderWithProviders(<Harness onChange={vi.fn()} />);
    const select = screen.getByRole('combobox', { name: 'Period' });
    expect(select).toHaveTextContent('This Month');
    await user.click(select);
    expect(within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Today',
      'Yesterday',
      'Last 7 Days',
      'Last 30 Days',
      'Last 90 Days',
      'This Month',
      'Last Month',
      'This Year',
      'Last Year',
      'Custom Range',
    ]);
  });

  it('reports the range of a chosen preset', async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<Harness onChange={onChange} />);
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(screen.getByRole('option', { name: 'Last Month' }));
    expect(onChange).toHaveBeenCalledWith({ preset: 'lastMonth', start: '2026-10-01T00:00:00.000Z', end: '2026-10-31T23:59:59.999Z' });
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('Last Month');
  });

  it('opens the dialog for Custom Range and then shows the dates in the option', async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<Harness onChange={onChange} />);
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(screen.getByRole('option', { name: 'Custom Range' }));
    const dialog = await screen.findByRole('dialog', { name: 'Select Custom Date Range' });
    await user.click(within(dialog).getByRole('button', { name: 'Sunday, November 1, 2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Sunday, November 15, 2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply Range' }));

    expect(onChange).toHaveBeenCalledWith({
      preset: 'custom',
      startDate: '2026-11-01',
      endDate: '2026-11-15',
      start: '2026-11-01T00:00:00.000Z',
      end: '2026-11-15T23:59:59.999Z',
    });
    const select = screen.getByRole('combobox', { name: 'Period' });
    expect(select).toHaveTextContent('Nov 1, 2026 – Nov 15, 2026');
    await user.click(select);
    expect(screen.getByRole('option', { name: 'Nov 1, 2026 – Nov 15, 2026' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Custom Range' })).not.toBeInTheDocument();
  });

  it('reopens the dialog with the custom dates and keeps the range on Cancel', async () => {
    const onChange = vi.fn();
    const initial = resolveTimeRange('custom', { startDate: '2026-09-10', endDate: '2026-10-05' }, NOW);
    const { user } = renderWithProviders(<Harness onChange={onChange} initial={initial} />);
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(screen.getByRole('option', { name: 'Sep 10, 2026 – Oct 5, 2026' }));
    const dialog = await screen.findByRole('dialog', { name: 'Select Custom Date Range' });
    expect(dialog).toHaveTextContent('Duration: 26 days');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('Sep 10, 2026 – Oct 5, 2026');
  });

  it('says so when it has no onChange', () => {
    renderWithProviders(<TimeRangeSelector value={resolveTimeRange('thisMonth', undefined, NOW)} />);
    expect(screen.getByText('TimeRangeSelector: Missing onChange prop')).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('uses the given presets and label', async () => {
    const { user } = renderWithProviders(
      <TimeRangeSelector
        label="Time range"
        value={resolveTimeRange('thisQuarter', undefined, NOW)}
        presets={[
          { value: 'thisMonth', label: 'This Month' },
          { value: 'thisQuarter', label: 'This Quarter' },
        ]}
        onChange={vi.fn()}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Time range' });
    expect(select).toHaveTextContent('This Quarter');
    await user.click(select);
    expect(screen.getAllByRole('option')).toHaveLength(2);
  });
});
