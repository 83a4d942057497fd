/** The chart's colour palettes (spec 1 §9: default, pastel, cool, warm, monochrome). */

export type ChartPaletteName = 'default' | 'pastel' | 'cool' | 'warm' | 'monochrome';

export interface ChartPalette {
  value: ChartPaletteName;
  label: string;
  /** Series colours in order; ECharts starts again from the first after the last. */
  colors: readonly string[];
}

/**
 * Every palette has at least 10 distinct colours, all dark enough to stand out on the chart's
 * white background. Default is ECharts' own series colours (v6), plus a deep red as the tenth.
 * Monochrome alternates dark and light greys so neighbouring series stay apart.
 */
export const CHART_PALETTES: ReadonlyArray<ChartPalette> = [
  {
    value: 'default',
    label: 'Default',
    colors: ['#5070dd', '#b6d634', '#505372', '#ff994d', '#0ca8df', '#ffd10a', '#fb628b', '#785db0', '#3fbe95', '#c23531'],
  },
  {
    value: 'pastel',
    label: 'Pastel',
    colors: ['#7eb0e6', '#f19a9a', '#98cc8f', '#f5bd74', '#b79ad9', '#7fcac6', '#ee9cc6', '#c9bb73', '#95abbd', '#9fd6ef'],
  },
  {
    value: 'cool',
    label: 'Cool',
    colors: ['#1f4e99', '#2bb5a0', '#6a5acd', '#4fa3e0', '#5c9e3a', '#8e6cc9', '#0e8f8f', '#3b5b73', '#00a0c6', '#2f77c9'],
  },
  {
    value: 'warm',
    label: 'Warm',
    colors: ['#e53935', '#fb8c00', '#ad1457', '#f9a825', '#8d4a2f', '#d81b60', '#f4511e', '#c77800', '#b71c1c', '#e57373'],
  },
  {
    value: 'monochrome',
    label: 'Monochrome',
    colors: ['#1a1a1a', '#868686', '#3e3e3e', '#aaaaaa', '#626262', '#bcbcbc', '#2c2c2c', '#989898', '#505050', '#747474'],
  },
];

export const DEFAULT_CHART_PALETTE: ChartPaletteName = 'default';

export function isChartPaletteName(value: unknown): value is ChartPaletteName {
  return CHART_PALETTES.some((palette) => palette.value === value);
}

/** The colours of a palette; the default palette's for a missing or unknown name. */
export function paletteColors(name: ChartPaletteName = DEFAULT_CHART_PALETTE): readonly string[] {
  return (CHART_PALETTES.find((palette) => palette.value === name) ?? CHART_PALETTES[0]).colors;
}
