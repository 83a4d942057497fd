import { describe, expect, it, vi } from 'vitest';

// The pages' chunks themselves are not what is tested: each import answers an empty module.
for (const feature of ['mission-control', 'cost-pages', 'cost-analysis', 'compare', 'cost-query', 'budgets', 'anomalies', 'inventory', 'tags']) {
  vi.doMock(`@/features/${feature}`, () => ({}));
}

const { preloadPageOf } = await import('./lazy-pages');

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
