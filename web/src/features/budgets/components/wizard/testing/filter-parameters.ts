import type { FilterParameters } from '../../../model/types';

/** A GET /v1/cost/filter-parameters answer, for the wizard's tests. */
export function makeFilterParameters(overrides: Partial<FilterParameters> = {}): FilterParameters {
  return {
    accounts: ['123456789012', '210987654321'],
    accountNames: { '123456789012': 'Production' },
    cloudProviders: ['aws', 'gcp'],
    regions: ['eu-west-1', 'us-east-1'],
    services: ['Amazon Elastic Compute Cloud', 'Amazon Simple Storage Service'],
    tags: { env: ['prod'], team: ['data', 'web'] },
    costTypes: ['Usage'],
    ...overrides,
  };
}
