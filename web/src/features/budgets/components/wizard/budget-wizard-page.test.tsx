import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { makeChannel } from '../../testing/make-channel';
import { makeBudget } from '../../testing/make-budget';
import { takeBudgetsRefreshFlag } from '../../model/refresh-flag';
import { BudgetWizardPage } from './budget-wizard-page';
import { makeFilterParameters } from './testing/filter-parameters';

const CHANNELS = [
  makeChannel({ id: 1, name: 'Finance e-mail', type: 'email' }),
  makeChannel({ id: 2, name: 'Team alerts', type: 'slack' }),
];

function setup(route: string, extra: Record<string, MockReply> = {}) {
  signInAs(makeUser());
  const api = mockApi({
    'GET /v1/cost/filter-parameters': { body: makeFilterParameters() },
    'GET /v1/channels': { body: CHANNELS },
    ...extra,
  });
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/budgets" element={<p>Budgets dashboard</p>} />
      <Route path="/budgets/create" element={<BudgetWizardPage />} />
      <Route path="/budgets/edit/:id" element={<BudgetWizardPage />} />
    </Routes>,
    { route },
  );
  return { ...api, ...rendered };
}

const filterRow = (position: number) => screen.getByRole('group', { name: `Filter ${position}` });
const alertRow = (position: number) => screen.getByRole('group', { name: `Alert ${position}` });
const location = () => screen.getByTestId('location');

