import { screen, waitFor, within } from '@testing-library/react';
import { STORAGE_KEYS } from '@/lib/cost';
import { makeAccount } from '@/test/fixtures';
import { NOW, aggrReply, currentUrl as search, setup } from '../testing/render-cost-analysis';

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});

describe('Advanced Cost page', () => {
  it('shows this month daily by default: the total, its change, the period, the chart and one row per day', async () => {
    const { aggrBodies } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Advanced Cost' })).toBeInTheDocument();
    expect(await screen.findByTestId('total-cost')).toHaveTextContent('$1,234.56');
    expect(screen.getByTestId('cost-change')).toHaveTextContent('+12.5% (previous $1,097.39)');
    expect(screen.getByTestId('period-label')).toHaveTextContent('Nov 1, 2026 – Nov 23, 2026');
    expect(aggrBodies()).toHaveLength(1);
    expect(aggrBodies()[0]).toMatchObject({
      start_time: '2026-11-01T00:00:00.000Z',
      end_time: '2026-11-23T23:59:59.999Z',
      group_by: 'none',
      interval: 'daily',
      view_type: 'daily',
      cost_type: { inclusions: ['Usage', 'regular'] },
      filters: [],
    });
    const chartData = screen.getByRole('table', { name: 'Advanced cost chart data' });
    expect(within(chartData).getByRole('row', { name: /Total cost/ })).toHaveTextContent('$1,234.56');
    const table = screen.getByRole('table', { name: 'Cost by period' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(['Nov 1, 2026$1,000.0081.0%', 'Nov 2, 2026$234.5619.0%']);
    expect(search()).toBe('/cost/advanced?period=thisMonth&view=daily&include=Usage,regular');
    expect(screen.getByRole('combobox', { name: 'Group By' })).toHaveTextContent('Ungrouped');
    expect(screen.getByRole('combobox', { name: 'View' })).toHaveTextContent('Daily');
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('This Month');
  });

  it('groups by Service and Region: the chart by service, the table by both, sortable, and the link says so', async () => {
    const { user, aggrBodies } = setup();
    await screen.findByTestId('total-cost');
    await user.click(screen.getByRole('combobox', { name: 'Group By' }));
    await user.click(screen.getByRole('option', { name: 'Service' }));
    await user.click(screen.getByRole('option', { name: 'Region' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('combobox', { name: 'Group By' })).toHaveTextContent('ServiceRegion');

    const table = await screen.findByRole('table', { name: 'Cost by group' });
    const bodies = aggrBodies();
    expect(bodies.find((b) => b.interval)?.group_by_dimensions).toBeDefined();
    expect(bodies.filter((b) => !b.interval)).toEqual([
      expect.objectContaining({ group_by: 'service', group_by_dimensions: ['service', 'region'], group_by_hierarchy: true, limit: 1000 }),
    ]);
    expect(bodies.filter((b) => b.interval).at(-1)).toMatchObject({ group_by_dimensions: ['service'], interval: 'daily' });
    // The second Group By change lands within the 1000 ms debounce: one request for both.
    expect(bodies.filter((b) => b.interval)).toHaveLength(2);

    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Service', 'Region', 'Cost', 'Share of total']);
    const rowsText = () => within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rowsText()).toEqual(['AmazonEC2us-east-1$1,000.0081.0%', '=cmd|evileu-west-1$234.5619.0%']);
    await user.click(within(table).getByRole('button', { name: 'Cost' }));
    expect(rowsText()).toEqual(['=cmd|evileu-west-1$234.5619.0%', 'AmazonEC2us-east-1$1,000.0081.0%']);
    const chartData = screen.getByRole('table', { name: 'Advanced cost chart data' });
    expect(within(chartData).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['AmazonEC2$1,000.00', '=cmd|evil$234.56']);
    expect(search()).toBe('/cost/advanced?period=thisMonth&view=daily&group=service,region&include=Usage,regular');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.groupingState)!)).toMatchObject({
      groupBy: 'service',
      groupByDimensions: ['service', 'region'],
      groupByHierarchy: true,
      sortConfig: { field: 'cost', direction: 'asc' },
    });
  });

  it('opens a shared link: the URL wins over what this browser stored, and is stored', async () => {
    localStorage.setItem(STORAGE_KEYS.viewType, JSON.stringify('monthly'));
    localStorage.setItem(STORAGE_KEYS.timeRangePreset, JSON.stringify('lastYear'));
    const { aggrBodies } = setup('/cost/advanced?period=custom&from=2026-10-05&to=2026-10-20&view=weekly&include=Usage,Tax&filters=aws(service=AmazonEC2)');
    await screen.findByTestId('total-cost');
    expect(aggrBodies()[0]).toMatchObject({
      start_time: '2026-10-05T00:00:00.000Z',
      end_time: '2026-10-20T23:59:59.999Z',
      interval: 'daily',
      view_type: 'weekly',
      cost_type: { inclusions: ['Usage', 'Tax'] },
      filters: [{ operator: 'AND', cloud_providers: [{ operator: 'equals', values: ['aws'] }], services: [{ operator: 'equals', values: ['AmazonEC2'] }] }],
    });
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('Oct 5, 2026 – Oct 20, 2026');
    expect(screen.getByRole('button', { name: 'Filters (2 applied)' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Cost by period' })).toHaveTextContent('Week of Oct 5, 2026$1,234.56100.0%');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.viewType)!)).toBe('weekly');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.timeRangePreset)!)).toBe('custom');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.customStart)!)).toBe('2026-10-05');
  });

  it('starts from the stored state when the link has none, and writes it to the link', async () => {
    localStorage.setItem(STORAGE_KEYS.viewType, JSON.stringify('monthly'));
    localStorage.setItem(STORAGE_KEYS.timeRangePreset, JSON.stringify('lastYear'));
    const { aggrBodies } = setup();
    await screen.findByTestId('total-cost');
    expect(aggrBodies()[0]).toMatchObject({ start_time: '2025-01-01T00:00:00.000Z', interval: 'monthly', view_type: 'monthly' });
    expect(search()).toBe('/cost/advanced?period=lastYear&view=monthly&include=Usage,regular');
  });

  it('says "No cost data available" and clears the filters from there', async () => {
    const empty = { body: { data: [], summary: { accrued_cost: 0, accrued_change: null, previous_cost: 0, currency: 'USD' }, total_groups: 0, warnings: [] } };
    const { user, aggrBodies } = setup('/cost/advanced?period=today&filters=gcp(service=Nothing)', {
      'POST /v2/cost/aggr': (call) => ((call.body as { filters: unknown[] }).filters.length ? empty : aggrReply(call)),
    });
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('No cost data available');
    expect(screen.getByTestId('cost-change')).toHaveTextContent('No cost in the previous period');
    await user.click(within(status).getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(screen.getByTestId('total-cost')).toHaveTextContent('$1,234.56'), { timeout: 4000 });
    await waitFor(() => expect(screen.queryByText('No cost data available')).not.toBeInTheDocument(), { timeout: 4000 });
    expect(aggrBodies().at(-1)?.filters).toEqual([]);
    expect(search()).toBe('/cost/advanced?period=today&view=daily&include=Usage,regular');
  });

  it('shows "Failed to fetch cost data" when the call fails without a message', async () => {
    setup('/cost/advanced', { 'POST /v2/cost/aggr': { status: 400, body: {} } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch cost data');
  });

  it('shows the server error text', async () => {
    setup('/cost/advanced', { 'POST /v2/cost/aggr': { status: 422, body: { message: 'Maximum 4 group by dimensions allowed' } } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Maximum 4 group by dimensions allowed');
  });

  it('tells that new accounts take up to 24 hours', async () => {
    setup('/cost/advanced', { 'GET /v1/account': { body: [makeAccount({ creation_time: '2026-11-23T10:00:00Z' })] } });
    expect(await screen.findByText('Getting Your Data Ready')).toBeInTheDocument();
    expect(screen.getByText(/can take up to 24 hours/)).toBeInTheDocument();
  });

  it('drops its own title inside the Cost Analysis tabs', async () => {
    setup('/cost/advanced', {}, { embedded: true });
    expect(await screen.findByTestId('total-cost')).toHaveTextContent('$1,234.56');
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Report' })).toBeInTheDocument();
    expect(screen.getByRole('toolbar', { name: 'Cost analysis options' })).toBeInTheDocument();
  });

  it('does not show the notice for older accounts', async () => {
    setup();
    await screen.findByTestId('total-cost');
    expect(screen.queryByText('Getting Your Data Ready')).not.toBeInTheDocument();
  });

  it('refreshes at most once every 3 seconds', async () => {
    const { user, aggrBodies } = setup();
    await screen.findByTestId('total-cost');
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    await user.click(refresh);
    await waitFor(() => expect(aggrBodies()).toHaveLength(2));
    expect(refresh).toBeDisabled();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(aggrBodies()).toHaveLength(2);
    // Enabled again after 3000 ms.
    vi.setSystemTime(new Date(NOW.getTime() + 3_001));
    await waitFor(() => expect(refresh).toBeEnabled(), { timeout: 4_000 });
    await user.click(refresh);
    await waitFor(() => expect(aggrBodies()).toHaveLength(3));
  });

  it('saves a report, opens it again after changes, deletes it, and says when one is gone', async () => {
    const { user } = setup('/cost/advanced?period=lastMonth&view=monthly&group=service');
    await screen.findByTestId('total-cost');
    await user.click(screen.getByRole('button', { name: 'Save Report' }));
    const dialog = screen.getByRole('dialog', { name: 'Save Report' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Monthly by service');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'For the finance review');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Report “Monthly by service” saved.')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'View' }));
    await user.click(screen.getByRole('option', { name: 'Daily' }));
    expect(search()).toBe('/cost/advanced?period=lastMonth&view=daily&group=service&include=Usage,regular');

    await user.click(screen.getByRole('button', { name: 'Saved Reports' }));
    const menu = screen.getByRole('menu', { name: 'Saved Reports' });
    await user.click(within(menu).getByText('Monthly by service'));
    expect(search()).toBe('/cost/advanced?period=lastMonth&view=monthly&group=service&include=Usage,regular');
    expect(screen.getByText('Showing the saved report “Monthly by service”.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'View' })).toHaveTextContent('Monthly');

    // Deleted in another tab while this menu lists it.
    await user.click(screen.getByRole('button', { name: 'Saved Reports' }));
    const stale = screen.getByRole('menu', { name: 'Saved Reports' });
    localStorage.setItem(STORAGE_KEYS.savedReports, '[]');
    await user.click(within(stale).getByText('Monthly by service'));
    expect(await screen.findByText('Report not found')).toBeInTheDocument();
  });

  it('deletes a saved report from the menu', async () => {
    const { user } = setup();
    await screen.findByTestId('total-cost');
    await user.click(screen.getByRole('button', { name: 'Save Report' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Throwaway');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(screen.getByRole('button', { name: 'Saved Reports' }));
    await user.click(screen.getByRole('button', { name: 'Delete Throwaway' }));
    expect(within(screen.getByRole('menu', { name: 'Saved Reports' })).getByText(/No saved reports yet/)).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.savedReports)!)).toEqual([]);
  });

  it('exports the table as CSV with the §5 escaping, and as JSON, named by the day', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), 'blob:x')), revokeObjectURL: vi.fn() }));
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { user } = setup('/cost/advanced?group=service,region');
    await screen.findByRole('table', { name: 'Cost by group' });
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('menuitem', { name: 'Export CSV' }));
    expect(names).toEqual(['cost-analysis-2026-11-23.csv']);
    expect(await blobs[0].text()).toBe(
      'Service,Region,Cost (USD),Share of total (%)\nAmazonEC2,us-east-1,1000,81\n\'=cmd|evil,eu-west-1,234.56,19\n',
    );
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('menuitem', { name: 'Export JSON' }));
    expect(names[1]).toBe('cost-analysis-2026-11-23.json');
    const json = JSON.parse(await blobs[1].text());
    expect(json).toMatchObject({
      period: { preset: 'thisMonth', start: '2026-11-01T00:00:00.000Z', end: '2026-11-23T23:59:59.999Z' },
      view: 'Daily',
      groupBy: ['Service', 'Region'],
      summary: { totalCost: 1234.56, changePercent: 12.5 },
      rows: [{ Service: 'AmazonEC2', Region: 'us-east-1', 'Cost (USD)': 1000, 'Share of total (%)': 81 }, expect.anything()],
    });
    click.mockRestore();
  });

  it('says when the CSV export fails', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => { throw new Error('blocked'); }), revokeObjectURL: vi.fn() }));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = setup();
    await screen.findByRole('table', { name: 'Cost by period' });
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('menuitem', { name: 'Export CSV' }));
    expect(screen.getByText('Failed to export CSV file. Please try again or contact support if the issue persists.')).toBeInTheDocument();
  });
});

