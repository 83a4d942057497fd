/** Test data and mock routes of the issue 14 API (tests only). */
import type { MockReply } from '@/test/mock-api';
import type { PropertySnapshot, Resource, ResourceCountAccount, ResourceListRequest, ResourceListResponse } from './types';

export function makeResource(overrides: Partial<Resource> = {}): Resource {
  return {
    resource_id: 'i-0abc',
    resource_type: 'AWS::EC2::Instance',
    region: 'us-east-1',
    account_id: '111111111111',
    arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0abc',
    c_time: Date.UTC(2026, 10, 20, 14, 3) / 1000,
    m_time: Date.UTC(2026, 10, 22, 9, 30) / 1000,
    d_time: 0,
    property: { InstanceType: 't3.micro', State: { Name: 'running' } },
    tags: { env: 'prod' },
    cost: 12.5,
    ...overrides,
  };
}

/** `n` resources i-000 … numbered from `from`. */
export function makeResources(n: number, from = 0): Resource[] {
  return Array.from({ length: n }, (_, index) => {
    const number = from + index;
    return makeResource({ resource_id: `i-${String(number).padStart(3, '0')}`, c_time: 1_800_000_000 - number * 60 });
  });
}

export function listAnswer(resources: Resource[], total = resources.length, currency = 'USD'): ResourceListResponse {
  return { resources, total, cost_period: { start_time: 0, end_time: 0 }, currency };
}

export const COUNTS: ResourceCountAccount[] = [
  {
    account_id: '111111111111',
    regions: [
      { region: 'us-east-1', ResourceTypeCounts: { 'AWS::EC2::Instance': 2, 'AWS::S3::Bucket': 1 } },
      { region: 'eu-west-1', ResourceTypeCounts: { 'AWS::EC2::Volume': 3 } },
    ],
  },
  { account_id: '222222222222', regions: [{ region: 'ap-south-1', ResourceTypeCounts: { 'AWS::Lambda::Function': 1 } }] },
];

export const SNAPSHOTS: PropertySnapshot[] = [
  { c_time: Date.UTC(2026, 10, 22, 9, 30) / 1000, tags: { env: 'staging' }, properties: { InstanceType: 't3.micro', State: { Name: 'stopped' } } },
  { c_time: Date.UTC(2026, 10, 20, 14, 3) / 1000, tags: { env: 'prod' }, properties: { InstanceType: 't3.micro', State: { Name: 'running' } } },
];

/** The inventory's calls: `list` answers `POST /v1/resource` (default: one resource). */
export function inventoryRoutes({
  list = () => ({ body: listAnswer([makeResource()]) }),
  snapshots = SNAPSHOTS,
}: {
  list?: MockReply;
  snapshots?: PropertySnapshot[];
} = {}): Record<string, MockReply> {
  return {
    'POST /v1/resource': list,
    'POST /v1/resource/count': { body: COUNTS },
    'POST /v1/resource/property': { body: snapshots },
    'GET /v1/resource/params': { body: [{ resourceType: 'AWS::EC2::Instance', DisplayName: 'Instance Type', FlatPath: 'InstanceType' }] },
    'GET /v1/resource/unmatched-spend': {
      body: {
        resources: [{ resource_id: 'vol-gone', cloud_provider: 'AWS', account_id: '111111111111', service: 'AmazonEC2', cost: 30 }],
        resource_count: 3,
        total: 31.5,
        cost_period: { start_time: 0, end_time: 0 },
        currency: 'USD',
        other_currencies: [{ currency: 'EUR', amount: 4 }],
      },
    },
  };
}

/** The bodies sent to `POST /v1/resource`. */
export function listBodies(calls: { method: string; path: string; body: unknown }[]): ResourceListRequest[] {
  return calls.filter((c) => c.method === 'POST' && c.path === '/v1/resource').map((c) => c.body as ResourceListRequest);
}
