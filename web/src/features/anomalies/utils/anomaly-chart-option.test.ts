import { makeSeries } from '../testing/make-anomaly';
import { ACTUAL_SERIES, ANOMALOUS_SERIES, BAND_SERIES, EXPECTED_SERIES, buildAnomalyChartOption, tooltipLines } from './anomaly-chart-option';

interface Series {
  name: string;
  data: Array<number | null>;
  stack?: string;
  areaStyle?: unknown;
  lineStyle?: { type?: string; opacity?: number };
}

const points = makeSeries('2026-11-01', 6, { anomalous: [4], young: 2 });
const option = buildAnomalyChartOption(points, 'EUR') as { series: Series[]; xAxis: { data: string[] }; legend: { data: string[] } };
const byName = (name: string) => option.series.find((series) => series.name === name)!;

describe('anomaly chart option', () => {
  it('has a category per day', () => {
    expect(option.xAxis.data).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06']);
    expect(option.legend.data).toEqual([ACTUAL_SERIES, EXPECTED_SERIES, BAND_SERIES, ANOMALOUS_SERIES]);
  });

  it('shades the band from low to high: an invisible low base with high − low stacked on it', () => {
    const [base, band] = option.series;
    expect(base.stack).toBe('band');
    expect(base.lineStyle?.opacity).toBe(0);
    expect(base.areaStyle).toBeUndefined();
    expect(base.data).toEqual([null, null, 900, 900, 900, 900]);
    expect(band.name).toBe(BAND_SERIES);
    expect(band.stack).toBe('band');
    expect(band.areaStyle).toBeDefined();
    expect(band.data).toEqual([null, null, 200, 200, 200, 200]);
  });

  it('draws the expected cost dashed, with gaps while the series is young', () => {
    expect(byName(EXPECTED_SERIES).lineStyle?.type).toBe('dashed');
    expect(byName(EXPECTED_SERIES).data).toEqual([null, null, 1_000, 1_000, 1_000, 1_000]);
  });

  it('draws the actual cost and marks only the anomalous days', () => {
    expect(byName(ACTUAL_SERIES).data).toEqual([1_000, 1_000, 1_000, 1_000, 1_500, 1_000]);
    expect(byName(ANOMALOUS_SERIES).data).toEqual([null, null, null, null, 1_500, null]);
    expect(byName(ANOMALOUS_SERIES).lineStyle?.opacity).toBe(0);
  });

  it('tells a day in its tooltip in the anomaly\'s currency', () => {
    expect(tooltipLines(points[4], 'EUR')).toEqual(['Nov 5, 2026', 'Actual: €1,500.00', 'Expected: €1,000.00', 'Expected range: €900.00 – €1,100.00', 'Anomalous day']);
    expect(tooltipLines(points[0], 'EUR')).toEqual(['Nov 1, 2026', 'Actual: €1,000.00']);
  });
});
