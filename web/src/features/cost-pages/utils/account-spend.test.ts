import { joinAccountSpend } from './account-spend';

describe('joinAccountSpend', () => {
  it('joins spend of both periods with the account names, largest spend first', () => {
    const joined = joinAccountSpend(
      [
        { account: '111111111111', account_name: '111111111111', cloud_provider: 'aws', amount: 150 },
        { account: 'acme-web-prod', cloud_provider: 'gcp', amount: 300 },
      ],
      [
        { account: '111111111111', cloud_provider: 'aws', amount: 100 },
        { account: 'acme-web-prod', cloud_provider: 'gcp', amount: 400 },
      ],
      [
        { provider: 'aws', account_id: '111111111111', account_name: 'Production' },
        { provider: 'gcp', account_id: 'acme-web-prod', account_name: 'Acme Web (prod)' },
      ],
    );
    expect(joined).toEqual([
      { provider: 'gcp', accountId: 'acme-web-prod', name: 'Acme Web (prod)', amount: 300, previous: 400, change: -25 },
      { provider: 'aws', accountId: '111111111111', name: 'Production', amount: 150, previous: 100, change: 50 },
    ]);
  });

  it('lists known accounts without spend and accounts only seen in the cost data', () => {
    const joined = joinAccountSpend(
      [{ account: 'sub-1', account_name: 'Azure Sub', cloud_provider: 'azure', amount: 5 }],
      [],
      [{ provider: 'aws', account_id: '222222222222', account_name: 'Staging' }],
    );
    expect(joined).toEqual([
      { provider: 'azure', accountId: 'sub-1', name: 'Azure Sub', amount: 5, previous: 0, change: null },
      { provider: 'aws', accountId: '222222222222', name: 'Staging', amount: 0, previous: 0, change: null },
    ]);
  });
});
