import { EMPTY_PROVIDER_OPTIONS, type FilterRule, type ProviderOptions } from '@/lib/cost-filters';
import { addEntryToRules, buildSearchIndex, entryLabel, searchValues, type SearchEntry } from './value-search';

function options(overrides: Partial<ProviderOptions>): ProviderOptions {
  return { ...EMPTY_PROVIDER_OPTIONS, ...overrides };
}

const AWS = options({
  services: ['AmazonEC2', 'AmazonS3', 'AWSLambda'],
  regions: ['us-east-1', 'eu-west-1', 'eu-west-2'],
  accounts: ['111111111111', '222222222222'],
  accountNames: { '111111111111': 'Production', '222222222222': 'Staging' },
  tags: { env: ['prod', 'dev'], team: ['core', 'ec2-ops'] },
  usageTypes: ['BoxUsage:m5.large', 'EBS:VolumeUsage.gp3'],
  chargeTypes: ['Usage', 'Tax'],
});
const GCP = options({
  services: ['Compute Engine'],
  regions: ['europe-west1'],
  accounts: ['shop-prod'],
  tags: { env: ['prod'] },
  usageTypes: ['N2 Instance Core'],
  chargeTypes: ['regular', 'tax'],
});
const ALL = { aws: AWS, gcp: GCP };

const labels = (entries: SearchEntry[]) => entries.map(entryLabel);

describe('buildSearchIndex', () => {
  it('lists a value found for several providers once, with both', () => {
    const index = buildSearchIndex(['aws', 'gcp'], ALL, { chargeTypes: true });
    const prod = index.filter((e) => e.dimension === 'tag_value' && e.value === 'prod');
    expect(prod).toEqual([{ dimension: 'tag_value', value: 'prod', tagKey: 'env', providers: ['aws', 'gcp'] }]);
    expect(index.filter((e) => e.dimension === 'tag_key' && e.value === 'env')[0].providers).toEqual(['aws', 'gcp']);
    expect(index.filter((e) => e.dimension === 'provider').map((e) => e.value)).toEqual(['aws', 'gcp']);
  });

  it('leaves charge types out unless asked', () => {
    const index = buildSearchIndex(['aws', 'gcp'], ALL);
    expect(index.some((e) => e.dimension === 'charge_type')).toBe(false);
    expect(index.filter((e) => e.dimension === 'usage_type').map((e) => e.value)).toEqual(['BoxUsage:m5.large', 'EBS:VolumeUsage.gp3', 'N2 Instance Core']);
  });

  it('skips a provider whose options have not come', () => {
    const index = buildSearchIndex(['aws', 'gcp'], { aws: AWS });
    expect(index.some((e) => e.providers.includes('gcp') && e.dimension !== 'provider')).toBe(false);
  });
});

describe('searchValues', () => {
  const index = buildSearchIndex(['aws', 'gcp'], ALL, { chargeTypes: true });

  it('needs at least two characters (after trimming)', () => {
    expect(searchValues(index, '')).toEqual([]);
    expect(searchValues(index, 'e')).toEqual([]);
    expect(searchValues(index, '  e  ')).toEqual([]);
    expect(searchValues(index, 'eu').length).toBeGreaterThan(0);
  });

  it('matches every dimension, case-insensitively, grouped in order', () => {
    expect(labels(searchValues(index, 'EC2'))).toEqual(['Service · AmazonEC2', 'Tag value · team = ec2-ops']);
    expect(labels(searchValues(index, 'eu-WEST'))).toEqual(['Region · eu-west-1', 'Region · eu-west-2']);
    expect(labels(searchValues(index, 'box'))).toEqual(['Usage type · BoxUsage:m5.large']);
    expect(labels(searchValues(index, 'tax'))).toEqual(['Charge type · tax', 'Charge type · Tax']);
    expect(labels(searchValues(index, 'team'))).toEqual(['Tag key · team', 'Tag · team is missing']);
    expect(labels(searchValues(index, 'prod'))).toEqual(['Account · Production (111111111111)', 'Account · shop-prod', 'Tag value · env = prod']);
  });

  it('finds an account by its id and by its name', () => {
    expect(labels(searchValues(index, '2222'))).toEqual(['Account · Staging (222222222222)']);
    expect(labels(searchValues(index, 'stag'))).toEqual(['Account · Staging (222222222222)']);
  });

  it('finds a provider by its code and by its name', () => {
    expect(labels(searchValues(index, 'gc'))).toEqual(['Cloud provider · GCP']);
    expect(labels(searchValues(index, 'aws'))).toEqual(['Service · AWSLambda', 'Cloud provider · AWS']);
  });

  it('lists at most 8 per dimension, exact and prefix matches first', () => {
    const regions = Array.from({ length: 12 }, (_, i) => `zone-${String(i).padStart(2, '0')}`);
    const many = buildSearchIndex(['aws'], { aws: options({ regions: [...regions, 'us-zone'], services: ['zone'], tags: { zone: ['a'] } }) });
    const found = searchValues(many, 'zone');
    expect(found.filter((e) => e.dimension === 'region')).toHaveLength(8);
    expect(labels(found)).toEqual([
      'Service · zone',
      ...regions.slice(0, 8).map((r) => `Region · ${r}`),
      'Tag key · zone',
      'Tag · zone is missing',
    ]);
    expect(labels(searchValues(many, 'us-zo'))).toEqual(['Region · us-zone']);
  });
});

