import { screen, waitFor, within } from '@testing-library/react';
import { appRoutes, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import type { Finding } from '../types';
import { CompliancePage, FINDINGS_MESSAGES, FINDINGS_TEXT, IamPage } from './findings-page';

const IAM_FINDINGS: Finding[] = [
  {
    id: 'iam_user_without_mfa:111111111111:global:alice',
    kind: 'iam_user_without_mfa',
    category: 'iam',
    severity: 'high',
    title: 'IAM user alice has no MFA',
    evidence: 'Signs in to the console with a password and has no MFA device.',
    resource: { resource_id: 'alice', resource_type: 'AWS::IAM::User', region: 'global', account_id: '111111111111' },
  },
  {
    id: 'iam_access_key_old:111111111111:global:AKIAOLD',
    kind: 'iam_access_key_old',
    category: 'iam',
    severity: 'medium',
    title: 'Access key AKIAOLD of bob is 120 days old',
    evidence: 'Active since 2026-07-29 (120 days, more than 90); never used. Rotate it.',
    resource: { resource_id: 'AKIAOLD', resource_type: 'AWS::IAM::AccessKey', region: 'global', account_id: '111111111111' },
  },
  {
    id: 'iam_role_unused:222222222222:global:old-role',
    kind: 'iam_role_unused',
    category: 'iam',
    severity: 'low',
    title: 'Role old-role unused for 100 days',
    evidence: 'Last used 2026-08-18 (100 days ago, more than 90).',
    resource: { resource_id: 'old-role', resource_type: 'AWS::IAM::Role', region: 'global', account_id: '222222222222' },
  },
  {
    id: 'iam_user_without_mfa:222222222222:global:carol',
    kind: 'iam_user_without_mfa',
    category: 'iam',
    severity: 'high',
    title: 'IAM user carol has no MFA',
    evidence: 'Signs in to the console with a password and has no MFA device.',
    resource: { resource_id: 'carol', resource_type: 'AWS::IAM::User', region: 'global', account_id: '222222222222' },
  },
];

const COMPLIANCE_FINDINGS: Finding[] = [
  {
    id: 'security_group_open_admin_port:111111111111:us-east-1:sg-0123',
    kind: 'security_group_open_admin_port',
    category: 'compliance',
    severity: 'high',
    title: 'Security group sg-0123 is open to the internet on SSH (22)',
    evidence: 'Inbound tcp 22 from 0.0.0.0/0.',
    resource: { resource_id: 'sg-0123', resource_type: 'AWS::EC2::SecurityGroup', region: 'us-east-1', account_id: '111111111111' },
  },
  {
    id: 'ebs_volume_unencrypted:111111111111:eu-west-1:vol-0aaa',
    kind: 'ebs_volume_unencrypted',
    category: 'compliance',
    severity: 'medium',
    title: 'EBS volume vol-0aaa is not encrypted',
    evidence: 'Encrypted is false.',
    resource: { resource_id: 'vol-0aaa', resource_type: 'AWS::EC2::Volume', region: 'eu-west-1', account_id: '111111111111' },
  },
];

function stats(byType: { resource_type: string; live: number }[]) {
  return { body: { live: 0, deleted: 0, tagged: 0, untagged: 0, by_type: byType, by_account: [] } };
}

function setup(page: 'iam' | 'compliance', findings: MockReply, routes: Record<string, MockReply> = {}) {
  signInAs(makeUser());
  const api = mockApi({ ...appRoutes(), 'GET /v1/findings': findings, 'POST /v1/resource/stats': stats([]), ...routes });
  const rendered = renderWithProviders(page === 'iam' ? <IamPage /> : <CompliancePage />);
  const urls = () => api.fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : input.url)).filter((url) => url.includes('/v1/findings'));
  return { ...api, ...rendered, urls };
}

function rowTexts(table: HTMLElement): string[] {
  return within(table).getAllByRole('row').map((row) => row.textContent ?? '');
}

