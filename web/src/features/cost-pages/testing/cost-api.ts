import type { CostAggrRequest, CostAggrResponse, CostRow, SpendResponse } from '@/lib/cost';
import type { MockCall, MockReply } from '@/test/mock-api';
import type { ForecastResponse } from '../api/get-forecast';

/** A test answer of POST /v2/cost/aggr. */
export function aggr(data: Array<Partial<CostRow> & { amount: number }>, summary: Partial<CostAggrResponse['summary']> = {}): { body: CostAggrResponse } {
  const total = data.reduce((sum, row) => sum + row.amount, 0);
  return {
    body: {
      data: data.map((row) => ({ grouping_values: [], grouping_path: '', ...row })),
      summary: { accrued_cost: total, previous_cost: 0, accrued_change: null, currency: 'USD', ...summary },
      total_groups: data.length,
      warnings: [],
      currency: 'USD',
      converted: false,
      otherCurrencies: [],
    },
  };
}

export function spend(costTypes: Record<string, number>, total = 0): { body: SpendResponse } {
  const period = (amount: number) => ({
    total_amount: amount,
    start_time: '2026-10-25T00:00:00.000Z',
    end_time: '2026-11-23T23:59:59.999Z',
    cloud_provider: { AWS: amount, GCP: 0, Azure: 0 },
    cost_type: { Credit: 0, Refund: 0, ...costTypes },
  });
  return { body: { current_period: period(total), previous_period: period(0), comparison: { absolute_change: total, percent_change: null }, warnings: [], currency: 'USD', converted: false, otherCurrencies: [] } };
}

type Rule = [(body: CostAggrRequest) => boolean, { status?: number; body?: unknown }];

/** Answers POST /v2/cost/aggr with the first rule whose test accepts the request body (else 500). */
export function aggrRoutes(...rules: Rule[]): MockReply {
  return (call: MockCall) => {
    const body = call.body as CostAggrRequest;
    const rule = rules.find(([test]) => test(body));
    return rule ? rule[1] : { status: 500, body: { message: `no test answer for ${JSON.stringify(body)}` } };
  };
}

/** The request's dimensions (`group_by_dimensions`, else `group_by`). */
export function dimensionsOf(body: CostAggrRequest): string[] {
  const dims = body.group_by_dimensions;
  if (Array.isArray(dims) && dims.length > 0) return dims as string[];
  if (typeof dims === 'string') return [dims];
  return [body.group_by ?? 'none'];
}

export const startsOn = (day: string) => (body: CostAggrRequest) => (body.start_time ?? '').startsWith(day);
export const groupedBy = (...dims: string[]) => (body: CostAggrRequest) => dimensionsOf(body).join(',') === dims.join(',');

/** A test answer of GET /v1/forecast (docs/ANOMALIES.md "Forecast API and where it shows"). */
export function forecastAnswer(
  overrides: Partial<ForecastResponse> = {},
): { body: ForecastResponse } {
  return {
    body: {
      asOf: '2026-11-22',
      start: '2026-11-01',
      end: '2026-11-30',
      total: { actualToDate: 2300, forecast: 3140, low: 2900, high: 3400 },
      reason: null,
      groups: [],
      warnings: [],
      currency: 'USD',
      converted: false,
      otherCurrencies: [],
      ...overrides,
    },
  };
}

/** Answers GET /v1/forecast by its `period` (month when left out); other periods answer 500. */
export function forecastRoutes(answers: Partial<Record<'month' | 'quarter' | 'year', { status?: number; body?: unknown }>>): MockReply {
  return (call: MockCall) => {
    const period = (call.query.get('period') ?? 'month') as 'month' | 'quarter' | 'year';
    return answers[period] ?? { status: 500, body: { message: `no test answer for period ${period}` } };
  };
}
