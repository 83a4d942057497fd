import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/api-error';
import { renderWithProviders } from '@/test/render';
import { CostErrorAlert } from './cost-error-alert';
import { NoCostData } from './no-cost-data';
import { WidgetBoundary } from './widget-boundary';

function Broken(): never {
  throw new Error('bad rows');
}

describe('NoCostData', () => {
  it('says there is no data, what to try, and offers Refresh Data and Clear Filters', async () => {
    const onRefresh = vi.fn();
    const onClearFilters = vi.fn();
    const { user } = renderWithProviders(<NoCostData onRefresh={onRefresh} onClearFilters={onClearFilters} />);
    expect(screen.getByText('No cost data available')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Suggestions' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Refresh Data' }));
    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(onRefresh).toHaveBeenCalledTimes(1);
    expect(onClearFilters).toHaveBeenCalledTimes(1);
  });

  it('leaves out the buttons it has no handler for', () => {
    renderWithProviders(<NoCostData />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('CostErrorAlert', () => {
  it('shows the §8 text of the error', () => {
    renderWithProviders(<CostErrorAlert error={new ApiError('Server error occurred', 503)} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Server error occurred');
  });

  it('shows the fallback instead of the generic text', () => {
    renderWithProviders(<CostErrorAlert error={new Error('boom')} fallback="Failed to fetch cost data" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch cost data');
  });

  it('keeps the server text over the fallback', () => {
    renderWithProviders(
      <CostErrorAlert error={new ApiError('end_time must not be before start_time', 400, undefined, 'end_time must not be before start_time')} fallback="Failed to fetch cost data" />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('end_time must not be before start_time');
  });

  it('offers Retry when it can', async () => {
    const onRetry = vi.fn();
    const { user } = renderWithProviders(<CostErrorAlert error={new ApiError('x', 0)} onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Network error - please check your connection');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe('WidgetBoundary', () => {
  it('shows the fallback card naming the widget and keeps the rest of the page', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(
      <>
        <WidgetBoundary component="Spend chart">
          <Broken />
        </WidgetBoundary>
        <p>Other widget</p>
      </>,
    );
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByText('The Spend chart encountered an unexpected error.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByText('Other widget')).toBeInTheDocument();
  });
});
