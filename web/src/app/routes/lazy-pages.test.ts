import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The pages' chunks themselves are not what is tested: each import answers an empty module.
for (const feature of ['mission-control', 'cost-pages', 'cost-analysis', 'compare', 'cost-query', 'budgets', 'anomalies', 'inventory', 'tags']) {
  vi.doMock(`@/features/${feature}`, () => ({}));
}

const prefetchBasicCost = vi.fn();
vi.doMock('@/features/cost-pages/prefetch', () => ({ prefetchBasicCost }));

const { prefetchDataOf, preloadPageOf } = await import('./lazy-pages');

describe('preloadPageOf', () => {
  it('answers whether a landing address draws a cost chart', () => {
    for (const path of ['/', '/dashboard', '/cost', '/cost/basic', '/cost/advanced', '/cost/compare', '/budgets/view/4', '/anomalies/7']) {
      expect(preloadPageOf(path), path).toBe(true);
    }
    for (const path of ['/cost/query', '/inventory', '/tags']) {
      expect(preloadPageOf(path), path).toBe(false);
    }
  });

  it('knows nothing of other addresses', () => {
    for (const path of ['/settings/users', '/cost/unknown', '/welcome']) {
      expect(preloadPageOf(path), path).toBe(false);
    }
  });
});

describe('prefetchDataOf', () => {
  const queryClient = new QueryClient();
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

  beforeEach(() => prefetchBasicCost.mockClear());

  it("fetches Basic Cost's answers once the session is restored", async () => {
    let restore: (session: unknown) => void = () => undefined;
    prefetchDataOf('/cost/basic', queryClient, new Promise((resolve) => (restore = resolve)));
    await settled();
    expect(prefetchBasicCost).not.toHaveBeenCalled();
    restore({ user: { id: 1 } });
    await vi.waitFor(() => expect(prefetchBasicCost).toHaveBeenCalledWith(queryClient));
  });

  it('fetches nothing when the session could not be restored, or for another page', async () => {
    prefetchDataOf('/cost/basic', queryClient, Promise.resolve(null));
    prefetchDataOf('/cost/advanced', queryClient, Promise.resolve({ user: { id: 1 } }));
    prefetchDataOf('/settings/users', queryClient, Promise.resolve({ user: { id: 1 } }));
    await settled();
    expect(prefetchBasicCost).not.toHaveBeenCalled();
  });
});
