import { act, screen, waitFor, within } from '@testing-library/react';
import { STORAGE_KEYS } from '@/lib/cost';
import { appRoutes, makeAccount, makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { NOW, aggrReply, setup } from '../testing/render-cost-analysis';
import { hasNewAccount } from './data-ready-notice';

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});

const optionNames = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('Advanced Cost toolbar (spec 1 §2.5, §4, §9)', () => {
  it('groups by at most 4 of Ungrouped, Account, Region, Service, Cloud Provider, Cost Type, Usage Type, showing 2 chips then how many more', async () => {
    const { user, aggrBodies } = setup();
    await screen.findByTestId('total-cost');
    const groupBy = screen.getByRole('combobox', { name: 'Group By' });
    await user.click(groupBy);
    expect(optionNames()).toEqual(['Ungrouped', 'Account', 'Region', 'Service', 'Cloud Provider', 'Cost Type', 'Usage Type']);
    for (const name of ['Service', 'Region', 'Account', 'Cost Type']) await user.click(screen.getByRole('option', { name }));
    for (const name of ['Cloud Provider', 'Usage Type']) {
      expect(screen.getByRole('option', { name })).toHaveAttribute('aria-disabled', 'true');
    }
    expect(screen.getByRole('option', { name: 'Ungrouped' })).not.toHaveAttribute('aria-disabled');
    await user.keyboard('{Escape}');
    expect(groupBy).toHaveTextContent('ServiceRegion+2');
    await waitFor(() => expect(aggrBodies().at(-1)).toMatchObject({ group_by_dimensions: ['service', 'region', 'account', 'cost_type'] }), {
      timeout: 4_000,
    });

    // §4: choosing Ungrouped after dimensions clears them.
    await user.click(groupBy);
    await user.click(screen.getByRole('option', { name: 'Ungrouped' }));
    await user.keyboard('{Escape}');
    expect(groupBy).toHaveTextContent('Ungrouped');
  });

  it('offers the views Daily, Weekly, Monthly and Cumulative, and asks monthly only for Monthly', async () => {
    const { user, aggrBodies } = setup();
    await screen.findByTestId('total-cost');
    await user.click(screen.getByRole('combobox', { name: 'View' }));
    expect(optionNames()).toEqual(['Daily', 'Weekly', 'Monthly', 'Cumulative']);
    await user.click(screen.getByRole('option', { name: 'Monthly' }));
    await waitFor(() => expect(aggrBodies().at(-1)).toMatchObject({ interval: 'monthly', view_type: 'monthly' }), { timeout: 4_000 });
    await user.click(screen.getByRole('combobox', { name: 'View' }));
    await user.click(screen.getByRole('option', { name: 'Cumulative' }));
    await waitFor(() => expect(aggrBodies().at(-1)).toMatchObject({ interval: 'daily', view_type: 'cumulative' }), { timeout: 4_000 });
  });

  it('includes the chosen charge types, showing 2 chips then how many more', async () => {
    const { user, aggrBodies } = setup();
    await screen.findByTestId('total-cost');
    const include = screen.getByRole('combobox', { name: 'Include' });
    expect(include).toHaveTextContent('UsageUsage (GCP)');
    await user.click(include);
    await user.click(screen.getByRole('option', { name: 'Tax' }));
    await user.keyboard('{Escape}');
    expect(include).toHaveTextContent('UsageUsage (GCP)+1');
    await waitFor(() => expect(aggrBodies().at(-1)).toMatchObject({ cost_type: { inclusions: ['Usage', 'regular', 'Tax'] } }), {
      timeout: 4_000,
    });
  });

  it('forgets the custom dates when a preset is chosen after a custom range', async () => {
    const { user } = setup('/cost/advanced?period=custom&from=2026-10-05&to=2026-10-20');
    await screen.findByTestId('total-cost');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.customStart)!)).toBe('2026-10-05');
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(screen.getByRole('option', { name: 'Last 7 Days' }));
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.timeRangePreset)!)).toBe('last7Days');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.customStart)!)).toBeNull();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.customEnd)!)).toBeNull();
  });

  it('opens the filter panel from the Filters button', async () => {
    const { user } = setup();
    await screen.findByTestId('total-cost');
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    const panel = await screen.findByRole('dialog', { name: 'Filters' });
    expect(within(panel).getByText('Click "New Rule" to create your first filtering rule')).toBeInTheDocument();
  });

  it('closes the "Report … saved." notice by itself after 5000 ms', async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const { user } = setup();
    await screen.findByTestId('total-cost');
    await user.click(screen.getByRole('button', { name: 'Save Report' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Month so far');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Report “Month so far” saved.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(4_500));
    expect(screen.getByText('Report “Month so far” saved.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(600));
    expect(screen.queryByText('Report “Month so far” saved.')).not.toBeInTheDocument();
  });
});

describe('"Getting Your Data Ready" window (spec 1 §4, §9: 24 hours)', () => {
  it('counts an account created less than 24 hours ago, not one created 24 hours ago or earlier', () => {
    const now = Date.parse('2026-11-23T12:00:00.000Z');
    expect(hasNewAccount([makeAccount({ creation_time: '2026-11-22T12:00:00.001Z' })], now)).toBe(true);
    expect(hasNewAccount([makeAccount({ creation_time: '2026-11-22T12:00:00.000Z' })], now)).toBe(false);
    expect(hasNewAccount([makeAccount({ creation_time: '2026-11-01T00:00:00.000Z' }), makeAccount({ creation_time: '2026-11-23T11:00:00.000Z' })], now)).toBe(true);
  });
});

describe('cost analysis routes (spec 1 §2.1, flag oldCostDashboard on)', () => {
  it('opens Advanced Cost at /cost/advanced and the saved reports at /cost/report', async () => {
    signInAs(makeUser());
    mockApi({ ...appRoutes({ accounts: [makeAccount()] }), 'POST /v2/cost/aggr': aggrReply, 'POST /v2/cost/filters': { body: { cloud_providers: [] } } });
    const advanced = renderApp('/cost/advanced');
    expect(await screen.findByRole('heading', { level: 1, name: 'Advanced Cost' })).toBeInTheDocument();
    advanced.unmount();
    renderApp('/cost/report');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cost Report' })).toBeInTheDocument();
  });
});
