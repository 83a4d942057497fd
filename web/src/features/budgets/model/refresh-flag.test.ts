import { markBudgetsForRefresh, takeBudgetsRefreshFlag } from './refresh-flag';

describe('budgets refresh flag', () => {
  beforeEach(() => sessionStorage.clear());

  it('is false until marked', () => {
    expect(takeBudgetsRefreshFlag()).toBe(false);
  });

  it('is true once after a mark, then cleared', () => {
    markBudgetsForRefresh();
    expect(takeBudgetsRefreshFlag()).toBe(true);
    expect(takeBudgetsRefreshFlag()).toBe(false);
  });

  it('lives in sessionStorage', () => {
    markBudgetsForRefresh();
    expect(sessionStorage.length).toBe(1);
    takeBudgetsRefreshFlag();
    expect(sessionStorage.length).toBe(0);
  });
});
