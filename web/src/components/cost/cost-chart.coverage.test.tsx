import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CostChart } from './cost-chart';

// A browser with a canvas whose chart chunk cannot be fetched (e.g. the network dropped).
vi.mock('./chart-loader', () => ({ chartsCanRender: () => true, preloadCostChart: () => undefined }));
vi.mock('./echarts-setup', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('CostChart when its library cannot be loaded', () => {
  it('says "An error occurred while loading the chart" and keeps the data table', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(<CostChart type="line" categories={['2026-11-01']} series={[{ name: 'AmazonEC2', values: [12] }]} ariaLabel="Spend" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occurred while loading the chart');
    expect(screen.getByRole('table', { name: 'Spend data' })).toHaveTextContent('AmazonEC2$12.00');
  });
});
