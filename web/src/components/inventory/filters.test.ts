import {
  countLabel,
  customWindow,
  defaultFilters,
  earliestDate,
  filterBody,
  pageBody,
  pageSlice,
  presetWindow,
  splitValues,
  tagFilterOf,
} from './filters';
import { filterOptions, formatTime, typeLabel } from './format';
import { COUNTS } from './testing';

const NOW = new Date('2026-11-26T10:00:00Z');

describe('inventory filters', () => {
  it('default to the last 30 days, whole UTC days, in seconds', () => {
    const filters = defaultFilters(NOW);
    expect(filters.window).toEqual({
      preset: 'last30Days',
      startDate: '2026-10-28',
      endDate: '2026-11-26',
      start: Date.UTC(2026, 9, 28) / 1000,
      end: Date.UTC(2026, 10, 27) / 1000 - 1,
    });
    expect(filterBody(filters)).toEqual({ start_time: filters.window.start, end_time: filters.window.end, order_by: 'c_time', order_desc: true });
  });

  it('reach at most 900 days back', () => {
    expect(presetWindow('last900Days', NOW).startDate).toBe(earliestDate(NOW));
    expect(earliestDate(NOW)).toBe('2024-06-10');
    expect(customWindow('2020-01-01', '2026-11-01', NOW)?.startDate).toBe('2024-06-10');
    expect(customWindow('2026-11-01', '2027-01-01', NOW)?.endDate).toBe('2026-11-26');
    expect(customWindow('2026-11-10', '2026-11-01', NOW)).toBeNull();
    expect(customWindow('nope', '2026-11-01', NOW)).toBeNull();
  });

  it('become the POST /v1/resource body', () => {
    const base = defaultFilters(NOW);
    expect(filterBody({ ...base, accounts: ['1'], regions: ['us-east-1'], types: ['AWS::S3::Bucket'] })).toMatchObject({
      account_ids: ['1'],
      regions: ['us-east-1'],
      resource_types: ['AWS::S3::Bucket'],
    });
    expect(filterBody({ ...base, state: 'live' }).d_time).toEqual({ eq: 0 });
    expect(filterBody({ ...base, state: 'deleted' }).d_time).toEqual({ not_eq: 0 });
    expect(filterBody({ ...base, state: 'all' }).d_time).toBeUndefined();
    expect(filterBody({ ...base, search: { mode: 'id', text: 'i-0' } }).search).toBe('i-0');
    expect(filterBody({ ...base, search: { mode: 'attribute', text: 't3.micro', param: 'InstanceType' } })).toMatchObject({
      resource_params: [{ name: 'InstanceType', eq: 't3.micro' }],
    });
    expect(
      filterBody({
        ...base,
        tags: [
          { key: 'env', operator: 'Equal', values: ['prod', 'dev'] },
          { key: 'owner', operator: 'NotExists', values: [] },
        ],
      }).tag,
    ).toEqual([
      { name: 'env', operator: 'Equal', value: ['prod', 'dev'] },
      { name: 'owner', operator: 'NotExists' },
    ]);
    expect(filterBody({ ...base, notTagged: true }).not_tagged).toBe(true);
  });

  it('fetch 200 at a time and page 10 rows from them', () => {
    const filters = defaultFilters(NOW);
    expect(pageBody(filters, 0, 10)).toMatchObject({ count: 200, offset: 0 });
    expect(pageBody(filters, 19, 10)).toMatchObject({ count: 200, offset: 0 });
    expect(pageBody(filters, 20, 10)).toMatchObject({ count: 200, offset: 200 });
    const rows = Array.from({ length: 200 }, (_, i) => i);
    expect(pageSlice(rows, 0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pageSlice(rows, 21, 10)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });

  it('count "200+" above 199', () => {
    expect(countLabel(0)).toBe('0');
    expect(countLabel(199)).toBe('199');
    expect(countLabel(200)).toBe('200+');
    expect(countLabel(12_000)).toBe('200+');
  });

  it('split tag values by commas, trimmed, empties dropped', () => {
    expect(splitValues(' prod, ,dev ,')).toEqual(['prod', 'dev']);
  });

  it('read Equal / Not Equal without a value as Exists / Not Exists, and drop values of valueless operators', () => {
    expect(tagFilterOf('env', 'Equal', ' prod, dev')).toEqual({ key: 'env', operator: 'Equal', values: ['prod', 'dev'] });
    expect(tagFilterOf('env', 'Equal', ' , ')).toEqual({ key: 'env', operator: 'Exists', values: [] });
    expect(tagFilterOf('env', 'NotEqual', '')).toEqual({ key: 'env', operator: 'NotExists', values: [] });
    expect(tagFilterOf('env', 'Empty', 'x')).toEqual({ key: 'env', operator: 'Empty', values: [] });
  });

  it('offer the accounts, regions and types discovery found, narrowed by the choice', () => {
    expect(filterOptions(COUNTS, { accounts: [], regions: [], types: [] })).toEqual({
      accounts: ['111111111111', '222222222222'],
      regions: ['ap-south-1', 'eu-west-1', 'us-east-1'],
      types: ['AWS::EC2::Instance', 'AWS::EC2::Volume', 'AWS::Lambda::Function', 'AWS::S3::Bucket'],
    });
    expect(filterOptions(COUNTS, { accounts: ['222222222222'], regions: [], types: [] })).toEqual({
      accounts: ['111111111111', '222222222222'],
      regions: ['ap-south-1'],
      types: ['AWS::Lambda::Function'],
    });
    expect(filterOptions(COUNTS, { accounts: [], regions: ['eu-west-1'], types: [] }).types).toEqual(['AWS::EC2::Volume']);
    expect(filterOptions(undefined, { accounts: ['9'], regions: [], types: [] }).accounts).toEqual(['9']);
  });

  it('format times in UTC and type names', () => {
    expect(formatTime(Date.UTC(2026, 10, 20, 14, 3) / 1000)).toBe('2026-11-20 14:03 UTC');
    expect(formatTime(0)).toBe('');
    expect(typeLabel('AWS::EC2::Instance')).toBe('EC2 Instance');
    expect(typeLabel('custom')).toBe('custom');
  });
});
