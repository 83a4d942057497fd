import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { aggr } from '../testing/cost-api';

const dates = Array.from({ length: 12 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
const rows = dates.flatMap((timestamp, i) => [
  { timestamp, service: 'AmazonEC2', amount: 10 + i, grouping_values: ['AmazonEC2'] },
  { timestamp, service: 'BigQuery', amount: 1.5, grouping_values: ['BigQuery'] },
]);
const total = rows.reduce((sum, r) => sum + r.amount, 0); // 186 + 18 = 204

function setup(answerRows = rows) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
  signInAs(makeUser());
  const api = mockApi({ ...appRoutes(), 'POST /v2/cost/aggr': aggr(answerRows, { previous_cost: 200, accrued_change: 11 }) });
  return { ...api, ...renderApp('/cost/analysis') };
}

function dataRows(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.textContent);
}

describe('cost visualisation page', () => {
  it('shows the total with its change, grouped by service per day for this month', async () => {
    const { callsTo } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Cost Analysis' })).toBeInTheDocument();
    const headline = await screen.findByRole('group', { name: 'Total cost' });
    expect(headline).toHaveTextContent('$204.00');
    expect(headline).toHaveTextContent('+11.0% vs previous period ($200.00)');
    expect(headline).toHaveTextContent('Nov 1, 2026 – Nov 23, 2026');
    expect(callsTo('POST', '/v2/cost/aggr')[0].body).toMatchObject({
      start_time: '2026-11-01T00:00:00.000Z',
      end_time: '2026-11-23T23:59:59.999Z',
      group_by_dimensions: ['service'],
      interval: 'daily',
      filters: [],
    });
    const chartData = screen.getByRole('table', { name: 'Cost chart data' });
    expect(dataRows(chartData)).toEqual(['AmazonEC2$186.00', 'BigQuery$18.00']);
  });

  it('switches the chart type', async () => {
    const { user } = setup();
    const switcher = await screen.findByRole('group', { name: 'Chart type' });
    expect(within(switcher).getAllByRole('button').map((b) => b.textContent)).toEqual(['Line', 'Area', 'Bar', 'Pie']);
    expect(within(switcher).getByRole('button', { name: 'Line' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(switcher).getByRole('button', { name: 'Pie' }));
    expect(within(switcher).getByRole('button', { name: 'Pie' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('cost-chart')).toHaveAttribute('data-chart-type', 'pie');
  });

  it('offers five palettes next to the chart type and keeps the choice after a remount', async () => {
    const { user, unmount } = setup();
    const select = await screen.findByRole('combobox', { name: 'Palette' });
    expect(select).toHaveTextContent('Default');
    expect(screen.getByTestId('cost-chart')).toHaveAttribute('data-palette', 'default');
    await user.click(select);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Default', 'Pastel', 'Cool', 'Warm', 'Monochrome']);
    await user.click(screen.getByRole('option', { name: 'Warm' }));
    expect(screen.getByRole('combobox', { name: 'Palette' })).toHaveTextContent('Warm');
    expect(screen.getByTestId('cost-chart')).toHaveAttribute('data-palette', 'warm');
    expect(JSON.parse(localStorage.getItem('cost_visualisation_palette')!)).toBe('warm');

    unmount();
    renderApp('/cost/analysis');
    expect(await screen.findByRole('combobox', { name: 'Palette' })).toHaveTextContent('Warm');
    expect(screen.getByTestId('cost-chart')).toHaveAttribute('data-palette', 'warm');
  });

  it('falls back to the default palette when the stored one is unknown', async () => {
    localStorage.setItem('cost_visualisation_palette', JSON.stringify('neon'));
    setup();
    expect(await screen.findByRole('combobox', { name: 'Palette' })).toHaveTextContent('Default');
    expect(screen.getByTestId('cost-chart')).toHaveAttribute('data-palette', 'default');
  });

  it('pages the date table 10 rows at a time, with 5, 10, 25 or 50 per page', async () => {
    const { user } = setup();
    const table = await screen.findByRole('table', { name: 'Cost by date' });
    expect(dataRows(table)).toHaveLength(10);
    expect(dataRows(table)[0]).toBe('Nov 1, 2026$11.50');
    expect(screen.getByText('1–10 of 12')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(dataRows(table)).toEqual(['Nov 11, 2026$21.50', 'Nov 12, 2026$22.50']);

    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['5', '10', '25', '50']);
    await user.click(screen.getByRole('option', { name: '5' }));
    expect(dataRows(table)).toHaveLength(5);
    expect(screen.getByText('1–5 of 12')).toBeInTheDocument();
  });

  it('expands a date row to the amount of each service', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Expand Nov 3, 2026' }));
    const groups = screen.getByRole('table', { name: 'Nov 3, 2026 by service' });
    expect(within(groups).getAllByRole('row').map((r) => r.textContent)).toEqual(['ServiceAmount', 'AmazonEC2$12.00', 'BigQuery$1.50']);
    await user.click(screen.getByRole('button', { name: 'Collapse Nov 3, 2026' }));
    expect(screen.queryByRole('table', { name: 'Nov 3, 2026 by service' })).not.toBeInTheDocument();
  });

  it('offers Daily, Weekly, Monthly and Cumulative, and asks for weekly buckets or running totals', async () => {
    const { user, callsTo } = setup();
    await user.click(await screen.findByRole('combobox', { name: 'Aggregation' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Daily', 'Weekly', 'Monthly', 'Cumulative']);
    await user.click(screen.getByRole('option', { name: 'Weekly' }));
    await waitFor(() => expect(callsTo('POST', '/v2/cost/aggr').at(-1)?.body).toMatchObject({ interval: 'weekly' }));
    await user.click(screen.getByRole('combobox', { name: 'Aggregation' }));
    await user.click(screen.getByRole('option', { name: 'Cumulative' }));
    await waitFor(() => expect(callsTo('POST', '/v2/cost/aggr').at(-1)?.body).toMatchObject({ view_type: 'cumulative', interval: 'daily' }));
  });

  it('draws at most 10000 data items and says how many groups the chart leaves out', async () => {
    const many = dates.flatMap((timestamp) => Array.from({ length: 840 }, (_, g) => ({ timestamp, service: `Service ${g}`, amount: 1000 - g, grouping_values: [`Service ${g}`] })));
    setup(many);
    expect(await screen.findByText(/The chart shows the 833 largest groups; 7 more are left out to stay within 10,000 data points\./)).toBeInTheDocument();
    const chartData = screen.getByRole('table', { name: 'Cost chart data' });
    expect(within(chartData).getAllByRole('row')).toHaveLength(834);
  });

  it('exports cost-data-{date}.csv with a line per date and service', async () => {
    const { user } = setup();
    let saved: Blob | undefined;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => ((saved = blob), 'blob:cost')), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('cost-data-2026-11-23.csv');
    });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(click).toHaveBeenCalledTimes(1);
    const lines = (await saved!.text()).trim().split('\n');
    expect(lines[0]).toBe('Date,Service,Amount');
    expect(lines[1]).toBe('2026-11-01,AmazonEC2,10');
    expect(lines).toHaveLength(25);
    expect(lines.slice(1).reduce((sum, line) => sum + Number(line.split(',')[2]), 0)).toBe(total);
  });

  it('says so when the export fails', async () => {
    const { user } = setup();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => { throw new Error('no blobs'); }) }));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to export CSV file. Please try again or contact support if the issue persists.');
  });
});
