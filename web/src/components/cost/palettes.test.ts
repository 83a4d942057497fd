import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import { buildChartOption } from './chart-option';
import { CHART_PALETTES, isChartPaletteName, paletteColors } from './palettes';

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const distance = (a: string, b: string) => Math.hypot(...rgb(a).map((v, i) => v - rgb(b)[i]));
/** WCAG relative luminance, for the contrast of a colour against the white chart background. */
const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrastOnWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

/** The series colours ECharts picks when an option names none. */
function echartsDefaultColors(): string[] {
  echarts.use([SVGRenderer]);
  const chart = echarts.init(null, undefined, { renderer: 'svg', ssr: true, width: 100, height: 100 });
  chart.setOption({ series: [] });
  const colors = (chart.getOption() as { color: string[] }).color;
  chart.dispose();
  return colors;
}

describe('chart palettes', () => {
  it('are Default, Pastel, Cool, Warm and Monochrome (§9)', () => {
    expect(CHART_PALETTES.map((p) => [p.value, p.label])).toEqual([
      ['default', 'Default'],
      ['pastel', 'Pastel'],
      ['cool', 'Cool'],
      ['warm', 'Warm'],
      ['monochrome', 'Monochrome'],
    ]);
  });

  it.each(CHART_PALETTES.map((p) => [p.label, p.colors] as const))('%s has at least 10 distinct colours that show on white', (_, colors) => {
    expect(colors.length).toBeGreaterThanOrEqual(10);
    for (const color of colors) {
      expect(color).toMatch(/^#[0-9a-f]{6}$/);
      expect(contrastOnWhite(color)).toBeGreaterThan(1.4);
    }
    for (const [i, a] of colors.entries()) {
      for (const b of colors.slice(i + 1)) expect(distance(a, b), `${a} vs ${b}`).toBeGreaterThan(30);
    }
  });

  it('starts the default palette with the colours ECharts draws series in when told none', () => {
    const builtIn = echartsDefaultColors();
    expect(builtIn.length).toBeGreaterThan(0);
    expect(paletteColors('default').slice(0, builtIn.length)).toEqual(builtIn.map((c) => c.toLowerCase()));
  });

  it('knows its names, and falls back to the default colours', () => {
    expect(isChartPaletteName('warm')).toBe(true);
    expect(isChartPaletteName('neon')).toBe(false);
    expect(isChartPaletteName(null)).toBe(false);
    expect(paletteColors()).toBe(CHART_PALETTES[0].colors);
  });
});

describe('buildChartOption colours', () => {
  const categories = ['2026-11-01', '2026-11-02'];
  const series = [
    { name: 'AmazonEC2', values: [10, 20] },
    { name: 'BigQuery', values: [1, 2] },
  ];

  it('colours the series with the chosen palette', () => {
    for (const palette of CHART_PALETTES) {
      for (const type of ['line', 'area', 'bar', 'pie'] as const) {
        expect(buildChartOption({ type, categories, series, palette: palette.value }).color).toEqual(palette.colors);
      }
    }
  });

  it('uses the default palette when none is chosen', () => {
    expect(buildChartOption({ type: 'bar', categories, series }).color).toEqual(paletteColors('default'));
    expect(buildChartOption({ type: 'bar', categories, series }).color).not.toEqual(paletteColors('warm'));
  });
});
