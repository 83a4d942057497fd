import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RESIZE_DEBOUNCE_MS, chartHeightFor, useResponsiveChartHeight } from './chart-height';

describe('chartHeightFor', () => {
  it('is 300, 350 or 400 px for widths under 768, under 1024 and otherwise', () => {
    expect(chartHeightFor(375)).toBe(300);
    expect(chartHeightFor(767)).toBe(300);
    expect(chartHeightFor(768)).toBe(350);
    expect(chartHeightFor(1023)).toBe(350);
    expect(chartHeightFor(1024)).toBe(400);
    expect(chartHeightFor(1920)).toBe(400);
  });
});

function HeightProbe() {
  return <div data-testid="height">{useResponsiveChartHeight()}</div>;
}

describe('useResponsiveChartHeight', () => {
  it('follows the window width 150 ms after the last resize', () => {
    vi.useFakeTimers();
    vi.stubGlobal('innerWidth', 1280);
    render(<HeightProbe />);
    expect(screen.getByTestId('height')).toHaveTextContent('400');

    vi.stubGlobal('innerWidth', 900);
    act(() => {
      window.dispatchEvent(new Event('resize'));
      vi.advanceTimersByTime(RESIZE_DEBOUNCE_MS - 1);
    });
    expect(screen.getByTestId('height')).toHaveTextContent('400');
    vi.stubGlobal('innerWidth', 600);
    act(() => {
      window.dispatchEvent(new Event('resize'));
      vi.advanceTimersByTime(RESIZE_DEBOUNCE_MS - 1);
    });
    expect(screen.getByTestId('height')).toHaveTextContent('400');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByTestId('height')).toHaveTextContent('300');
  });
});