describe('IAM page', () => {
  it('lists IAM findings by severity with the resource, its account and region, and the evidence', async () => {
    const { urls } = setup('iam', { body: IAM_FINDINGS });
    expect(screen.getByRole('heading', { level: 1, name: 'IAM' })).toBeInTheDocument();
    expect(screen.getByText(FINDINGS_TEXT.iam.subtitle)).toBeInTheDocument();
    const high = await screen.findByRole('table', { name: 'High severity findings' });
    expect(rowTexts(high)).toEqual([
      'FindingResource TypeResource IDAWS AccountRegionEvidence',
      'IAM user alice has no MFAIAM Useralice111111111111globalSigns in to the console with a password and has no MFA device.',
      'IAM user carol has no MFAIAM Usercarol222222222222globalSigns in to the console with a password and has no MFA device.',
    ]);
    expect(rowTexts(screen.getByRole('table', { name: 'Medium severity findings' }))[1]).toBe(
      'Access key AKIAOLD of bob is 120 days oldIAM AccessKeyAKIAOLD111111111111globalActive since 2026-07-29 (120 days, more than 90); never used. Rotate it.',
    );
    expect(rowTexts(screen.getByRole('table', { name: 'Low severity findings' }))[1]).toContain('Role old-role unused for 100 days');
    // Most severe first.
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['High severity', 'Medium severity', 'Low severity']);
    expect(screen.getByRole('group', { name: 'High' })).toHaveTextContent('2');
    expect(screen.getByRole('group', { name: 'Medium' })).toHaveTextContent('1');
    expect(screen.getByRole('group', { name: 'Low' })).toHaveTextContent('1');
    expect(urls()).toEqual([expect.stringMatching(/\/v1\/findings\?category=iam$/)]);
  });

  it('links each finding to its resource in the inventory', async () => {
    setup('iam', { body: IAM_FINDINGS });
    const high = await screen.findByRole('table', { name: 'High severity findings' });
    expect(within(high).getByRole('link', { name: 'alice' })).toHaveAttribute(
      'href',
      '/inventory?account=111111111111&region=global&type=AWS%3A%3AIAM%3A%3AUser&resource=alice',
    );
  });

  it('leaves out a severity with no findings', async () => {
    setup('iam', { body: [IAM_FINDINGS[1]] });
    expect(await screen.findByRole('table', { name: 'Medium severity findings' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'High severity findings' })).not.toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'High' })).toHaveTextContent('0');
  });

  it('says in words that nothing was found, and how many resources were checked', async () => {
    setup('iam', { body: [] }, { 'POST /v1/resource/stats': stats([{ resource_type: 'AWS::IAM::User', live: 3 }, { resource_type: 'AWS::IAM::Role', live: 4 }, { resource_type: 'AWS::S3::Bucket', live: 9 }]) });
    expect(await screen.findByText(`${FINDINGS_TEXT.iam.clean} ${FINDINGS_MESSAGES.checked(7, FINDINGS_TEXT.iam.typesText)}`)).toBeInTheDocument();
    expect(FINDINGS_MESSAGES.checked(7, FINDINGS_TEXT.iam.typesText)).toBe('7 live resources checked (IAM users, access keys and roles).');
  });

  it('says when discovery has found nothing to check yet', async () => {
    setup('iam', { body: [] }, { 'POST /v1/resource/stats': stats([{ resource_type: 'AWS::S3::Bucket', live: 9 }]) });
    expect(await screen.findByText(new RegExp(FINDINGS_MESSAGES.nothingDiscovered('IAM users, access keys or roles').replace(/[.()]/g, '\\$&')))).toBeInTheDocument();
    expect(
      FINDINGS_MESSAGES.nothingDiscovered(FINDINGS_TEXT.iam.typesText),
    ).toBe('Nothing to check yet: discovery has not found any IAM users, access keys or roles in your AWS accounts. Run discovery, then come back to this page.');
    expect(screen.getByRole('link', { name: 'Open the Resource Inventory' })).toHaveAttribute('href', '/inventory');
    expect(screen.getByRole('button', { name: 'Discover now' })).toBeInTheDocument();
  });

  it('shows the clean message without a count when the statistics fail', async () => {
    setup('iam', { body: [] }, { 'POST /v1/resource/stats': { status: 500, body: {} } });
    expect(await screen.findByText(FINDINGS_TEXT.iam.clean)).toBeInTheDocument();
  });

  it('says so when the findings cannot be loaded, with the server message when there is one', async () => {
    const first = setup('iam', { status: 500, body: {} });
    expect(await screen.findByRole('alert')).toHaveTextContent(FINDINGS_MESSAGES.loadFailed);
    first.unmount();

    setup('iam', { status: 422, body: { message: 'category must be iam or compliance' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('category must be iam or compliance');
  });
});

describe('Compliance page', () => {
  it('lists compliance findings by severity, each linked to its resource', async () => {
    const { urls } = setup('compliance', { body: COMPLIANCE_FINDINGS });
    expect(screen.getByRole('heading', { level: 1, name: 'Compliance' })).toBeInTheDocument();
    const high = await screen.findByRole('table', { name: 'High severity findings' });
    expect(rowTexts(high)[1]).toBe('Security group sg-0123 is open to the internet on SSH (22)EC2 SecurityGroupsg-0123111111111111us-east-1Inbound tcp 22 from 0.0.0.0/0.');
    expect(within(high).getByRole('link', { name: 'sg-0123' })).toHaveAttribute(
      'href',
      '/inventory?account=111111111111&region=us-east-1&type=AWS%3A%3AEC2%3A%3ASecurityGroup&resource=sg-0123',
    );
    expect(rowTexts(screen.getByRole('table', { name: 'Medium severity findings' }))[1]).toContain('EBS volume vol-0aaa is not encrypted');
    expect(urls()).toEqual([expect.stringMatching(/\/v1\/findings\?category=compliance$/)]);
  });

  it('says in words that nothing was found', async () => {
    setup('compliance', { body: [] }, { 'POST /v1/resource/stats': stats([{ resource_type: 'AWS::EC2::Volume', live: 1 }]) });
    expect(await screen.findByText(`${FINDINGS_TEXT.compliance.clean} 1 live resource checked (S3 buckets, security groups, EBS volumes and RDS instances).`)).toBeInTheDocument();
  });

  it('says when discovery has found nothing to check yet', async () => {
    setup('compliance', { body: [] });
    expect(await screen.findByText(/Nothing to check yet: discovery has not found any S3 buckets, security groups, EBS volumes or RDS instances in your AWS accounts\./)).toBeInTheDocument();
  });
});

describe('findings wait for their answer', () => {
  it('shows a loading state until the findings arrive', async () => {
    let answer: (reply: { body: Finding[] }) => void = () => undefined;
    setup('iam', () => new Promise((resolve) => (answer = resolve)));
    expect(screen.getByLabelText('Loading findings')).toBeInTheDocument();
    await waitFor(() => expect(answer).not.toBe(undefined));
    answer({ body: IAM_FINDINGS });
    expect(await screen.findByRole('table', { name: 'High severity findings' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading findings')).not.toBeInTheDocument();
  });
});