describe('untagged: "Tag · {key} is missing"', () => {
  const index = buildSearchIndex(['aws', 'gcp'], ALL);

  it('is offered for each tag key, for every provider whose options came', () => {
    expect(index.filter((e) => e.dimension === 'tag_missing')).toEqual([
      { dimension: 'tag_missing', value: 'env', providers: ['aws', 'gcp'] },
      // GCP's lines never carry "team": all of its spend is untagged for it.
      { dimension: 'tag_missing', value: 'team', providers: ['aws', 'gcp'] },
    ]);
    expect(buildSearchIndex(['aws', 'gcp'], { aws: AWS }).find((e) => e.dimension === 'tag_missing')?.providers).toEqual(['aws']);
  });

  it('is found by the key, and by the start of "untagged", "missing" or "no tag"', () => {
    for (const typed of ['untagged', 'Untag', 'missing', 'no tag']) {
      expect(labels(searchValues(index, typed)), typed).toEqual(['Tag · env is missing', 'Tag · team is missing']);
    }
    expect(labels(searchValues(index, 'env'))).toEqual(['Tag key · env', 'Tag · env is missing']);
    // Two letters inside the words find nothing.
    expect(searchValues(index, 'is')).toEqual([]);
    expect(searchValues(index, 'agged')).toEqual([]);
  });

  it('adds "team is missing" (is_empty, no values): a rule per provider, once per rule', () => {
    const missing = index.find((e) => e.dimension === 'tag_missing' && e.value === 'team')!;
    const rules = addEntryToRules([], missing);
    const condition = { field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'is_empty' };
    expect(rules.map((r) => ({ provider: r.provider, conditions: r.conditions.map(({ id: _id, ...c }) => c) }))).toEqual([
      { provider: 'aws', conditions: [condition] },
      { provider: 'gcp', conditions: [condition] },
    ]);
    expect(addEntryToRules(rules, missing)).toEqual(rules);
    // Beside a rule's other conditions; a "key exists" condition of the key is not taken for it.
    const withKey: FilterRule = { id: 'r', provider: 'aws', conditions: [{ id: 'k', field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'equals' }] };
    expect(addEntryToRules([withKey], missing)[0].conditions.map((c) => c.tagValueOperator)).toEqual(['equals', 'is_empty']);
  });
});

