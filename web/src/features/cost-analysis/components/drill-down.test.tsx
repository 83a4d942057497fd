import { screen, waitFor, within } from '@testing-library/react';
import type { MockCall } from '@/test/mock-api';
import { NOW, currentUrl, setup, summary } from '../testing/render-cost-analysis';

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});

type Body = { interval?: string; group_by_dimensions?: string[]; start_time: string };

/** Rows per service, or per usage type once drilled (the chart's two days, the table's totals). */
function drillReply(call: MockCall) {
  const body = call.body as Body;
  const dim = body.group_by_dimensions?.[0] ?? 'none';
  const day = body.start_time.slice(0, 10);
  const values: Record<string, Array<[string, number]>> = {
    service: [
      ['AmazonEC2', 1000],
      ['AmazonS3', 234.56],
    ],
    usage_type: [
      ['BoxUsage:m5.large', 700],
      ['EBS:VolumeUsage', 300],
    ],
  };
  const rows = (values[dim] ?? [['', 1234.56]]).map(([value, amount]) => ({
    ...(dim === 'none' ? {} : { [dim]: value }),
    ...(body.interval ? { timestamp: day } : {}),
    amount,
    grouping_values: dim === 'none' ? [] : [value],
    grouping_path: value,
  }));
  return { body: { data: rows, summary, total_groups: rows.length, warnings: [] } };
}

const groupTable = () => screen.findByRole('table', { name: 'Cost by group' });
const crumbs = () => within(screen.getByRole('navigation', { name: 'Drill-down path' })).getAllByRole('listitem').map((li) => li.textContent);

describe('drill-down on Advanced Cost (docs/ANALYST-FLOW.md)', () => {
  it('a row click adds the filter chip, groups by the next dimension, shows the breadcrumb; a crumb steps back', async () => {
    const { user, aggrBodies } = setup('/cost/advanced?period=thisMonth&group=service', { 'POST /v2/cost/aggr': drillReply });
    const table = await groupTable();
    expect(screen.queryByRole('navigation', { name: 'Drill-down path' })).not.toBeInTheDocument();
    // The chart's series are named the same way (its data table, for keyboard users).
    expect(within(screen.getByRole('table', { name: 'Advanced cost chart data' })).getByRole('button', { name: 'Drill into AmazonEC2' })).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Drill into AmazonEC2' }));

    expect(within(screen.getByRole('list', { name: 'Applied filters' })).getByText('Service equals AmazonEC2')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Group By' })).toHaveTextContent('Usage Type');
    expect(crumbs()).toEqual(['All costs', 'Service: AmazonEC2']);
    expect(currentUrl()).toBe(
      '/cost/advanced?period=thisMonth&view=daily&group=usage_type&include=Usage,regular&filters=*(service=AmazonEC2)&drill=service:AmazonEC2',
    );
    await waitFor(
      () => expect(within(screen.getByRole('table', { name: 'Cost by group' })).getByRole('button', { name: 'Drill into BoxUsage:m5.large' })).toBeInTheDocument(),
      { timeout: 4000 },
    );
    expect(aggrBodies().at(-1)).toMatchObject({
      group_by_dimensions: ['usage_type'],
      filters: [{ operator: 'AND', services: [{ operator: 'equals', values: ['AmazonEC2'] }] }],
    });

    // Keyboard: Enter on the row's button drills the last level (the grouping stays).
    within(await groupTable()).getByRole('button', { name: 'Drill into BoxUsage:m5.large' }).focus();
    await user.keyboard('{Enter}');
    expect(crumbs()).toEqual(['All costs', 'Service: AmazonEC2', 'Usage type: BoxUsage:m5.large']);
    expect(screen.getByRole('combobox', { name: 'Group By' })).toHaveTextContent('Usage Type');
    expect(currentUrl()).toContain('&drill=service:AmazonEC2~usage_type:BoxUsage%3Am5.large');

    // Back one crumb: the usage type condition goes, the grouping is the one it had.
    await user.click(screen.getByRole('button', { name: 'Service: AmazonEC2' }));
    expect(crumbs()).toEqual(['All costs', 'Service: AmazonEC2']);
    expect(screen.queryByText('Usage Type equals BoxUsage:m5.large')).not.toBeInTheDocument();

    // Back to all costs: no filters, grouped by service again, no breadcrumb, no drill in the link.
    await user.click(screen.getByRole('button', { name: 'All costs' }));
    expect(screen.queryByRole('navigation', { name: 'Drill-down path' })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Applied filters' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Group By' })).toHaveTextContent('Service');
    expect(currentUrl()).toBe('/cost/advanced?period=thisMonth&view=daily&group=service&include=Usage,regular');
    // The first answer again (cached): the services.
    await waitFor(
      () => expect(within(screen.getByRole('table', { name: 'Cost by group' })).getByRole('button', { name: 'Drill into AmazonEC2' })).toBeInTheDocument(),
      { timeout: 4000 },
    );
  });

  it('a shared drill link opens drilled, with its breadcrumb', async () => {
    setup('/cost/advanced?group=usage_type&filters=*(service=AmazonEC2)&drill=service:AmazonEC2', { 'POST /v2/cost/aggr': drillReply });
    await groupTable();
    expect(crumbs()).toEqual(['All costs', 'Service: AmazonEC2']);
    expect(screen.getByText('Service equals AmazonEC2')).toBeInTheDocument();
  });

  it('a drill link whose conditions were edited by hand keeps them and drops the crumb', async () => {
    setup('/cost/advanced?group=usage_type&filters=aws(service=AmazonS3)&drill=service:AmazonEC2', { 'POST /v2/cost/aggr': drillReply });
    await groupTable();
    expect(screen.queryByRole('navigation', { name: 'Drill-down path' })).not.toBeInTheDocument();
    expect(screen.getByText('Service equals AmazonS3')).toBeInTheDocument();
  });
});
