import { SERVICE_CATEGORIES, SERVICE_CATEGORY_TABLE, categoryOf, serviceKey, type ServiceCategory } from './service-categories';

describe('service categories', () => {
  it('are the 15 of the spec, in order', () => {
    expect(SERVICE_CATEGORIES).toEqual([
      'Network',
      'Database',
      'Compute',
      'Storage',
      'Security',
      'Analytics',
      'Container',
      'Kubernetes',
      'ML/AI',
      'Serverless',
      'Developer Tools',
      'API Management',
      'Operations',
      'Migration',
      'Other',
    ]);
    expect(SERVICE_CATEGORY_TABLE.map((entry) => entry.category)).toEqual(SERVICE_CATEGORIES);
  });

  it('reach every category from each provider', () => {
    for (const entry of SERVICE_CATEGORY_TABLE) {
      for (const provider of ['aws', 'gcp', 'azure'] as const) {
        expect(entry[provider].length, `${entry.category} has ${provider} services`).toBeGreaterThan(0);
        for (const name of entry[provider]) {
          expect(categoryOf(name, provider), `${provider} ${name}`).toBe(entry.category);
        }
      }
    }
  });

  it('never lists one name in two categories', () => {
    const seen = new Map<string, ServiceCategory>();
    for (const entry of SERVICE_CATEGORY_TABLE) {
      for (const name of [...entry.aws, ...entry.gcp, ...entry.azure]) {
        const key = serviceKey(name);
        const before = seen.get(key);
        expect(before === undefined || before === entry.category, `${name} is in ${before} and ${entry.category}`).toBe(true);
        seen.set(key, entry.category);
      }
    }
  });

  it('read the AWS product code, the product name and the short name alike', () => {
    expect(serviceKey('AmazonEC2')).toBe('ec2');
    expect(serviceKey('Amazon EC2')).toBe('ec2');
    expect(serviceKey('Microsoft.Compute')).toBe('compute');
    for (const name of ['AmazonEC2', 'Amazon Elastic Compute Cloud', 'Amazon EC2', 'EC2']) expect(categoryOf(name)).toBe('Compute');
    for (const name of ['AmazonS3', 'Amazon Simple Storage Service', 'amazon s3']) expect(categoryOf(name)).toBe('Storage');
    for (const name of ['AWSLambda', 'AWS Lambda']) expect(categoryOf(name)).toBe('Serverless');
    expect(categoryOf('Azure Kubernetes Service', 'azure')).toBe('Kubernetes');
    expect(categoryOf('Kubernetes Engine', 'GCP')).toBe('Kubernetes');
  });

  it('send unknown and empty names to Other', () => {
    expect(categoryOf('Acme Widgets Subscription')).toBe('Other');
    expect(categoryOf('Unknown')).toBe('Other');
    expect(categoryOf('')).toBe('Other');
    expect(categoryOf('AWS')).toBe('Other');
  });

  it('place unlisted names by an unambiguous word', () => {
    expect(categoryOf('Amazon Aurora PostgreSQL Serverless')).toBe('Database');
    expect(categoryOf('Azure Container Storage')).toBe('Container');
    expect(categoryOf('Cloud Storage for Firebase')).toBe('Storage');
    expect(categoryOf('Azure Monitor Workspace')).toBe('Operations');
  });

  it('map every service of the demo tenant to a sensible category', () => {
    const demo: Record<string, ServiceCategory> = {
      // AWS (line_item_product_code)
      AmazonEC2: 'Compute',
      AmazonRDS: 'Database',
      AmazonS3: 'Storage',
      AWSLambda: 'Serverless',
      AmazonDynamoDB: 'Database',
      AmazonCloudFront: 'Network',
      AmazonCloudWatch: 'Operations',
      AmazonEKS: 'Kubernetes',
      AmazonRoute53: 'Network',
      AmazonVPC: 'Network',
      AWSDataTransfer: 'Network',
      AWSSupportBusiness: 'Operations',
      ComputeSavingsPlans: 'Compute',
      // GCP (service.description)
      'Compute Engine': 'Compute',
      'Cloud Storage': 'Storage',
      BigQuery: 'Analytics',
      'Cloud SQL': 'Database',
      'Kubernetes Engine': 'Kubernetes',
      'Cloud Run': 'Serverless',
      Networking: 'Network',
      Invoice: 'Other',
      // Azure (meter category and resource provider)
      'Virtual Machines': 'Compute',
      Storage: 'Storage',
      'SQL Database': 'Database',
      'Azure App Service': 'Compute',
      Bandwidth: 'Network',
      'Microsoft.Compute': 'Compute',
      'Microsoft.Storage': 'Storage',
      'Microsoft.Sql': 'Database',
      'Microsoft.Web': 'Compute',
      'Microsoft.Network': 'Network',
    };
    for (const [name, category] of Object.entries(demo)) expect(categoryOf(name), name).toBe(category);
  });
});
