import { Route, Routes, useLocation } from 'react-router';
import { makeAccount, makeUser } from '@/test/fixtures';
import { mockApi, type MockCall, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { AdvancedCostPage } from '../components/advanced-cost-page';
import { SavedReportsPage } from '../components/saved-reports-page';

export const NOW = new Date('2026-11-23T15:00:00.000Z');

function SearchProbe() {
  const location = useLocation();
  return <div data-testid="search">{`${location.pathname}${location.search}`}</div>;
}

export const summary = { accrued_cost: 1234.56, accrued_change: 12.5, previous_cost: 1097.39, currency: 'USD' };

/**
 * Answers the screen's two POST /v2/cost/aggr calls: the table's (no interval) with two
 * service × region rows, the chart's with two days from the start of the asked range, per
 * service when grouped by service and as a total otherwise.
 */
export function aggrReply(call: MockCall) {
  const body = call.body as { interval?: string; group_by_dimensions?: string[]; start_time: string };
  const dims = body.group_by_dimensions ?? [];
  // Two days from the start of the asked range.
  const first = body.start_time.slice(0, 10);
  const second = new Date(Date.parse(body.start_time) + 86_400_000).toISOString().slice(0, 10);
  if (!body.interval) {
    return {
      body: {
        data: [
          { service: 'AmazonEC2', region: 'us-east-1', amount: 1000, grouping_values: ['AmazonEC2', 'us-east-1'], grouping_path: '' },
          { service: '=cmd|evil', region: 'eu-west-1', amount: 234.56, grouping_values: ['=cmd|evil', 'eu-west-1'], grouping_path: '' },
        ],
        summary,
        total_groups: 2,
        warnings: [],
      },
    };
  }
  if (dims[0] === 'service') {
    return {
      body: {
        data: [
          { timestamp: first, service: 'AmazonEC2', amount: 600, grouping_values: ['AmazonEC2'], grouping_path: 'AmazonEC2' },
          { timestamp: second, service: 'AmazonEC2', amount: 400, grouping_values: ['AmazonEC2'], grouping_path: 'AmazonEC2' },
          { timestamp: second, service: '=cmd|evil', amount: 234.56, grouping_values: ['=cmd|evil'], grouping_path: '=cmd|evil' },
        ],
        summary,
        total_groups: 2,
        warnings: [],
      },
    };
  }
  return {
    body: {
      data: [
        { timestamp: first, amount: 1000, grouping_values: [], grouping_path: '' },
        { timestamp: second, amount: 234.56, grouping_values: [], grouping_path: '' },
      ],
      summary,
      total_groups: 1,
      warnings: [],
    },
  };
}

/** The two cost routes, with the API mocked, and a probe of the path and query string. */
export function setup(route = '/cost/advanced', extra: Record<string, MockReply> = {}, { embedded = false } = {}) {
  signInAs(makeUser());
  const api = mockApi({
    'GET /v1/account': { body: [makeAccount()] },
    'POST /v2/cost/aggr': aggrReply,
    'POST /v2/cost/filters': { body: { accounts: [], regions: [], services: [], tags: {}, cloud_providers: ['aws'], cost_type: [], warnings: [] } },
    ...extra,
  });
  const rendered = renderWithProviders(
    <>
      <Routes>
        <Route path="/cost/advanced" element={<AdvancedCostPage embedded={embedded} />} />
        <Route path="/cost/report" element={<SavedReportsPage />} />
      </Routes>
      <SearchProbe />
    </>,
    { route },
  );
  const aggrBodies = () => api.callsTo('POST', '/v2/cost/aggr').map((c) => c.body as Record<string, unknown>);
  return { ...api, ...rendered, aggrBodies };
}


/** The path and query string the page is at. */
export function currentUrl() {
  return document.querySelector('[data-testid="search"]')?.textContent;
}
