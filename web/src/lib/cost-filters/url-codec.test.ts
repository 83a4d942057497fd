import { decodeFilters, encodeFilters } from './url-codec';
import { flatFiltersToRules, rulesToFlatFilters } from './rules';
import { NOW, SAMPLE_RULES as rules, withoutIds } from './url-codec.fixture';

describe('compact filters in the URL', () => {
  it('writes readable rules', () => {
    expect(encodeFilters(rulesToFlatFilters(rules, NOW))).toBe(
      'aws(service=AmazonEC2|AmazonS3;region!=us-east-1;tag:env=prod;tag:team)~' +
        'gcp(account=my%20%28odd%29%20project%7E1%2C%20%22x%22%7Cy%3Dz%3B%21;tag:cost%3Acenter!=a%20b)~azure',
    );
  });

  it('reads back the same rules (round trip)', () => {
    const flat = rulesToFlatFilters(rules, NOW);
    const back = decodeFilters(encodeFilters(flat), NOW);
    expect(withoutIds(flatFiltersToRules(back))).toEqual(withoutIds(flatFiltersToRules(flat)));
    expect(encodeFilters(back)).toBe(encodeFilters(flat));
  });

  it('leaves out what it cannot read', () => {
    const back = decodeFilters('aws(colour=red;service=AmazonEC2;region=)~(~', NOW);
    expect(withoutIds(flatFiltersToRules(back))).toEqual([
      { provider: 'aws', conditions: [{ field: 'service', operator: 'equals', value: ['AmazonEC2'] }] },
    ]);
  });

  it('keeps any provider by name, encoded', () => {
    const flat = rulesToFlatFilters(
      [
        { id: 'o', provider: 'Oracle', conditions: [{ id: 'c', field: 'service', operator: 'equals', value: ['Block Storage'] }] },
        { id: 'm', provider: 'MongoDB (Atlas)', conditions: [] },
      ],
      NOW,
    );
    const text = encodeFilters(flat);
    expect(text).toBe('Oracle(service=Block%20Storage)~MongoDB%20%28Atlas%29');
    expect(withoutIds(flatFiltersToRules(decodeFilters(text, NOW)))).toEqual([
      { provider: 'Oracle', conditions: [{ field: 'service', operator: 'equals', value: ['Block Storage'] }] },
      { provider: 'MongoDB (Atlas)', conditions: [] },
    ]);
    // A cloud's code in any case is the code.
    expect(withoutIds(flatFiltersToRules(decodeFilters('AWS', NOW)))).toEqual([{ provider: 'aws', conditions: [] }]);
  });

  it('keeps a rule for any provider beside a provider rule, ORed', () => {
    const back = decodeFilters('aws(region=us-east-1)~*(service=AmazonS3)', NOW);
    expect(back.map((f) => [f.field, f.logic])).toEqual([
      ['cloud_provider', 'and'],
      ['region', 'and'],
      ['service_name', 'or'],
    ]);
    expect(encodeFilters(back)).toBe('aws(region=us-east-1)~*(service=AmazonS3)');
    expect(decodeFilters('*~*()', NOW)).toEqual([]);
  });

  it('writes a tag that is missing or present as tag:{key}:missing / :present and reads it back', () => {
    const flat = rulesToFlatFilters(
      [
        {
          id: 'r',
          provider: 'aws',
          conditions: [
            { id: 'a', field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'is_empty' },
            { id: 'b', field: 'tag', operator: 'equals', value: [], tagKey: 'cost:center', tagValueOperator: 'is_not_empty' },
          ],
        },
      ],
      NOW,
    );
    const text = encodeFilters(flat);
    expect(text).toBe('aws(tag:team:missing;tag:cost%3Acenter:present)');
    expect(withoutIds(flatFiltersToRules(decodeFilters(text, NOW)))).toEqual([
      {
        provider: 'aws',
        conditions: [
          { field: 'tag', operator: 'equals', value: [], tagKey: 'team', tagValueOperator: 'is_empty' },
          { field: 'tag', operator: 'equals', value: [], tagKey: 'cost:center', tagValueOperator: 'is_not_empty' },
        ],
      },
    ]);
    // A key named "missing" is a key (the key exists).
    expect(withoutIds(flatFiltersToRules(decodeFilters('aws(tag:missing)', NOW)))).toEqual([
      { provider: 'aws', conditions: [{ field: 'tag', operator: 'equals', value: [], tagKey: 'missing', tagValueOperator: 'equals' }] },
    ]);
  });
});
