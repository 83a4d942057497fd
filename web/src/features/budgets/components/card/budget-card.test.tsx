import { screen, within } from '@testing-library/react';
import { makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { BudgetCard } from './budget-card';
import { makeBudget } from '../../testing/make-budget';
import type { Budget } from '../../model/types';

function renderCard(budget: Budget, canManage = true) {
  return renderWithProviders(<BudgetCard budget={budget} canManage={canManage} />, { route: '/budgets' });
}

const location = () => screen.getByTestId('location').textContent;

describe('BudgetCard', () => {
  beforeEach(() => {
    signInAs(makeUser());
    mockApi({});
  });

  it('shows the period ribbon in the period colour', () => {
    const { unmount } = renderCard(makeBudget({ period: 'Monthly' }));
    expect(screen.getByText('Monthly Budget')).toHaveAttribute('data-tone', 'blue');
    unmount();
    const second = renderCard(makeBudget({ period: 'Quarterly' }));
    expect(screen.getByText('Quarterly Budget')).toHaveAttribute('data-tone', 'purple');
    second.unmount();
    renderCard(makeBudget({ period: 'Yearly' }));
    expect(screen.getByText('Yearly Budget')).toHaveAttribute('data-tone', 'green');
  });

  it('shows name, amounts in dollars, percent used and the trend up against the previous period', () => {
    renderCard(makeBudget({ name: 'Production AWS', amount: 5000, currentSpent: 5310.42, previousSpent: 4000 }));
    expect(screen.getByRole('link', { name: 'Production AWS' })).toHaveAttribute('href', '/budgets/view/7');
    expect(screen.getByText('$5,000')).toBeInTheDocument();
    expect(screen.getByText('$5,310')).toBeInTheDocument();
    expect(screen.getByLabelText('Percentage used')).toHaveTextContent('106.2%');
    expect(screen.getByLabelText('Up 32.8% vs last period')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Budget used' })).toHaveAttribute('aria-valuenow', '100');
  });

  it('shows a downward trend, and none without a previous spend', () => {
    const { unmount } = renderCard(makeBudget({ currentSpent: 800, previousSpent: 1000 }));
    expect(screen.getByLabelText('Down 20.0% vs last period')).toBeInTheDocument();
    unmount();
    renderCard(makeBudget({ previousSpent: undefined }));
    expect(screen.queryByText(/vs last period/)).not.toBeInTheDocument();
  });

  it('shows the forecast and by which day it is forecast to exceed the amount', () => {
    const { unmount } = renderCard(
      makeBudget({ forecast: { amount: 6120.2, low: 5800, high: 6500, exceedsOn: '2026-11-22', exceedsOnForecast: true } }),
    );
    const forecast = screen.getByRole('group', { name: 'Forecast' });
    expect(forecast).toHaveTextContent('Forecast: $6,120');
    expect(forecast).toHaveTextContent('Forecast to exceed 100 % by the 22nd');
    unmount();

    renderCard(makeBudget({ forecast: { amount: 3100, low: 2900, high: 3300, exceedsOn: null, exceedsOnForecast: false } }));
    expect(screen.getByRole('group', { name: 'Forecast' })).toHaveTextContent('Forecast: $3,100');
    expect(screen.queryByText(/Forecast to exceed/)).not.toBeInTheDocument();
  });

  it('names the month of the day in a Quarterly budget', () => {
    renderCard(
      makeBudget({
        period: 'Quarterly',
        forecast: { amount: 16000, low: 15000, high: 17000, exceedsOn: '2026-12-23', exceedsOnForecast: true },
      }),
    );
    expect(screen.getByRole('group', { name: 'Forecast' })).toHaveTextContent('Forecast to exceed 100 % by the 23rd of December');
  });

  it('shows no forecast when the server has none', () => {
    renderCard(makeBudget({ forecast: null }));
    expect(screen.queryByRole('group', { name: 'Forecast' })).not.toBeInTheDocument();
  });

  it("labels 'Exceeded' from 100% and counts the triggered alerts", () => {
    const { unmount } = renderCard(makeBudget({ amount: 5000, currentSpent: 4999 }));
    expect(screen.queryByText('Exceeded')).not.toBeInTheDocument();
    expect(screen.getByText('2 alerts triggered')).toBeInTheDocument();
    unmount();
    renderCard(
      makeBudget({ amount: 5000, currentSpent: 5000, alerts: [{ thresholdType: 'Percentage', thresholdValue: 100 }] }),
    );
    expect(screen.getByText('Exceeded')).toBeInTheDocument();
    expect(screen.getByText('1 alert triggered')).toBeInTheDocument();
  });

  it('shows no alert count when no alert is reached', () => {
    renderCard(makeBudget({ amount: 5000, currentSpent: 100 }));
    expect(screen.queryByText(/triggered/)).not.toBeInTheDocument();
  });

  it('marks the percentage alerts on the progress bar', () => {
    renderCard(
      makeBudget({
        alerts: [
          { thresholdType: 'Percentage', thresholdValue: 50 },
          { thresholdType: 'Percentage', thresholdValue: 90 },
          { thresholdType: 'Absolute', thresholdValue: 100 },
        ],
      }),
    );
    const markers = screen.getAllByTestId('alert-milestone');
    expect(markers.map((m) => m.getAttribute('title'))).toEqual(['Alert at 50%', 'Alert at 90%']);
  });

  it('opens the Settings section with the period and the alert list', async () => {
    const { user } = renderCard(makeBudget({ period: 'Quarterly' }));
    expect(screen.queryByText('Alert at')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    expect(screen.getByRole('button', { name: 'Settings' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Period')).toBeInTheDocument();
    expect(screen.getByText('Alert at')).toBeInTheDocument();
    expect(screen.getByText('75%, $4,500')).toBeInTheDocument();
    expect(location()).toBe('/budgets');
  });

  it("shows 'None' when there is no alert", async () => {
    const { user } = renderCard(makeBudget({ alerts: [] }));
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    expect(screen.getByText('None')).toBeInTheDocument();
  });

  it("shows 5 filter chips, then '+N more' which shows the rest", async () => {
    const { user } = renderCard(
      makeBudget({
        filters: [
          { filterType: 'account', filterValues: ['a1', 'a2', 'a3'] },
          { filterType: 'region', filterValues: ['r1', 'r2', 'r3', 'r4'] },
        ],
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByText('Account: a1')).toBeInTheDocument();
    expect(screen.getByText('Region: r2')).toBeInTheDocument();
    expect(screen.queryByText('Region: r3')).not.toBeInTheDocument();
    await user.click(screen.getByText('+2 more'));
    expect(screen.getByText('Region: r4')).toBeInTheDocument();
    expect(screen.queryByText('+2 more')).not.toBeInTheDocument();
  });

  it('shows up to two providers, then +N for the others', () => {
    const providers = (values: string[]) => [{ filterType: 'cloudProvider' as const, filterValues: values }];
    const { unmount } = renderCard(makeBudget({ filters: providers(['aws', 'gcp', 'azure']) }));
    const badge = screen.getByLabelText('Cloud providers');
    expect(within(badge).getByText('AWS')).toBeInTheDocument();
    expect(within(badge).getByText('GCP')).toBeInTheDocument();
    expect(within(badge).queryByText('Azure')).not.toBeInTheDocument();
    expect(within(badge).getByText('+1')).toBeInTheDocument();
    unmount();
    renderCard(makeBudget({ filters: providers(['aws', 'gcp', 'azure', 'oci']) }));
    expect(within(screen.getByLabelText('Cloud providers')).getByText('+2')).toBeInTheDocument();
  });

  it('opens the view when the card is clicked', async () => {
    const { user } = renderCard(makeBudget({ id: 12 }));
    await user.click(screen.getByText('Monthly Budget'));
    expect(location()).toBe('/budgets/view/12');
  });

  it('opens the edit wizard from Edit', async () => {
    const { user } = renderCard(makeBudget({ id: 12 }));
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(location()).toBe('/budgets/edit/12');
  });

  it('disables Edit and Delete for a plain user', async () => {
    const { user } = renderCard(makeBudget(), false);
    expect(screen.getByRole('button', { name: 'Edit' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await user.hover(screen.getByRole('button', { name: 'Edit' }).parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Only owners and admins can manage budgets');
  });

  it('deletes after the exact name is typed, marks the dashboard for refresh and stays on /budgets', async () => {
    sessionStorage.clear();
    const api = mockApi({ 'DELETE /v1/budgets/7': { status: 204 } });
    const { user } = renderCard(makeBudget({ id: 7, name: 'Production AWS' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Budget' });
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Budget name'), 'Production AWS');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('DELETE', '/v1/budgets/7')).toHaveLength(1);
    expect(sessionStorage.getItem('costscope.budgets.needsRefresh')).toBe('true');
    expect(location()).toBe('/budgets');
  });
});