describe('addEntryToRules', () => {
  const index = buildSearchIndex(['aws', 'gcp'], ALL, { chargeTypes: true });
  const find = (dimension: SearchEntry['dimension'], value: string) => index.find((e) => e.dimension === dimension && e.value === value)!;
  const plain = (rules: FilterRule[]) => rules.map((r) => ({ provider: r.provider, conditions: r.conditions.map(({ id: _id, ...c }) => c) }));

  it('with no rules: a rule per provider that has the value', () => {
    expect(plain(addEntryToRules([], find('region', 'eu-west-1')))).toEqual([
      { provider: 'aws', conditions: [{ field: 'region', operator: 'equals', value: ['eu-west-1'] }] },
    ]);
    expect(plain(addEntryToRules([], find('tag_value', 'prod')))).toEqual([
      { provider: 'aws', conditions: [{ field: 'tag', operator: 'equals', value: ['prod'], tagKey: 'env', tagValueOperator: 'equals' }] },
      { provider: 'gcp', conditions: [{ field: 'tag', operator: 'equals', value: ['prod'], tagKey: 'env', tagValueOperator: 'equals' }] },
    ]);
    expect(plain(addEntryToRules([], find('tag_key', 'team')))).toEqual([
      { provider: 'aws', conditions: [{ field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'equals' }] },
    ]);
    expect(plain(addEntryToRules([], find('usage_type', 'BoxUsage:m5.large')))).toEqual([
      { provider: 'aws', conditions: [{ field: 'usage_type', operator: 'equals', value: ['BoxUsage:m5.large'] }] },
    ]);
    expect(plain(addEntryToRules([], find('account', '111111111111')))).toEqual([
      { provider: 'aws', conditions: [{ field: 'account', operator: 'equals', value: ['111111111111'] }] },
    ]);
  });

  const awsRule: FilterRule = {
    id: 'r1',
    provider: 'aws',
    conditions: [
      { id: 'c1', field: 'service', operator: 'equals', value: ['AmazonEC2'] },
      { id: 'c2', field: 'region', operator: 'not_equals', value: ['us-east-1'] },
    ],
  };

  it('joins the rules of a provider that has the value; an equals condition of the field takes it beside its own', () => {
    const gcpRule: FilterRule = { id: 'r2', provider: 'gcp', conditions: [] };
    const next = addEntryToRules([awsRule, gcpRule], find('service', 'AmazonS3'));
    expect(plain(next)).toEqual([
      {
        provider: 'aws',
        conditions: [
          { field: 'service', operator: 'equals', value: ['AmazonEC2', 'AmazonS3'] },
          { field: 'region', operator: 'not_equals', value: ['us-east-1'] },
        ],
      },
      { provider: 'gcp', conditions: [] },
    ]);
    expect(next[0].id).toBe('r1');
    // A not-equals condition of the field stays; the equals condition is added beside it.
    expect(plain(addEntryToRules([awsRule], find('region', 'eu-west-1')))[0].conditions).toEqual([
      { field: 'service', operator: 'equals', value: ['AmazonEC2'] },
      { field: 'region', operator: 'not_equals', value: ['us-east-1'] },
      { field: 'region', operator: 'equals', value: ['eu-west-1'] },
    ]);
    // A value the rule has already changes nothing.
    expect(plain(addEntryToRules([awsRule], find('service', 'AmazonEC2')))).toEqual(plain([awsRule]));
  });

  it('a tag value fills a "key exists" condition of its key', () => {
    const withKey: FilterRule = { id: 'r1', provider: 'aws', conditions: [{ id: 'c1', field: 'tag', operator: 'equals', value: [], tagKey: 'env', tagValueOperator: 'equals' }] };
    expect(plain(addEntryToRules([withKey], find('tag_value', 'prod')))[0].conditions).toEqual([
      { field: 'tag', operator: 'equals', value: ['prod'], tagKey: 'env', tagValueOperator: 'equals' },
    ]);
    expect(plain(addEntryToRules([withKey], find('tag_key', 'env')))).toEqual(plain([withKey]));
  });

  it('a value no rule’s provider has: new rules for the providers that have it', () => {
    const gcpRule: FilterRule = { id: 'r2', provider: 'gcp', conditions: [] };
    expect(plain(addEntryToRules([gcpRule], find('region', 'eu-west-1')))).toEqual([
      { provider: 'gcp', conditions: [] },
      { provider: 'aws', conditions: [{ field: 'region', operator: 'equals', value: ['eu-west-1'] }] },
    ]);
  });

  it('a provider: a provider rule unless there is one', () => {
    expect(plain(addEntryToRules([], find('provider', 'gcp')))).toEqual([{ provider: 'gcp', conditions: [] }]);
    expect(addEntryToRules([awsRule], find('provider', 'aws'))).toEqual([awsRule]);
  });

  it('a charge type leaves the rules alone (it goes to Include)', () => {
    expect(addEntryToRules([awsRule], find('charge_type', 'Tax'))).toEqual([awsRule]);
  });
});
