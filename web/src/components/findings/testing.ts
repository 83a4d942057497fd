/** Test data of the savings and tag-compliance calls (tests only). */
import type { Recommendation, SavingsResponse, TagComplianceResponse, TagViolation } from './types';

export function makeRecommendation(overrides: Partial<Recommendation> = {}): Recommendation {
  return {
    id: 'unattached_volume:111111111111:us-east-1:vol-0aaa',
    kind: 'unattached_volume',
    title: 'EBS volume vol-0aaa is not attached',
    evidence: 'Unattached since 2026-10-01 (gp3, 100 GiB); its own billed cost of the last 30 days is $8.00.',
    action: 'Snapshot it if you may need the data, then delete the volume.',
    monthly_saving: 8,
    currency: 'USD',
    dismissed: false,
    resource: { resource_id: 'vol-0aaa', resource_type: 'AWS::EC2::Volume', region: 'us-east-1', account_id: '111111111111' },
    ...overrides,
  };
}

export const RECOMMENDATIONS: Recommendation[] = [
  makeRecommendation(),
  makeRecommendation({
    id: 'unassociated_elastic_ip:111111111111:eu-west-1:eipalloc-1',
    kind: 'unassociated_elastic_ip',
    title: 'Elastic IP 203.0.113.5 is not associated',
    evidence: 'Not associated with an instance or network interface; no line item names it, so no saving is estimated.',
    action: 'Release the address if nothing needs it.',
    monthly_saving: null,
    resource: { resource_id: 'eipalloc-1', resource_type: 'AWS::EC2::EIP', region: 'eu-west-1', account_id: '111111111111' },
  }),
  makeRecommendation({
    id: 'gp2_volume:222222222222:us-east-1:vol-0bbb',
    kind: 'gp2_volume',
    title: 'EBS volume vol-0bbb is gp2',
    evidence: 'gp3 costs 20 % less per GB than gp2; 20 % of its own billed cost of $15.00.',
    action: 'Modify the volume to gp3 (no downtime).',
    monthly_saving: 3,
    dismissed: true,
    resource: { resource_id: 'vol-0bbb', resource_type: 'AWS::EC2::Volume', region: 'us-east-1', account_id: '222222222222' },
  }),
];

export function savingsAnswer(recommendations: Recommendation[] = RECOMMENDATIONS, overrides: Partial<SavingsResponse> = {}): SavingsResponse {
  return {
    recommendations,
    total_monthly_saving: recommendations.filter((r) => !r.dismissed).reduce((sum, r) => sum + (r.monthly_saving ?? 0), 0),
    currency: 'USD',
    cost_period: { start_time: Date.UTC(2026, 9, 27) / 1000, end_time: Date.UTC(2026, 10, 26) / 1000 },
    other_currencies: [],
    ...overrides,
  };
}

export function makeViolation(overrides: Partial<TagViolation> = {}): TagViolation {
  return {
    standard_tag_id: 1,
    key: 'env',
    kind: 'missing',
    value: null,
    cost: 42.5,
    resource: { resource_id: 'i-0abc', resource_type: 'AWS::EC2::Instance', region: 'us-east-1', account_id: '111111111111' },
    ...overrides,
  };
}

export function complianceAnswer(overrides: Partial<TagComplianceResponse> = {}): TagComplianceResponse {
  return {
    violations: [
      makeViolation(),
      makeViolation({
        kind: 'invalid_value',
        value: 'prd',
        cost: null,
        resource: { resource_id: 'my-bucket', resource_type: 'AWS::S3::Bucket', region: 'eu-west-1', account_id: '222222222222' },
      }),
    ],
    total_violations: 5,
    violations_cost: 60,
    cost_period: { start_time: Date.UTC(2026, 9, 27) / 1000, end_time: Date.UTC(2026, 10, 26) / 1000 },
    untagged_by_month: [
      { month: '2026-10', total_cost: 1000, untagged_cost: 150, not_in_inventory_cost: 50, untagged_share: 0.2 },
      { month: '2026-11', total_cost: 400, untagged_cost: 40, not_in_inventory_cost: 10, untagged_share: 0.125 },
    ],
    currency: 'USD',
    other_currencies: [],
    ...overrides,
  };
}
