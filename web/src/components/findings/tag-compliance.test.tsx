import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { monthLabel, TAG_COMPLIANCE_MESSAGES, TagCompliance } from './tag-compliance';
import { complianceAnswer } from './testing';

function setup(reply: MockReply = { body: complianceAnswer() }, standardTagCount?: number) {
  signInAs(makeUser());
  const api = mockApi({ ...appRoutes(), 'GET /v1/tags/compliance': reply });
  return { ...api, ...renderWithProviders(<TagCompliance standardTagCount={standardTagCount} />) };
}

function rows(table: HTMLElement): string[] {
  return within(table).getAllByRole('row').map((row) => row.textContent ?? '');
}

describe('Tag compliance', () => {
  it('lists violations with the resource, the standard tag, the missing or invalid value and the cost', async () => {
    const { callsTo } = setup();
    const section = screen.getByRole('region', { name: 'Tag compliance' });
    const table = await within(section).findByRole('table', { name: 'Standard tag violations' });
    expect(rows(table)).toEqual([
      'ResourceStandard tagProblemCost (30 days)',
      'EC2 Instancei-0abcAccount 111111111111 · us-east-1envMissing$42.50',
      'S3 Bucketmy-bucketAccount 222222222222 · eu-west-1envInvalid value “prd”no billed cost found',
    ]);
    expect(within(table).getByRole('link', { name: 'i-0abc' })).toHaveAttribute(
      'href',
      '/inventory?account=111111111111&region=us-east-1&type=AWS%3A%3AEC2%3A%3AInstance&resource=i-0abc',
    );
    expect(within(section).getByText('The 2 most costly of 5 violations are listed.')).toBeInTheDocument();
    expect(within(section).getByRole('group', { name: 'Standard tag violations' })).toHaveTextContent('5');
    expect(within(section).getByRole('group', { name: 'Cost of resources with violations' })).toHaveTextContent('$60.002026-10-27 to 2026-11-26');
    expect(callsTo('GET', '/v1/tags/compliance')).toHaveLength(1);
  });

  it('shows the untagged share of spend per month, oldest first, and this month in a figure', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Untagged spend by month' });
    expect(rows(table)).toEqual([
      'MonthTotal spendUntagged resourcesNot in the inventoryUntagged share',
      'Oct 2026$1,000.00$150.00$50.0020.0%',
      'Nov 2026$400.00$40.00$10.0012.5%',
    ]);
    expect(within(table).getByRole('progressbar', { name: 'Untagged share of Oct 2026' })).toHaveAttribute('aria-valuenow', '20');
    expect(screen.getByRole('group', { name: 'Untagged spend this month' })).toHaveTextContent('12.5%$50.00 of $400.00');
  });

  it('writes "no spend" for a month without spend and says when no month has any', async () => {
    const months = [
      { month: '2026-10', total_cost: 0, untagged_cost: 0, not_in_inventory_cost: 0, untagged_share: null },
      { month: '2026-11', total_cost: 10, untagged_cost: 1, not_in_inventory_cost: 0, untagged_share: 0.1 },
    ];
    const first = setup({ body: complianceAnswer({ untagged_by_month: months }) });
    const table = await screen.findByRole('table', { name: 'Untagged spend by month' });
    expect(rows(table)[1]).toBe('Oct 2026$0.00$0.00$0.00no spend');
    first.unmount();

    setup({ body: complianceAnswer({ untagged_by_month: [months[0]] }) });
    expect(await screen.findByText(TAG_COMPLIANCE_MESSAGES.noSpend)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Untagged spend this month' })).toHaveTextContent('–');
  });

  it('says in words when nothing breaks a standard tag, and when no standard tag is defined', async () => {
    const none = setup({ body: complianceAnswer({ violations: [], total_violations: 0, violations_cost: 0 }) }, 2);
    expect(await screen.findByText(TAG_COMPLIANCE_MESSAGES.noViolations)).toBeInTheDocument();
    none.unmount();

    setup({ body: complianceAnswer({ violations: [], total_violations: 0, violations_cost: 0 }) }, 0);
    expect(await screen.findByText(TAG_COMPLIANCE_MESSAGES.noStandardTags)).toBeInTheDocument();
  });

  it('writes amounts in the tenant currency and notes other currencies', async () => {
    setup({ body: complianceAnswer({ currency: 'EUR', other_currencies: [{ currency: 'USD', amount: 7 }] }) });
    const table = await screen.findByRole('table', { name: 'Standard tag violations' });
    expect(rows(table)[1]).toContain('€42.50');
    expect(screen.getByText('Amounts in other currencies are left out of these figures: $7.00')).toBeInTheDocument();
  });

  it('says so when tag compliance cannot be loaded, with the server message when there is one', async () => {
    const first = setup({ status: 500, body: {} });
    expect(await screen.findByRole('alert')).toHaveTextContent(TAG_COMPLIANCE_MESSAGES.loadFailed);
    first.unmount();

    setup({ status: 422, body: { message: 'months must be between 1 and 24' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('months must be between 1 and 24');
  });

  it('reloads when the standard tags change (the Tags page invalidates its standard-tag key)', async () => {
    const { callsTo, queryClient } = setup();
    await screen.findByRole('table', { name: 'Standard tag violations' });
    await queryClient.invalidateQueries({ queryKey: ['tags', 'standard'] });
    await waitFor(() => expect(callsTo('GET', '/v1/tags/compliance')).toHaveLength(2));
  });

  it('labels months', () => {
    expect(monthLabel('2026-01')).toBe('Jan 2026');
    expect(monthLabel('garbage')).toBe('garbage');
  });
});
