import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CostChart } from './cost-chart';

const categories = ['2026-11-01', '2026-11-02'];
const series = [
  { name: 'AmazonEC2', values: [10, 20] },
  { name: 'AmazonS3', values: [1, 2] },
];

describe('CostChart onSelect', () => {
  it('names each series as a button in its data table; Enter or a click selects it', async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <CostChart type="bar" categories={categories} series={series} ariaLabel="Chart" onSelect={onSelect} selectLabel={(v) => `Drill into ${v}`} />,
    );
    const table = screen.getByRole('table', { name: 'Chart data' });
    expect(within(table).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['AmazonEC2$30.00', 'AmazonS3$3.00']);
    within(table).getByRole('button', { name: 'Drill into AmazonS3' }).focus();
    await user.keyboard('{Enter}');
    await user.click(within(table).getByRole('button', { name: 'Drill into AmazonEC2' }));
    expect(onSelect.mock.calls).toEqual([['AmazonS3'], ['AmazonEC2']]);
  });

  it('has no buttons without onSelect', () => {
    renderWithProviders(<CostChart type="bar" categories={categories} series={series} ariaLabel="Chart" />);
    expect(within(screen.getByRole('table', { name: 'Chart data' })).queryAllByRole('button')).toEqual([]);
  });
});
