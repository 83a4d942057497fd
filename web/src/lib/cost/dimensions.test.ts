import { describe, expect, it } from 'vitest';
import { GROUP_BY_OPTIONS, MAX_GROUP_BY, applyGroupBySelection, groupByDimensions, rowDimension } from './dimensions';

describe('Group By', () => {
  it('offers Ungrouped and the six dimensions', () => {
    expect(GROUP_BY_OPTIONS.map((o) => o.label)).toEqual([
      'Ungrouped',
      'Account',
      'Region',
      'Service',
      'Cloud Provider',
      'Cost Type',
      'Usage Type',
    ]);
    expect(MAX_GROUP_BY).toBe(4);
  });

  it('clears everything when Ungrouped is chosen after dimensions', () => {
    expect(applyGroupBySelection(['service', 'region'], ['service', 'region', 'none'])).toEqual(['none']);
  });

  it('keeps the chosen dimension when one is chosen while Ungrouped', () => {
    expect(applyGroupBySelection(['none'], ['none', 'service'])).toEqual(['service']);
  });

  it('goes back to Ungrouped when the last dimension is removed', () => {
    expect(applyGroupBySelection(['service'], [])).toEqual(['none']);
  });

  it('keeps at most 4 dimensions and no duplicates', () => {
    expect(
      applyGroupBySelection(['service', 'region', 'account', 'cost_type'], ['service', 'region', 'account', 'cost_type', 'usage_type']),
    ).toEqual(['service', 'region', 'account', 'cost_type']);
    expect(applyGroupBySelection(['service'], ['service', 'service', 'region'])).toEqual(['service', 'region']);
  });

  it('sends no dimension for Ungrouped', () => {
    expect(groupByDimensions(['none'])).toEqual([]);
    expect(groupByDimensions(['service', 'account'])).toEqual(['service', 'account']);
  });
});

describe('rowDimension', () => {
  const row = { amount: 1, grouping_path: '', grouping_values: [] };

  it('reads the dimension named field', () => {
    expect(rowDimension({ ...row, service: 'AmazonEC2' }, 'service')).toBe('AmazonEC2');
    expect(rowDimension({ ...row, cloud_provider: 'aws' }, 'cloud_provider')).toBe('aws');
  });

  it('shows an account by its name when the API has one', () => {
    expect(rowDimension({ ...row, account: '111111111111', account_name: 'Production' }, 'account')).toBe('Production');
    expect(rowDimension({ ...row, account: '111111111111', account_name: null }, 'account')).toBe('111111111111');
  });

  it('falls back to the other field names of §3', () => {
    expect(rowDimension({ service_name: 'Compute Engine' }, 'service')).toBe('Compute Engine');
    expect(rowDimension({ gcp_project_id: 'my-project' }, 'account')).toBe('my-project');
    expect(rowDimension({ azure_subscription_id: 'sub-1' }, 'account')).toBe('sub-1');
    expect(rowDimension({ region_name: 'eu-west-1' }, 'region')).toBe('eu-west-1');
    expect(rowDimension({ provider_name: 'GCP' }, 'cloud_provider')).toBe('GCP');
  });

  it('labels a missing value Unknown and an ungrouped row Total', () => {
    expect(rowDimension({ ...row, region: '' }, 'region')).toBe('Unknown');
    expect(rowDimension(row, 'none')).toBe('Total');
  });
});
