import { makeBudget } from '../testing/make-budget';
import { budgetProviders, FILTER_TYPE_LABEL } from './filters';

describe('FILTER_TYPE_LABEL', () => {
  it('names every filter type', () => {
    expect(FILTER_TYPE_LABEL).toEqual({
      cloudProvider: 'Cloud Provider',
      account: 'Account',
      region: 'Region',
      service: 'Service',
      tag: 'Tag',
    });
  });
});

describe('budgetProviders', () => {
  it('reads the cloudProvider filter, with the usual spelling, each once', () => {
    const budget = makeBudget({
      filters: [
        { filterType: 'account', filterValues: ['123456789012'] },
        { filterType: 'cloudProvider', filterValues: ['aws', 'GCP', 'AWS', 'azure'] },
      ],
    });
    expect(budgetProviders(budget)).toEqual(['AWS', 'GCP', 'Azure']);
  });

  it('is empty without a cloudProvider filter', () => {
    expect(budgetProviders(makeBudget({ filters: [{ filterType: 'region', filterValues: ['us-east-1'] }] }))).toEqual([]);
  });
});
