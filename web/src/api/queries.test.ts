import { createQueryClient } from '@/app/query-client';
import { accountsQuery, customerQuery, meQuery } from './queries';

describe('query caching', () => {
  it('caches GET answers for 60 s by default', () => {
    expect(createQueryClient().getDefaultOptions().queries?.staleTime).toBe(60_000);
    expect(customerQuery().staleTime).toBeUndefined();
    expect(meQuery().staleTime).toBeUndefined();
  });

  it('never caches the cloud account list', () => {
    expect(accountsQuery().staleTime).toBe(0);
  });
});
