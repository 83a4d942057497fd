import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { BudgetSpendingSection } from './budget-spending-section';
import {
  captureDownloads,
  makeBudget,
  makeHistory,
  makeResourcesPage,
  stubBudgetApi,
  type Reply,
} from './test-helpers';

const fake = await vi.hoisted(async () => (await import('./test-helpers')).createFakeEcharts());
vi.mock('./spending-echarts', () => ({ echarts: fake.echarts }));
// The real loader says "no canvas" in jsdom; these tests draw through the fake instead, so that
// clicks on points and the image export can be exercised.
vi.mock('@/components/cost/chart-loader', () => ({ chartsCanRender: () => true }));

const HISTORY = '/v1/budgets/7/history';
const RESOURCES = '/v1/budgets/7/resources';

/** $10 a day, $0 on Sundays. */
const spendOf = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() === 0 ? 0 : 10);

function historyRoute(url: URL): Reply {
  const start = url.searchParams.get('startDate') ?? '';
  const end = url.searchParams.get('endDate') ?? '';
  return { body: makeHistory(start, end < '2026-11-23' ? end : '2026-11-23', spendOf) };
}

function resourcesRoute(totalCount = 118) {
  return (url: URL): Reply => {
    const page = Number(url.searchParams.get('page'));
    const size = Number(url.searchParams.get('size'));
    return { body: makeResourcesPage(page, size, totalCount) };
  };
}

function setup(routes: Record<string, (url: URL) => Reply | Promise<Reply>> = {}, budget = makeBudget()) {
  const api = stubBudgetApi({ [HISTORY]: historyRoute, [RESOURCES]: resourcesRoute(), ...routes });
  const rendered = renderWithProviders(<BudgetSpendingSection budget={budget} />);
  return { ...api, ...rendered };
}

const trendPanel = () => screen.getByRole('region', { name: 'Spending Trend' });
const resourcesPanel = () => screen.getByRole('region', { name: 'Resources' });
const chartRows = async () => within(await screen.findByRole('table', { name: 'Spending trend chart data' })).getAllByRole('row').slice(1);
const lastQuery = (queries: Array<Record<string, string>>) => queries[queries.length - 1];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
  fake.instance.setOption.mockClear();
});

