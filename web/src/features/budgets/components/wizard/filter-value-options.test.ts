import { filterValueOptions } from './filter-value-options';
import { makeFilterParameters } from './testing/filter-parameters';

describe('filter value options', () => {
  const params = makeFilterParameters();

  it('offers providers with their usual spelling', () => {
    expect(filterValueOptions(params, 'cloudProvider')).toEqual({ values: ['AWS', 'GCP'], labels: {} });
  });

  it('offers account ids, labelled with their names where they have one', () => {
    expect(filterValueOptions(params, 'account')).toEqual({
      values: ['123456789012', '210987654321'],
      labels: { '123456789012': 'Production (123456789012)' },
    });
  });

  it('offers regions and services as they are', () => {
    expect(filterValueOptions(params, 'region').values).toEqual(['eu-west-1', 'us-east-1']);
    expect(filterValueOptions(params, 'service').values).toEqual(['Amazon Elastic Compute Cloud', 'Amazon Simple Storage Service']);
  });

  it("offers tags as 'key:value'", () => {
    expect(filterValueOptions(params, 'tag').values).toEqual(['env:prod', 'team:data', 'team:web']);
  });

  it('offers nothing while the parameters are not loaded', () => {
    expect(filterValueOptions(undefined, 'region')).toEqual({ values: [], labels: {} });
  });
});
