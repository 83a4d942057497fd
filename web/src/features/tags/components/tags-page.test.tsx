import { screen, waitFor, within } from '@testing-library/react';
import { TAG_COMPLIANCE_MESSAGES } from '@/components/findings';
import { complianceAnswer } from '@/components/findings/testing';
import { inventoryRoutes } from '@/components/inventory/testing';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { TagsPage } from './tags-page';
import { everyDay } from './trend-chart';

const NOW = new Date('2026-11-26T10:00:00Z');

const OVERVIEW: Record<string, MockReply> = {
  'POST /v1/resource/stats': {
    body: {
      live: 40,
      deleted: 5,
      tagged: 30,
      untagged: 10,
      by_type: [
        { resource_type: 'AWS::EC2::Instance', live: 25 },
        { resource_type: 'AWS::S3::Bucket', live: 15 },
      ],
      by_account: [{ account_id: '111111111111', live: 40 }],
    },
  },
  'POST /v1/resource/trend': {
    body: [
      { date: '2026-11-24', live: 35, by_type: {} },
      { date: '2026-11-25', live: 38, by_type: {} },
      { date: '2026-11-26', live: 40, by_type: {} },
    ],
  },
  'GET /tags/standard/stats': {
    body: [{ id: 1, key: 'env', compliant: 20, missing: 15, invalid: 5, missing_cost: 120.5, invalid_cost: 9 }],
  },
  'GET /tags/standard': { body: [] },
  'GET /v1/tags/compliance': { body: complianceAnswer() },
};

function setup(routes: Record<string, MockReply> = {}) {
  signInAs(makeUser());
  const api = mockApi({ ...appRoutes(), ...inventoryRoutes(), ...OVERVIEW, ...routes });
  return { ...api, ...renderWithProviders(<TagsPage now={NOW} />) };
}

describe('resource trend days', () => {
  it('fills the days the server left out (none live) with zero', () => {
    const points = [
      { date: '2026-11-24', live: 3, by_type: { 'AWS::S3::Bucket': 3 } },
      { date: '2026-11-26', live: 4, by_type: { 'AWS::S3::Bucket': 4 } },
    ];
    expect(everyDay(points, '2026-11-23', '2026-11-26').map((point) => [point.date, point.live])).toEqual([
      ['2026-11-23', 0],
      ['2026-11-24', 3],
      ['2026-11-25', 0],
      ['2026-11-26', 4],
    ]);
  });
});

describe('Tags page (spec 1 §2.8)', () => {
  it('opens on Overview: resource figures, tagged vs untagged, the trend, compliance per standard tag', async () => {
    const { callsTo } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Tags' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Overview', selected: true })).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: 'Live resources' })).toHaveTextContent('40');
    expect(screen.getByRole('group', { name: 'Deleted resources' })).toHaveTextContent('5');
    expect(screen.getByRole('group', { name: 'Tagged' })).toHaveTextContent('Tagged3075.0% of live resources');
    expect(screen.getByRole('group', { name: 'Untagged' })).toHaveTextContent('Untagged1025.0% of live resources');
    // Every day of the last 30, those the server left out (none live) at zero.
    expect(await screen.findByRole('img', { name: 'Live resources from 2026-10-28 to 2026-11-26: 0 to 40' })).toBeInTheDocument();
    expect(callsTo('POST', '/v1/resource/trend')[0].body).toEqual({
      start_time: Date.UTC(2026, 9, 28) / 1000,
      end_time: Date.UTC(2026, 10, 27) / 1000 - 1,
    });
    expect(screen.getByRole('table', { name: 'Live resources by type' })).toHaveTextContent('EC2 Instance25S3 Bucket15');
    const compliance = await screen.findByRole('table', { name: 'Standard tag compliance' });
    expect(within(compliance).getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      'Tag Key',
      'Compliant',
      'Missing',
      'Invalid Value',
      'Cost Missing',
      'Cost Invalid',
    ]);
    await waitFor(() => expect(within(compliance).getAllByRole('row')[1]).toHaveTextContent('env20155$120.50$9.00'));
  });

  it("writes the standard tags' costs in the currency the compliance answer names", async () => {
    setup({ 'GET /v1/tags/compliance': { body: complianceAnswer({ currency: 'EUR' }) } });
    const compliance = await screen.findByRole('table', { name: 'Standard tag compliance' });
    await waitFor(() => expect(within(compliance).getAllByRole('row')[1]).toHaveTextContent('env20155€120.50€9.00'));
  });

  it('shows tag compliance on Overview: violations with their cost and the untagged share of spend per month', async () => {
    const { callsTo } = setup();
    const section = await screen.findByRole('region', { name: 'Tag compliance' });
    const violations = await within(section).findByRole('table', { name: 'Standard tag violations' });
    expect(within(violations).getAllByRole('row')[1]).toHaveTextContent('EC2 Instancei-0abcAccount 111111111111 · us-east-1envMissing$42.50');
    expect(within(section).getByRole('table', { name: 'Untagged spend by month' })).toHaveTextContent('Nov 2026$400.00$40.00$10.0012.5%');
    expect(callsTo('GET', '/v1/tags/compliance')).toHaveLength(1);
  });

  it('says when no standard tag is defined and when the overview calls fail', async () => {
    setup({
      'GET /tags/standard/stats': { body: [] },
      'POST /v1/resource/stats': { status: 500 },
      'POST /v1/resource/trend': { body: [] },
      'GET /v1/tags/compliance': { body: complianceAnswer({ violations: [], total_violations: 0, violations_cost: 0 }) },
    });
    expect(await screen.findByText(TAG_COMPLIANCE_MESSAGES.noStandardTags)).toBeInTheDocument();
    expect(
      await screen.findByText('No standard tags defined yet. Use Standard Tags to define the tags every resource should carry.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Server error occurred')).toBeInTheDocument();
    expect(screen.getByText('No resources discovered in this period')).toBeInTheDocument();
  });

  it('shows the inventory with Show Untagged, the tag row open and a Tags column on Tags Search', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('tab', { name: 'Tags Search' }));
    const table = await screen.findByRole('table', { name: 'Resources' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toContain('Tags');
    expect(screen.getByRole('checkbox', { name: 'Show Untagged' })).not.toBeChecked();
    expect(screen.getByRole('group', { name: 'Tag filters' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tags' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('opens the Standard Tags Manager in a large dialog', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Standard Tags' }));
    const dialog = await screen.findByRole('dialog', { name: 'Standard Tags Manager' });
    expect(await within(dialog).findByText('No standard tags found')).toBeInTheDocument();
    expect(dialog.closest('.MuiDialog-paper') ?? dialog).toHaveClass('MuiDialog-paperWidthLg');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Standard Tags Manager' })).not.toBeInTheDocument());
  });
});