describe('Spending Trend panel', () => {
  it('loads the last 90 days and draws the cumulative spend with the budget line', async () => {
    const { queriesTo } = setup();
    expect(within(trendPanel()).getByText('Loading chart...')).toBeInTheDocument();
    const rows = await chartRows();
    expect(queriesTo(HISTORY)[0]).toEqual({ startDate: '2026-08-26', endDate: '2026-11-23' });
    expect(rows).toHaveLength(90);
    // November restarts the running total: Sun 1 = $0 … Mon 23 = 19 days other than Sunday × $10.
    expect(rows[66].textContent).toBe('Oct 31, 2026$270$3,000');
    expect(rows[67].textContent).toBe('Nov 1, 2026$0$3,000');
    expect(rows[89].textContent).toBe('Nov 23, 2026$190$3,000');
    expect(within(trendPanel()).getByRole('combobox', { name: 'Date Range' })).toHaveTextContent('Last 90 Days');
    expect(within(trendPanel()).getByRole('button', { name: 'Cumulative' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('draws alert triangles, the dashed budget line and the current-period band on the chart', async () => {
    setup({}, makeBudget({ amount: 300, alerts: [{ thresholdType: 'Percentage', thresholdValue: 50, basis: 'Actual' }] }));
    await waitFor(() => expect(fake.instance.setOption).toHaveBeenCalled());
    const option = fake.instance.setOption.mock.calls.at(-1)?.[0] as { series: Array<Record<string, unknown>> };
    expect(option.series[1]).toMatchObject({ name: 'Budget', lineStyle: { type: 'dashed' } });
    // $150 (50% of $300) is reached on the 15th day other than Sunday of each month; the 5
    // such days of August reach only $50.
    expect(option.series[0].markPoint).toMatchObject({
      symbol: 'triangle',
      data: [
        { name: '50%', coord: ['2026-09-17', 150] },
        { name: '50%', coord: ['2026-10-17', 150] },
        { name: '50%', coord: ['2026-11-18', 150] },
      ],
    });
    expect(option.series[0].markArea).toMatchObject({ data: [[{ xAxis: '2026-11-01' }, { xAxis: '2026-11-23' }]] });
  });

  it("continues the cumulative spend with the budget's forecast as a dashed line to the period's end", async () => {
    setup({}, makeBudget({ forecast: { amount: 260, low: 240, high: 280, exceedsOn: null, exceedsOnForecast: false } }));
    await waitFor(() => expect(fake.instance.setOption).toHaveBeenCalled());
    const option = fake.instance.setOption.mock.calls.at(-1)?.[0] as {
      series: Array<Record<string, unknown> & { data: unknown[] }>;
      xAxis: { data: string[] };
    };
    expect(option.xAxis.data.at(-1)).toBe('2026-11-30');
    expect(option.xAxis.data).toHaveLength(97);
    const forecast = option.series.find((series) => series.name === 'Forecast');
    expect(forecast).toMatchObject({ lineStyle: { type: 'dashed' }, connectNulls: true });
    // From Nov 23's running total ($190) to the forecast total on Nov 30.
    expect(forecast?.data[89]).toBe(190);
    expect(forecast?.data[96]).toBe(260);
  });

  it('switches to weekly buckets that start on Sunday and are clipped to the month', async () => {
    const { user } = setup();
    await chartRows();
    await user.click(within(trendPanel()).getByRole('button', { name: 'Weekly' }));
    const rows = await chartRows();
    expect(rows[0].textContent).toBe('Aug 26, 2026 – Aug 29, 2026$40$693');
    expect(rows[1].textContent).toBe('Aug 30, 2026 – Aug 31, 2026$10$693');
    expect(rows[2].textContent).toBe('Sep 1, 2026 – Sep 5, 2026$50$693');
    expect(rows.at(-1)?.textContent).toBe('Nov 22, 2026 – Nov 23, 2026$10$693');
  });

  it('groups calendar months for Monthly and days for Daily', async () => {
    const { user } = setup();
    await chartRows();
    await user.click(within(trendPanel()).getByRole('button', { name: 'Monthly' }));
    expect((await chartRows()).map((row) => row.textContent)).toEqual([
      'Aug 26, 2026 – Aug 31, 2026$50$3,000',
      'Sep 1, 2026 – Sep 30, 2026$260$3,000',
      'Oct 1, 2026 – Oct 31, 2026$270$3,000',
      'Nov 1, 2026 – Nov 23, 2026$190$3,000',
    ]);
    await user.click(within(trendPanel()).getByRole('button', { name: 'Daily' }));
    const rows = await chartRows();
    expect(rows.at(-1)?.textContent).toBe('Nov 23, 2026$10$100');
  });

  it('changes the chart type', async () => {
    const { user } = setup();
    await chartRows();
    await user.click(within(trendPanel()).getByRole('button', { name: 'Bar chart' }));
    expect(screen.getByTestId('spending-chart')).toHaveAttribute('data-chart-type', 'bar');
    await user.click(within(trendPanel()).getByRole('button', { name: 'Area chart' }));
    expect(screen.getByTestId('spending-chart')).toHaveAttribute('data-chart-type', 'area');
  });

  it('reloads the history for a quick range', async () => {
    const { user, queriesTo } = setup();
    await chartRows();
    await user.click(within(trendPanel()).getByRole('combobox', { name: 'Date Range' }));
    await user.click(await screen.findByRole('option', { name: 'This Quarter' }));
    await waitFor(() => expect(lastQuery(queriesTo(HISTORY))).toEqual({ startDate: '2026-10-01', endDate: '2026-11-23' }));
    expect(await chartRows()).toHaveLength(54);
  });

  it('checks a custom range with the §5 messages before loading it', async () => {
    const { user, queriesTo } = setup();
    await chartRows();
    await user.click(within(trendPanel()).getByRole('combobox', { name: 'Date Range' }));
    await user.click(await screen.findByRole('option', { name: 'Custom' }));
    const start = within(trendPanel()).getByLabelText('Start Date');
    const end = within(trendPanel()).getByLabelText('End Date');
    const apply = within(trendPanel()).getByRole('button', { name: 'Apply' });

    await user.clear(start);
    await user.click(apply);
    expect(within(trendPanel()).getByText('Both start and end dates are required')).toBeInTheDocument();

    await user.type(start, '2026-11-10');
    await user.clear(end);
    await user.type(end, '2026-11-05');
    await user.click(apply);
    expect(within(trendPanel()).getByText('Start date cannot be after end date')).toBeInTheDocument();

    await user.clear(start);
    await user.type(start, '2026-11-24');
    await user.clear(end);
    await user.type(end, '2026-11-30');
    await user.click(apply);
    expect(within(trendPanel()).getByText('Start date cannot be in the future')).toBeInTheDocument();

    await user.clear(start);
    await user.type(start, '2024-01-01');
    await user.click(apply);
    expect(within(trendPanel()).getByText('Date range cannot exceed 2 years')).toBeInTheDocument();
    expect(queriesTo(HISTORY)).toHaveLength(1);

    await user.clear(start);
    await user.type(start, '2026-11-01');
    await user.clear(end);
    await user.type(end, '2026-11-07');
    await user.click(apply);
    await waitFor(() => expect(lastQuery(queriesTo(HISTORY))).toEqual({ startDate: '2026-11-01', endDate: '2026-11-07' }));
    expect(within(trendPanel()).queryByRole('alert')).not.toBeInTheDocument();
    expect(await chartRows()).toHaveLength(7);
  });

  it('shows No Data Available when the period has no spend', async () => {
    setup({ [HISTORY]: (url) => ({ body: makeHistory(url.searchParams.get('startDate') ?? '', '2026-11-23', () => 0) }) });
    expect(await within(trendPanel()).findByText('No Data Available')).toBeInTheDocument();
    expect(within(trendPanel()).getByText('No spending data found for the selected period.')).toBeInTheDocument();
    expect(within(trendPanel()).getByRole('button', { name: 'Download' })).toBeDisabled();
  });

  it('tells when the spending data cannot be loaded', async () => {
    setup({ [HISTORY]: () => ({ status: 500, body: { message: 'boom' } }) });
    expect(await within(trendPanel()).findByText('Failed to load spending data. Please try again later.')).toBeInTheDocument();
  });

  it("shows the server's message when it refuses the range", async () => {
    setup({ [HISTORY]: () => ({ status: 422, body: { message: 'Start date cannot be in the future', details: { startDate: ['Start date cannot be in the future'] } } }) });
    expect(await within(trendPanel()).findByText('Start date cannot be in the future')).toBeInTheDocument();
  });

  it('downloads the points as CSV with a byte order mark, named with date, budget and resolution', async () => {
    const { user } = setup();
    await chartRows();
    await user.click(within(trendPanel()).getByRole('button', { name: 'Daily' }));
    await chartRows();
    const downloads = captureDownloads();
    await user.click(within(trendPanel()).getByRole('button', { name: 'Download' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Download as CSV' }));
    expect(downloads.saved.map((file) => file.name)).toEqual(['budget-spending-2026-11-23-Production-AWS-daily.csv']);
    const csv = await downloads.blobText(0);
    expect(csv.startsWith('\uFEFFDate,Spending,Budget\n2026-08-26,10,100\n')).toBe(true);
    expect(csv.trimEnd().split('\n')).toHaveLength(91);
  });

  it('downloads the chart as a PNG at pixel ratio 2', async () => {
    const { user } = setup();
    await chartRows();
    await waitFor(() => expect(fake.instance.setOption).toHaveBeenCalled());
    const downloads = captureDownloads();
    await user.click(within(trendPanel()).getByRole('button', { name: 'Download' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Download as Image' }));
    expect(downloads.saved).toEqual([{ name: 'budget-spending-2026-11-23-Production-AWS-cumulative.png', href: 'data:image/png;base64,iVBORw0KGgo=' }]);
    expect(fake.instance.getDataURL).toHaveBeenCalledWith(expect.objectContaining({ pixelRatio: 2 }));
  });
});

describe('clicking a point', () => {
  it('loads the resources of that day and can be cleared', async () => {
    const { queriesTo } = setup();
    await chartRows();
    await waitFor(() => expect(fake.instance.setOption).toHaveBeenCalled());
    expect(lastQuery(queriesTo(RESOURCES))).toEqual({ startDate: '2026-08-26', endDate: '2026-11-23', page: '1', size: '10' });

    act(() => fake.clickPoint(70)); // 2026-11-04
    await waitFor(() => expect(lastQuery(queriesTo(RESOURCES))).toMatchObject({ startDate: '2026-11-04', endDate: '2026-11-04', page: '1' }));
    expect(within(trendPanel()).getByRole('status')).toHaveTextContent('Resources for Nov 4, 2026');
    expect(within(resourcesPanel()).getByText('Nov 4, 2026')).toBeInTheDocument();

    await act(async () => within(trendPanel()).getByRole('button', { name: 'Clear selected date' }).click());
    // Back to the whole range (its page 1 comes from the cache).
    expect(await within(resourcesPanel()).findByText('Aug 26, 2026 – Nov 23, 2026')).toBeInTheDocument();
    expect(within(trendPanel()).queryByText(/Resources for/)).not.toBeInTheDocument();
  });

  it("loads a week's or a month's days for a weekly or monthly point", async () => {
    const { user, queriesTo } = setup();
    await chartRows();
    await user.click(within(trendPanel()).getByRole('button', { name: 'Weekly' }));
    await chartRows();
    act(() => fake.clickPoint(1));
    await waitFor(() => expect(lastQuery(queriesTo(RESOURCES))).toMatchObject({ startDate: '2026-08-30', endDate: '2026-08-31' }));
    expect(within(trendPanel()).getByRole('status')).toHaveTextContent('Resources for Aug 30, 2026 – Aug 31, 2026');

    await user.click(within(trendPanel()).getByRole('button', { name: 'Monthly' }));
    // A new data type forgets the clicked week.
    expect(await within(resourcesPanel()).findByText('Aug 26, 2026 – Nov 23, 2026')).toBeInTheDocument();
    expect(within(trendPanel()).queryByText(/Resources for/)).not.toBeInTheDocument();
    await chartRows();
    act(() => fake.clickPoint(2));
    await waitFor(() => expect(lastQuery(queriesTo(RESOURCES))).toMatchObject({ startDate: '2026-10-01', endDate: '2026-10-31' }));
  });
});

describe('Resources table', () => {
  const table = () => within(resourcesPanel()).getByRole('table', { name: 'Budget resources' });

  it('lists the first 10 resources of the range with the columns, the count and the pages', async () => {
    setup();
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(11));
    const [header, first] = within(table()).getAllByRole('row');
    expect(within(header).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Cloud Provider',
      'Account',
      'Resource Name',
      'Type',
      'Region',
      'Cost',
    ]);
    expect(within(first).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'AWS',
      'Production (123456789012)',
      'i-0000',
      'Amazon Elastic Compute Cloud',
      'us-east-1',
      '$1,000',
    ]);
    expect(resourcesPanel()).toHaveAttribute('id', 'budget-resources');
    expect(within(resourcesPanel()).getByText('Showing 1 to 10 of 118 entries')).toBeInTheDocument();
    expect(within(resourcesPanel()).getByText('Page 1 of 12')).toBeInTheDocument();
    expect(within(resourcesPanel()).getByRole('combobox', { name: 'Entries per page' })).toHaveTextContent('10');
  });

  it('pages with first, previous, five numbered buttons, next and last', async () => {
    const { user, queriesTo } = setup();
    await within(resourcesPanel()).findByText('Showing 1 to 10 of 118 entries');
    const pages = () => within(resourcesPanel()).getByRole('navigation', { name: 'Resources pages' });
    const numbered = () => within(pages()).getAllByRole('button', { name: /^Page \d+$/ }).map((button) => button.textContent);
    expect(numbered()).toEqual(['1', '2', '3', '4', '5']);
    expect(within(pages()).getByRole('button', { name: 'First page' })).toBeDisabled();
    expect(within(pages()).getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(within(pages()).getByRole('button', { name: 'Page 4' }));
    expect(await within(resourcesPanel()).findByText('Showing 31 to 40 of 118 entries')).toBeInTheDocument();
    expect(numbered()).toEqual(['2', '3', '4', '5', '6']);
    expect(within(pages()).getByRole('button', { name: 'Page 4' })).toHaveAttribute('aria-current', 'page');

    await user.click(within(pages()).getByRole('button', { name: 'Next page' }));
    expect(await within(resourcesPanel()).findByText('Page 5 of 12')).toBeInTheDocument();
    await user.click(within(pages()).getByRole('button', { name: 'Last page' }));
    expect(await within(resourcesPanel()).findByText('Showing 111 to 118 of 118 entries')).toBeInTheDocument();
    expect(numbered()).toEqual(['8', '9', '10', '11', '12']);
    expect(within(pages()).getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.click(within(pages()).getByRole('button', { name: 'Previous page' }));
    expect(await within(resourcesPanel()).findByText('Page 11 of 12')).toBeInTheDocument();
    await user.click(within(pages()).getByRole('button', { name: 'First page' }));
    expect(await within(resourcesPanel()).findByText('Page 1 of 12')).toBeInTheDocument();
    // Page 1 was already fetched, so it comes from the cache.
    expect(queriesTo(RESOURCES).map((query) => query.page)).toEqual(['1', '4', '5', '12', '11']);
  });

  it('goes back to page 1 when the page size, the range or the data type changes', async () => {
    const { user, queriesTo } = setup();
    await within(resourcesPanel()).findByText('Page 1 of 12');
    await user.click(within(resourcesPanel()).getByRole('button', { name: 'Page 3' }));
    await within(resourcesPanel()).findByText('Page 3 of 12');

    expect(within(resourcesPanel()).getByText('Show:')).toBeInTheDocument();
    expect(within(resourcesPanel()).getByText('entries')).toBeInTheDocument();
    await user.click(within(resourcesPanel()).getByRole('combobox', { name: 'Entries per page' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['10', '25', '50', '100', '200', '500']);
    await user.click(screen.getByRole('option', { name: '25' }));
    expect(await within(resourcesPanel()).findByText('Showing 1 to 25 of 118 entries')).toBeInTheDocument();
    expect(lastQuery(queriesTo(RESOURCES))).toMatchObject({ page: '1', size: '25' });

    await user.click(within(resourcesPanel()).getByRole('button', { name: 'Page 2' }));
    await within(resourcesPanel()).findByText('Page 2 of 5');
    await user.click(within(trendPanel()).getByRole('button', { name: 'Daily' }));
    expect(await within(resourcesPanel()).findByText('Page 1 of 5')).toBeInTheDocument();

    await user.click(within(resourcesPanel()).getByRole('button', { name: 'Page 2' }));
    await within(resourcesPanel()).findByText('Page 2 of 5');
    await user.click(within(trendPanel()).getByRole('combobox', { name: 'Date Range' }));
    await user.click(await screen.findByRole('option', { name: 'Last 7 Days' }));
    await waitFor(() => expect(lastQuery(queriesTo(RESOURCES))).toEqual({ startDate: '2026-11-17', endDate: '2026-11-23', page: '1', size: '25' }));
  });

  it('starts again from the defaults for another budget', async () => {
    const { user, queriesTo, rerender } = setup({ '/v1/budgets/8/history': historyRoute, '/v1/budgets/8/resources': resourcesRoute() });
    await within(resourcesPanel()).findByText('Page 1 of 12');
    await user.click(within(resourcesPanel()).getByRole('button', { name: 'Page 2' }));
    await within(resourcesPanel()).findByText('Page 2 of 12');
    rerender(<BudgetSpendingSection budget={makeBudget({ id: 8, name: 'Staging' })} />);
    await waitFor(() => expect(lastQuery(queriesTo('/v1/budgets/8/resources'))).toMatchObject({ page: '1', size: '10' }));
  });

  it('says no resources were found when nothing was spent', async () => {
    setup({ [RESOURCES]: () => ({ body: makeResourcesPage(1, 10, 0, 0) }) });
    expect(await within(resourcesPanel()).findByText('No resources found for the selected period')).toBeInTheDocument();
    expect(within(resourcesPanel()).getByText('Total cost: $0')).toBeInTheDocument();
    expect(within(resourcesPanel()).getByText('Showing 0 to 0 of 0 entries')).toBeInTheDocument();
    expect(within(resourcesPanel()).getByText('Page 1 of 1')).toBeInTheDocument();
  });

  it('says there is no breakdown, with the total, when the spend belongs to no resource', async () => {
    setup({ [RESOURCES]: () => ({ body: makeResourcesPage(1, 10, 0, 42.6) }) });
    expect(await within(resourcesPanel()).findByText('No detailed resource breakdown available for this period.')).toBeInTheDocument();
    expect(within(resourcesPanel()).getByText('Total cost: $43')).toBeInTheDocument();
  });

  it("shows the server's message when the resources cannot be fetched, else 'Failed to fetch resources'", async () => {
    setup({ [RESOURCES]: () => ({ status: 422, body: { message: 'Start date cannot be in the future' } }) });
    expect(await within(resourcesPanel()).findByText('Start date cannot be in the future')).toBeInTheDocument();
  });

  it("falls back to 'Failed to fetch resources'", async () => {
    setup({ [RESOURCES]: () => ({ status: 502 }) });
    expect(await within(resourcesPanel()).findByText('Failed to fetch resources')).toBeInTheDocument();
  });
});

describe('Resources export', () => {
  it('exports the current page as CSV', async () => {
    const { user } = setup();
    await within(resourcesPanel()).findByText('Showing 1 to 10 of 118 entries');
    const downloads = captureDownloads();
    await user.click(within(resourcesPanel()).getByRole('button', { name: 'Current Page' }));
    expect(downloads.saved.map((file) => file.name)).toEqual([
      'budget-resources-2026-11-23-Production-AWS-2026-08-26-to-2026-11-23-page-1.csv',
    ]);
    const lines = (await downloads.blobText(0)).trimEnd().split('\n');
    expect(lines[0]).toBe('\uFEFFCloud Provider,Account,Resource Name,Type,Region,Cost');
    expect(lines[1]).toBe('AWS,Production (123456789012),i-0000,Amazon Elastic Compute Cloud,us-east-1,1000');
    expect(lines).toHaveLength(11);
  });

  it("tells when the page's CSV cannot be made", async () => {
    const { user } = setup();
    await within(resourcesPanel()).findByText('Showing 1 to 10 of 118 entries');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => { throw new Error('blocked'); }) }));
    await user.click(within(resourcesPanel()).getByRole('button', { name: 'Current Page' }));
    expect(within(resourcesPanel()).getByText('Failed to export resources to CSV')).toBeInTheDocument();
  });

  it('exports every row in pages of 1000 with a percent progress that resets a second after 100', async () => {
    let release: () => void = () => undefined;
    const secondPage = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { user, queriesTo } = setup({
      [RESOURCES]: async (url) => {
        const page = Number(url.searchParams.get('page'));
        const size = Number(url.searchParams.get('size'));
        if (size === 1000 && page === 2) await secondPage;
        return { body: makeResourcesPage(page, size, 2500) };
      },
    });
    await within(resourcesPanel()).findByText('Showing 1 to 10 of 2500 entries');
    const downloads = captureDownloads();
    const exportAll = within(resourcesPanel()).getByRole('button', { name: 'All (2500)' });
    await user.click(exportAll);

    expect(await within(resourcesPanel()).findByText('Exporting… 33%')).toBeInTheDocument();
    expect(exportAll).toBeDisabled();
    expect(within(resourcesPanel()).getByRole('button', { name: 'Current Page' })).toBeDisabled();
    release();
    expect(await within(resourcesPanel()).findByText('Exporting… 100%')).toBeInTheDocument();
    expect(queriesTo(RESOURCES).filter((query) => query.size === '1000').map((query) => query.page)).toEqual(['1', '2', '3']);
    expect(downloads.saved.map((file) => file.name)).toEqual(['budget-resources-2026-11-23-Production-AWS-2026-08-26-to-2026-11-23-all.csv']);
    expect((await downloads.blobText(0)).trimEnd().split('\n')).toHaveLength(2501);

    await waitFor(() => expect(within(resourcesPanel()).queryByText(/Exporting…/)).not.toBeInTheDocument(), { timeout: 3000 });
    expect(exportAll).toBeEnabled();
  });

  it('tells why exporting everything failed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = setup({
      [RESOURCES]: (url) =>
        url.searchParams.get('size') === '1000'
          ? { status: 422, body: { message: 'Page size must be between 1 and 1000' } }
          : { body: makeResourcesPage(1, 10, 118) },
    });
    await within(resourcesPanel()).findByText('Showing 1 to 10 of 118 entries');
    await user.click(within(resourcesPanel()).getByRole('button', { name: 'All (118)' }));
    expect(
      await within(resourcesPanel()).findByText('Failed to export all resources: Page size must be between 1 and 1000'),
    ).toBeInTheDocument();
    expect(within(resourcesPanel()).queryByText(/Exporting…/)).not.toBeInTheDocument();
  });

  it('says there is nothing to export when the range has no resources', async () => {
    const { user } = setup({ [RESOURCES]: () => ({ body: makeResourcesPage(1, 10, 0, 0) }) });
    await within(resourcesPanel()).findByText('No resources found for the selected period');
    await user.click(within(resourcesPanel()).getByRole('button', { name: 'Current Page' }));
    expect(within(resourcesPanel()).getByText('No resources found to export')).toBeInTheDocument();
    await user.click(within(resourcesPanel()).getByRole('button', { name: 'Close' }));
    await user.click(within(resourcesPanel()).getByRole('button', { name: 'All (0)' }));
    expect(await within(resourcesPanel()).findByText('No resources found to export')).toBeInTheDocument();
  });
});