async function pickValue(user: UserEvent, position: number, label: string, option: string) {
  await user.click(within(filterRow(position)).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function pickType(user: UserEvent, position: number, type: string) {
  await user.click(within(filterRow(position)).getByRole('combobox', { name: 'Filter Type' }));
  await user.click(await screen.findByRole('option', { name: type }));
}

/** Step 1 with one AWS filter, then Next. */
async function toConfiguration(user: UserEvent) {
  await pickValue(user, 1, 'Cloud Provider values', 'AWS');
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByRole('textbox', { name: 'Budget Name' });
}

async function fillNameAndAmount(user: UserEvent, name = 'Production AWS', amount = '5000') {
  await user.type(screen.getByRole('textbox', { name: 'Budget Name' }), name);
  await user.type(screen.getByRole('spinbutton', { name: 'Budget Amount' }), amount);
}

function createButton() {
  return screen.getByRole('button', { name: 'Create Budget' });
}

describe('budget wizard: step 1, Select Filters', () => {
  it('opens on Select Filters with Next disabled until a filter has a value', async () => {
    const { user } = setup('/budgets/create');
    expect(screen.getByRole('heading', { level: 1, name: 'Create Budget' })).toBeInTheDocument();
    expect(screen.getByText('Select Filters')).toBeInTheDocument();
    expect(screen.getByText('Budget Configuration')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByText('At least one filter must be configured')).toBeInTheDocument();

    await pickValue(user, 1, 'Cloud Provider values', 'AWS');
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(screen.queryByText('At least one filter must be configured')).not.toBeInTheDocument();
  });

  it('adds a filter of the next free type and removes it again', async () => {
    const { user } = setup('/budgets/create');
    await user.click(screen.getByRole('button', { name: 'Add Filter' }));
    expect(within(filterRow(2)).getByRole('combobox', { name: 'Filter Type' })).toHaveTextContent('Account');
    await pickValue(user, 2, 'Account values', 'Production (123456789012)');
    expect(within(filterRow(2)).getByText('Production (123456789012)')).toBeInTheDocument();

    await user.click(within(filterRow(2)).getByRole('button', { name: 'Remove filter 2' }));
    expect(screen.queryByRole('group', { name: 'Filter 2' })).not.toBeInTheDocument();
  });

  it('refuses a filter type another filter already has', async () => {
    const { user } = setup('/budgets/create');
    await user.click(screen.getByRole('button', { name: 'Add Filter' }));
    await pickType(user, 2, 'Cloud Provider');
    expect(
      screen.getByText('A filter for Cloud Provider already exists. Please use a different filter type.'),
    ).toBeInTheDocument();
    expect(within(filterRow(2)).getByRole('combobox', { name: 'Filter Type' })).toHaveTextContent('Account');

    await pickType(user, 2, 'Tag');
    expect(screen.queryByText(/already exists/)).not.toBeInTheDocument();
    expect(within(filterRow(2)).getByRole('combobox', { name: 'Filter Type' })).toHaveTextContent('Tag');
  });

  it('blocks adding once all five filter types are in use', async () => {
    const { user } = setup('/budgets/create');
    for (let i = 0; i < 4; i += 1) await user.click(screen.getByRole('button', { name: 'Add Filter' }));
    expect(screen.getAllByRole('group', { name: /^Filter \d$/ })).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Add Filter' })).toBeDisabled();
    expect(screen.getByText('All filter types are already in use')).toBeInTheDocument();
  });

  it('says so when the filter options cannot be loaded', async () => {
    setup('/budgets/create', { 'GET /v1/cost/filter-parameters': { status: 500, body: { message: 'boom' } } });
    expect(await screen.findByText('Failed to load filter options. Please try again later.')).toBeInTheDocument();
  });

  it('leaves the wizard on Cancel', async () => {
    const { user } = setup('/budgets/create');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(location()).toHaveTextContent('/budgets');
    expect(screen.getByText('Budgets dashboard')).toBeInTheDocument();
  });
});

describe('budget wizard: step 2, Budget Configuration', () => {
  it('starts Monthly with alerts at 75% and 100% and lists what is missing', async () => {
    const { user } = setup('/budgets/create');
    await toConfiguration(user);
    expect(screen.getByRole('combobox', { name: 'Budget Period' })).toHaveTextContent('Monthly');
    expect(within(alertRow(1)).getByRole('textbox', { name: 'Alert 1 threshold' })).toHaveValue('75');
    expect(within(alertRow(2)).getByRole('textbox', { name: 'Alert 2 threshold' })).toHaveValue('100');
    expect(within(alertRow(1)).getByRole('button', { name: 'Percentage' })).toHaveAttribute('aria-pressed', 'true');

    expect(createButton()).toBeDisabled();
    const problems = screen.getByRole('alert');
    expect(problems).toHaveTextContent('Please fix the following errors:');
    expect(within(problems).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Budget name is required',
      'Budget amount must be greater than $0',
    ]);
  });

  it('validates name and amount as they are typed', async () => {
    const { user } = setup('/budgets/create');
    await toConfiguration(user);
    const name = screen.getByRole('textbox', { name: 'Budget Name' });
    await user.type(name, 'ab');
    expect(within(name.closest('.MuiFormControl-root') as HTMLElement).getByText('Budget name must be at least 3 characters')).toBeInTheDocument();
    await user.type(name, 'c');
    expect(screen.queryByText('Budget name must be at least 3 characters')).not.toBeInTheDocument();
    await user.type(name, 'x'.repeat(48));
    expect(screen.getAllByText('Budget name must be less than 50 characters').length).toBeGreaterThan(0);

    await user.type(screen.getByRole('spinbutton', { name: 'Budget Amount' }), '0');
    expect(screen.getAllByText('Budget amount must be greater than $0').length).toBe(2);
  });

  it('enables Create Budget only when the whole form is valid', async () => {
    const { user } = setup('/budgets/create');
    await toConfiguration(user);
    await fillNameAndAmount(user);
    expect(createButton()).toBeEnabled();
    expect(screen.queryByText('Please fix the following errors:')).not.toBeInTheDocument();

    const threshold = screen.getByRole('textbox', { name: 'Alert 1 threshold' });
    await user.clear(threshold);
    await user.type(threshold, '150');
    expect(screen.getAllByText('Percentage must be at most 100%')).toHaveLength(2);
    expect(createButton()).toBeDisabled();

    await user.clear(threshold);
    expect(screen.getAllByText('Threshold value must be greater than 0')).toHaveLength(2);
    await user.type(threshold, '8x0');
    expect(threshold).toHaveValue('80');
    expect(createButton()).toBeEnabled();
  });

  it('adds the next suggested threshold, offers quick picks, and stops at five alerts', async () => {
    const { user } = setup('/budgets/create');
    await toConfiguration(user);
    expect(screen.getByRole('button', { name: 'Add 75% alert' })).toHaveAttribute('aria-disabled', 'true');

    await user.click(screen.getByRole('button', { name: 'Add Alert' }));
    expect(screen.getByRole('textbox', { name: 'Alert 3 threshold' })).toHaveValue('25');
    expect(screen.getByRole('button', { name: 'Add 25% alert' })).toHaveAttribute('aria-disabled', 'true');

    await user.click(screen.getByRole('button', { name: 'Add 90% alert' }));
    expect(screen.getByRole('textbox', { name: 'Alert 4 threshold' })).toHaveValue('90');
    await user.click(screen.getByRole('button', { name: 'Add Alert' }));
    expect(screen.getByRole('textbox', { name: 'Alert 5 threshold' })).toHaveValue('50');

    expect(screen.getByRole('button', { name: 'Add Alert' })).toBeDisabled();
    expect(screen.getByText('Maximum of 5 alerts allowed')).toBeInTheDocument();

    await user.click(within(alertRow(5)).getByRole('button', { name: 'Remove alert 5' }));
    expect(screen.getByRole('button', { name: 'Add Alert' })).toBeEnabled();
  });

  it('asks before switching an alert to dollars, and keeps it on Cancel', async () => {
    const { user } = setup('/budgets/create');
    await toConfiguration(user);
    await fillNameAndAmount(user, 'Production AWS', '80');

    await user.click(within(alertRow(2)).getByRole('button', { name: 'Absolute' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change alert type?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(alertRow(2)).getByRole('button', { name: 'Percentage' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(alertRow(2)).getByRole('button', { name: 'Absolute' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Switch to $' }));
    expect(within(alertRow(2)).getByRole('button', { name: 'Absolute' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('textbox', { name: 'Alert 2 threshold' })).toHaveValue('100');
    // $100 is above the $80 budget.
    expect(screen.getAllByText('Absolute threshold cannot exceed budget amount')).toHaveLength(2);
    expect(createButton()).toBeDisabled();
  });

  it('clamps the value to 1-100 when an alert is switched to percentage', async () => {
    const { user } = setup('/budgets/create');
    await toConfiguration(user);
    await fillNameAndAmount(user);
    await user.click(within(alertRow(1)).getByRole('button', { name: 'Absolute' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Switch to $' }));
    const threshold = screen.getByRole('textbox', { name: 'Alert 1 threshold' });
    await user.clear(threshold);
    await user.type(threshold, '4500');

    await user.click(within(alertRow(1)).getByRole('button', { name: 'Percentage' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Switch to %' }));
    expect(threshold).toHaveValue('100');
    expect(within(alertRow(1)).getByRole('button', { name: 'Percentage' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('goes Back to the filters with the choices kept', async () => {
    const { user } = setup('/budgets/create');
    await toConfiguration(user);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(within(filterRow(1)).getByText('AWS')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });
});

describe('budget wizard: saving', () => {
  it('creates the budget, marks the dashboard for refresh and returns to /budgets', async () => {
    const { user, callsTo } = setup('/budgets/create', {
      'POST /v1/budgets': { status: 201, body: makeBudget({ id: 12 }) },
    });
    await pickValue(user, 1, 'Cloud Provider values', 'AWS');
    await user.click(screen.getByRole('button', { name: 'Add Filter' }));
    await pickType(user, 2, 'Tag');
    await pickValue(user, 2, 'Tag values', 'team:data');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await fillNameAndAmount(user, '  Data team  ', '2500');
    await user.click(screen.getByRole('combobox', { name: 'Budget Period' }));
    await user.click(await screen.findByRole('option', { name: 'Quarterly' }));
    await user.click(screen.getByRole('button', { name: 'Add Alert' }));
    await user.click(createButton());

    expect(await screen.findByText('Budgets dashboard')).toBeInTheDocument();
    expect(location()).toHaveTextContent('/budgets');
    expect(callsTo('POST', '/v1/budgets')[0].body).toEqual({
      name: 'Data team',
      amount: 2500,
      period: 'Quarterly',
      filters: [
        { filterType: 'cloudProvider', filterValues: ['AWS'] },
        { filterType: 'tag', filterValues: ['team:data'] },
      ],
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 75, basis: 'Actual' },
        { thresholdType: 'Percentage', thresholdValue: 100, basis: 'Actual' },
        { thresholdType: 'Percentage', thresholdValue: 25, basis: 'Actual' },
      ],
      channelIds: [],
    });
    expect(takeBudgetsRefreshFlag()).toBe(true);
  });

  it('drops a repeated alert silently when saving', async () => {
    const { user, callsTo } = setup('/budgets/create', { 'POST /v1/budgets': { status: 201, body: makeBudget() } });
    await toConfiguration(user);
    await fillNameAndAmount(user);
    const second = screen.getByRole('textbox', { name: 'Alert 2 threshold' });
    await user.clear(second);
    await user.type(second, '75');
    await user.click(createButton());
    await screen.findByText('Budgets dashboard');
    expect(callsTo('POST', '/v1/budgets')[0].body).toMatchObject({
      alerts: [{ thresholdType: 'Percentage', thresholdValue: 75, basis: 'Actual' }],
    });
  });

  it("shows 'Failed to save budget. Please try again.' with the server's field messages on a 422", async () => {
    const { user } = setup('/budgets/create', {
      'POST /v1/budgets': {
        status: 422,
        body: {
          message: 'Budget name is required',
          details: { name: ['Budget name is required'], alerts: ['Duplicate alert threshold detected'] },
        },
      },
    });
    await toConfiguration(user);
    await fillNameAndAmount(user);
    await user.click(createButton());
    const failure = await screen.findByText('Failed to save budget. Please try again.');
    const alert = failure.closest('[role="alert"]') as HTMLElement;
    expect(within(alert).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Budget name is required',
      'Duplicate alert threshold detected',
    ]);
    expect(location()).toHaveTextContent('/budgets/create');
    expect(takeBudgetsRefreshFlag()).toBe(false);
  });

  it("shows only 'Failed to save budget. Please try again.' on other failures", async () => {
    const { user } = setup('/budgets/create', {
      'POST /v1/budgets': { status: 500, body: { message: 'Internal server error' } },
    });
    await toConfiguration(user);
    await fillNameAndAmount(user);
    await user.click(createButton());
    const failure = await screen.findByText('Failed to save budget. Please try again.');
    expect(within(failure.closest('[role="alert"]') as HTMLElement).queryByRole('listitem')).not.toBeInTheDocument();
  });
});

describe('budget wizard: edit', () => {
  const budget = makeBudget({
    id: 7,
    name: 'Production AWS',
    amount: 5000,
    period: 'Yearly',
    filters: [{ filterType: 'account', filterValues: ['123456789012', '999999999999'] }],
    alerts: [
      { thresholdType: 'Percentage', thresholdValue: 50 },
      { thresholdType: 'Absolute', thresholdValue: 4500 },
    ],
  });

  it('prefills the wizard with the budget and saves with PUT', async () => {
    const { user, callsTo } = setup('/budgets/edit/7', {
      'GET /v1/budgets/7': { body: budget },
      'PUT /v1/budgets/7': { body: budget },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Budget' })).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: 'Filter 1' })).toBeInTheDocument();
    expect(within(filterRow(1)).getByRole('combobox', { name: 'Filter Type' })).toHaveTextContent('Account');
    expect(await within(filterRow(1)).findByText('Production (123456789012)')).toBeInTheDocument();
    // A value no longer in the data stays.
    expect(within(filterRow(1)).getByText('999999999999')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('textbox', { name: 'Budget Name' })).toHaveValue('Production AWS');
    expect(screen.getByRole('spinbutton', { name: 'Budget Amount' })).toHaveValue(5000);
    expect(screen.getByRole('combobox', { name: 'Budget Period' })).toHaveTextContent('Yearly');
    expect(screen.getByRole('textbox', { name: 'Alert 1 threshold' })).toHaveValue('50');
    expect(screen.getByRole('textbox', { name: 'Alert 2 threshold' })).toHaveValue('4500');
    expect(within(alertRow(2)).getByRole('button', { name: 'Absolute' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getAllByRole('group', { name: /^Alert \d$/ })).toHaveLength(2);

    const update = screen.getByRole('button', { name: 'Update Budget' });
    expect(update).toBeEnabled();
    const amount = screen.getByRole('spinbutton', { name: 'Budget Amount' });
    await user.clear(amount);
    await user.type(amount, '6000');
    await user.click(update);

    expect(await screen.findByText('Budgets dashboard')).toBeInTheDocument();
    expect(callsTo('PUT', '/v1/budgets/7')[0].body).toEqual({
      name: 'Production AWS',
      amount: 6000,
      period: 'Yearly',
      filters: [{ filterType: 'account', filterValues: ['123456789012', '999999999999'] }],
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 50, basis: 'Actual' },
        { thresholdType: 'Absolute', thresholdValue: 4500, basis: 'Actual' },
      ],
      channelIds: [],
    });
    expect(callsTo('POST', '/v1/budgets')).toHaveLength(0);
    expect(takeBudgetsRefreshFlag()).toBe(true);
  });

  it("says 'No budget found.' for an unknown budget", async () => {
    setup('/budgets/edit/404', { 'GET /v1/budgets/404': { status: 404, body: { message: 'No budget found.' } } });
    expect(await screen.findByText('No budget found.')).toBeInTheDocument();
  });

  it("says 'No budget found.' for an id that cannot be a budget's, without calling the server", async () => {
    const { callsTo } = setup('/budgets/edit/abc');
    expect(await screen.findByText('No budget found.')).toBeInTheDocument();
    expect(callsTo('GET', '/v1/budgets/abc')).toHaveLength(0);
  });

  it("says 'Failed to load budget data. Please try again.' when loading fails", async () => {
    setup('/budgets/edit/7', { 'GET /v1/budgets/7': { status: 500, body: { message: 'Internal server error' } } });
    expect(await screen.findByText('Failed to load budget data. Please try again.')).toBeInTheDocument();
  });
});

describe('budget wizard: channels', () => {
  const channelsInput = () => screen.getByRole('combobox', { name: 'Notification channels' });

  it('sends every channel (none chosen) by default and only the chosen ones once picked', async () => {
    const { user, callsTo } = setup('/budgets/create', { 'POST /v1/budgets': { status: 201, body: makeBudget() } });
    await toConfiguration(user);
    await fillNameAndAmount(user);
    expect(await screen.findByText('None chosen: the alerts go to every channel.')).toBeInTheDocument();

    await user.click(channelsInput());
    await user.click(await screen.findByRole('option', { name: 'Team alerts' }));
    expect(screen.getByText('The alerts go only to the chosen channels.')).toBeInTheDocument();
    await user.click(createButton());

    await screen.findByText('Budgets dashboard');
    expect(callsTo('POST', '/v1/budgets')[0].body).toMatchObject({ channelIds: [2] });
  });

  it("shows an edited budget's channels and sends them changed", async () => {
    const budget = makeBudget({ id: 7, channelIds: [1, 2] });
    const { user, callsTo } = setup('/budgets/edit/7', {
      'GET /v1/budgets/7': { body: budget },
      'PUT /v1/budgets/7': { body: budget },
    });
    await screen.findByRole('group', { name: 'Filter 1' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const section = screen.getByRole('region', { name: 'Channels' });
    expect(await within(section).findByRole('button', { name: 'Finance e-mail' })).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Team alerts' })).toBeInTheDocument();

    await user.click(within(section).getAllByTestId('CancelIcon')[0]);
    await user.click(screen.getByRole('button', { name: 'Update Budget' }));
    await screen.findByText('Budgets dashboard');
    expect(callsTo('PUT', '/v1/budgets/7')[0].body).toMatchObject({ channelIds: [2] });
  });

  it('says where alerts go when the tenant has no channels', async () => {
    const { user } = setup('/budgets/create', { 'GET /v1/channels': { body: [] } });
    await toConfiguration(user);
    expect(
      await screen.findByText('No notification channels yet: the alerts are e-mailed to the owners and admins.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Notification channels' })).not.toBeInTheDocument();
  });

  it("keeps an edited budget's channels when the channels cannot be loaded", async () => {
    const budget = makeBudget({ id: 7, channelIds: [2] });
    const { user, callsTo } = setup('/budgets/edit/7', {
      'GET /v1/budgets/7': { body: budget },
      'PUT /v1/budgets/7': { body: budget },
      'GET /v1/channels': { status: 500, body: { message: 'Internal server error' } },
    });
    await screen.findByRole('group', { name: 'Filter 1' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(
      await screen.findByText('Failed to load notification channels. The budget keeps its channels.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update Budget' }));
    await screen.findByText('Budgets dashboard');
    expect(callsTo('PUT', '/v1/budgets/7')[0].body).toMatchObject({ channelIds: [2] });
  });

  it("lists the server's 'Unknown channel' with the other save errors", async () => {
    const { user } = setup('/budgets/create', {
      'POST /v1/budgets': { status: 422, body: { message: 'Unknown channel', details: { channelIds: ['Unknown channel'] } } },
    });
    await toConfiguration(user);
    await fillNameAndAmount(user);
    await user.click(createButton());
    const failure = await screen.findByText('Failed to save budget. Please try again.');
    expect(within(failure.closest('[role="alert"]') as HTMLElement).getByRole('listitem')).toHaveTextContent('Unknown channel');
  });
});

describe('budget wizard: forecast alerts', () => {
  async function pickBasis(user: UserEvent, position: number, basis: string) {
    await user.click(within(alertRow(position)).getByRole('combobox', { name: `Alert ${position} basis` }));
    await user.click(await screen.findByRole('option', { name: basis }));
  }

  it('gives every alert the Actual basis unless Forecasted is chosen, and sends the basis', async () => {
    const { user, callsTo } = setup('/budgets/create', { 'POST /v1/budgets': { status: 201, body: makeBudget() } });
    await toConfiguration(user);
    await fillNameAndAmount(user);
    expect(within(alertRow(1)).getByRole('combobox', { name: 'Alert 1 basis' })).toHaveTextContent('Actual');
    expect(within(alertRow(2)).getByRole('combobox', { name: 'Alert 2 basis' })).toHaveTextContent('Actual');

    await pickBasis(user, 2, 'Forecasted');
    expect(within(alertRow(2)).getByRole('combobox', { name: 'Alert 2 basis' })).toHaveTextContent('Forecasted');
    await user.click(screen.getByRole('button', { name: 'Add Alert' }));
    expect(within(alertRow(3)).getByRole('combobox', { name: 'Alert 3 basis' })).toHaveTextContent('Actual');
    await user.click(createButton());

    await screen.findByText('Budgets dashboard');
    expect(callsTo('POST', '/v1/budgets')[0].body).toMatchObject({
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 75, basis: 'Actual' },
        { thresholdType: 'Percentage', thresholdValue: 100, basis: 'Forecasted' },
        { thresholdType: 'Percentage', thresholdValue: 25, basis: 'Actual' },
      ],
    });
  });

  it('keeps the same threshold once on each basis (a repeat counts type, value and basis)', async () => {
    const { user, callsTo } = setup('/budgets/create', { 'POST /v1/budgets': { status: 201, body: makeBudget() } });
    await toConfiguration(user);
    await fillNameAndAmount(user);
    const second = screen.getByRole('textbox', { name: 'Alert 2 threshold' });
    await user.clear(second);
    await user.type(second, '75');
    await pickBasis(user, 2, 'Forecasted');
    await user.click(createButton());
    await screen.findByText('Budgets dashboard');
    expect((callsTo('POST', '/v1/budgets')[0].body as { alerts: unknown[] }).alerts).toEqual([
      { thresholdType: 'Percentage', thresholdValue: 75, basis: 'Actual' },
      { thresholdType: 'Percentage', thresholdValue: 75, basis: 'Forecasted' },
    ]);
  });

  it("shows an edited budget's Forecasted alert and saves a change of basis", async () => {
    const budget = makeBudget({
      id: 7,
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 90, basis: 'Forecasted' },
        { thresholdType: 'Absolute', thresholdValue: 4500 },
      ],
    });
    const { user, callsTo } = setup('/budgets/edit/7', {
      'GET /v1/budgets/7': { body: budget },
      'PUT /v1/budgets/7': { body: budget },
    });
    await screen.findByRole('group', { name: 'Filter 1' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(within(alertRow(1)).getByRole('combobox', { name: 'Alert 1 basis' })).toHaveTextContent('Forecasted');
    expect(within(alertRow(2)).getByRole('combobox', { name: 'Alert 2 basis' })).toHaveTextContent('Actual');

    await pickBasis(user, 1, 'Actual');
    await pickBasis(user, 2, 'Forecasted');
    await user.click(screen.getByRole('button', { name: 'Update Budget' }));
    await screen.findByText('Budgets dashboard');
    expect(callsTo('PUT', '/v1/budgets/7')[0].body).toMatchObject({
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 90, basis: 'Actual' },
        { thresholdType: 'Absolute', thresholdValue: 4500, basis: 'Forecasted' },
      ],
    });
  });

  it("lists the server's basis message with the other alert errors", async () => {
    const { user } = setup('/budgets/create', {
      'POST /v1/budgets': {
        status: 422,
        body: {
          message: 'Choose a basis: Actual or Forecasted',
          details: { alerts: ['Choose a basis: Actual or Forecasted', 'Duplicate alert threshold detected'] },
        },
      },
    });
    await toConfiguration(user);
    await fillNameAndAmount(user);
    await user.click(createButton());
    const failure = await screen.findByText('Failed to save budget. Please try again.');
    expect(within(failure.closest('[role="alert"]') as HTMLElement).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Choose a basis: Actual or Forecasted',
      'Duplicate alert threshold detected',
    ]);
  });
});
