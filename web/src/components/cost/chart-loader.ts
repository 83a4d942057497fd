// Kept apart from the chart component so that the app shell can start fetching the chart
// library after sign-in without pulling the cost components into its own chunk.

/**
 * ECharts draws on a canvas, which jsdom (Vitest) does not have: there the chart is not drawn and
 * only the summary table below is rendered, so page tests can still read what the chart shows.
 */
export function chartsCanRender(): boolean {
  return typeof window !== 'undefined' && !/jsdom/i.test(window.navigator.userAgent);
}

/**
 * Starts fetching the chart library without drawing anything (the same module `CostChart`
 * imports on first use), so a chart page can draw as soon as its first answer arrives.
 */
export function preloadCostChart(): void {
  if (chartsCanRender()) void import('./echarts-setup');
}
