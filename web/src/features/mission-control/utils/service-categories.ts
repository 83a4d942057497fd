/**
 * The service categories of Mission Control (spec 1 §9): the 15 categories in their order, and
 * which AWS, GCP and Azure service names belong to each.
 *
 * Names are matched after `serviceKey`: lower case, letters and digits only, without a leading
 * vendor word (Amazon, AWS, Azure, Google, Microsoft, GCP). So the AWS product code "AmazonEC2",
 * the product name "Amazon EC2" and the Cost Explorer name "EC2" are one key ("ec2"), and the
 * Azure resource provider "Microsoft.Compute" is "compute". A name that is not in the table is
 * tried against a few unambiguous words (KEYWORDS); a name that matches neither is "Other".
 */

export const SERVICE_CATEGORIES = [
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
] as const;

export type ServiceCategory = (typeof SERVICE_CATEGORIES)[number];

export type CloudProvider = 'aws' | 'gcp' | 'azure';

interface CategoryServices {
  category: ServiceCategory;
  /** AWS product codes (line_item_product_code / product_servicecode) and product names. */
  aws: readonly string[];
  /** GCP service descriptions as in the billing export. */
  gcp: readonly string[];
  /** Azure meter categories, service names and resource providers. */
  azure: readonly string[];
}

export const SERVICE_CATEGORY_TABLE: readonly CategoryServices[] = [
  {
    category: 'Network',
    aws: [
      'AmazonVPC', 'Amazon Virtual Private Cloud', 'AWSDataTransfer', 'AWS Data Transfer',
      'AmazonCloudFront', 'Amazon CloudFront', 'AmazonRoute53', 'Amazon Route 53',
      'AWSDirectConnect', 'AWS Direct Connect', 'AWSGlobalAccelerator', 'AWS Global Accelerator',
      'AWSELB', 'Elastic Load Balancing', 'AWS Elastic Load Balancing', 'AWS Transit Gateway',
      'AWS PrivateLink', 'AWS Site-to-Site VPN', 'AWS Client VPN', 'AWSCloudMap', 'AWS Cloud Map',
      'AWSAppMesh', 'AWS App Mesh', 'AmazonVPCLattice', 'Amazon VPC Lattice', 'AWS Cloud WAN',
      'AmazonNetworkManager', 'EC2 - Other: NAT Gateway',
    ],
    gcp: [
      'Networking', 'Network', 'Cloud CDN', 'Cloud DNS', 'Cloud Load Balancing', 'Cloud NAT',
      'Cloud VPN', 'Cloud Interconnect', 'Network Intelligence Center', 'Network Connectivity Center',
      'Network Service Tiers', 'Cloud Domains', 'Service Directory', 'Media CDN', 'Private Service Connect',
    ],
    azure: [
      'Microsoft.Network', 'Bandwidth', 'Virtual Network', 'Load Balancer', 'VPN Gateway',
      'Application Gateway', 'Azure DNS', 'DNS', 'Azure Front Door Service', 'Azure Front Door',
      'Content Delivery Network', 'Azure CDN', 'ExpressRoute', 'Network Watcher', 'Traffic Manager',
      'NAT Gateway', 'Virtual WAN', 'Azure Private Link', 'Private Link', 'IP Addresses', 'Microsoft.Cdn',
    ],
  },
  {
    category: 'Database',
    aws: [
      'AmazonRDS', 'Amazon Relational Database Service', 'Amazon RDS Service', 'AmazonDynamoDB',
      'Amazon DynamoDB', 'AmazonElastiCache', 'Amazon ElastiCache', 'AmazonDocDB', 'Amazon DocumentDB',
      'Amazon DocumentDB (with MongoDB compatibility)', 'AmazonNeptune', 'Amazon Neptune', 'AmazonQLDB',
      'Amazon Quantum Ledger Database', 'AmazonMCS', 'AmazonKeyspaces', 'Amazon Keyspaces (for Apache Cassandra)',
      'AmazonMemoryDB', 'Amazon MemoryDB', 'Amazon MemoryDB for Redis', 'AmazonTimestream', 'Amazon Timestream',
      'AmazonAuroraDSQL', 'Amazon Aurora DSQL', 'Amazon Aurora',
    ],
    gcp: [
      'Cloud SQL', 'Cloud Spanner', 'Spanner', 'Cloud Bigtable', 'Bigtable', 'Firestore', 'Cloud Firestore',
      'Cloud Datastore', 'Datastore', 'Cloud Memorystore for Redis', 'Memorystore for Redis',
      'Memorystore for Memcached', 'Memorystore for Valkey', 'AlloyDB', 'AlloyDB for PostgreSQL',
      'Firebase Realtime Database', 'Database Center',
    ],
    azure: [
      'Microsoft.Sql', 'Microsoft.DocumentDB', 'Microsoft.DBforPostgreSQL', 'Microsoft.DBforMySQL',
      'Microsoft.DBforMariaDB', 'Microsoft.Cache', 'SQL Database', 'Azure SQL Database', 'SQL Managed Instance',
      'Azure SQL Managed Instance', 'SQL Server', 'Azure Cosmos DB', 'Cosmos DB',
      'Azure Database for PostgreSQL', 'Azure Database for MySQL', 'Azure Database for MariaDB',
      'Redis Cache', 'Azure Cache for Redis', 'Azure Managed Redis',
    ],
  },
  {
    category: 'Compute',
    aws: [
      'AmazonEC2', 'Amazon Elastic Compute Cloud', 'Amazon Elastic Compute Cloud - Compute', 'EC2 - Other',
      'EC2-Instances', 'AmazonLightsail', 'Amazon Lightsail', 'AWSElasticBeanstalk', 'AWS Elastic Beanstalk',
      'AWSBatch', 'AWS Batch', 'AmazonWorkSpaces', 'Amazon WorkSpaces', 'AmazonAppStream', 'Amazon AppStream',
      'AWSOutposts', 'AWS Outposts', 'AmazonGameLift', 'Amazon GameLift', 'ComputeSavingsPlans',
      'Savings Plans for AWS Compute usage', 'AWS ParallelCluster', 'Amazon EC2 Auto Scaling',
    ],
    gcp: [
      'Compute Engine', 'Google Compute Engine', 'VMware Engine', 'Google Cloud VMware Engine', 'Batch',
      'Bare Metal Solution', 'Sole-Tenant Nodes',
    ],
    azure: [
      'Microsoft.Compute', 'Microsoft.Web', 'Virtual Machines', 'Virtual Machines Licenses',
      'Virtual Machine Scale Sets', 'Cloud Services', 'Azure App Service', 'App Service',
      'Azure Virtual Desktop', 'Windows Virtual Desktop', 'Azure Dedicated Host', 'Azure VMware Solution',
      'Azure Spring Apps', 'Microsoft.Batch',
    ],
  },
  {
    category: 'Storage',
    aws: [
      'AmazonS3', 'Amazon Simple Storage Service', 'AmazonS3GlacierDeepArchive', 'Amazon S3 Glacier Deep Archive',
      'AmazonGlacier', 'Amazon Glacier', 'Amazon S3 Glacier', 'AmazonEFS', 'Amazon Elastic File System',
      'AmazonFSx', 'Amazon FSx', 'AmazonEBS', 'Amazon Elastic Block Store', 'EC2 - Other: EBS',
      'AWSBackup', 'AWS Backup', 'AWSStorageGateway', 'AWS Storage Gateway', 'AWS Elastic Disaster Recovery',
      'AWSElasticDisasterRecovery',
    ],
    gcp: [
      'Cloud Storage', 'Google Cloud Storage', 'Filestore', 'Cloud Filestore', 'Persistent Disk',
      'Backup and DR Service', 'Backup for GKE', 'NetApp Volumes', 'Google Cloud NetApp Volumes',
      'Parallelstore', 'Storage Insights',
    ],
    azure: [
      'Microsoft.Storage', 'Microsoft.RecoveryServices', 'Microsoft.NetApp', 'Storage', 'Azure Storage',
      'Azure NetApp Files', 'Backup', 'Azure Backup', 'Azure Site Recovery', 'Site Recovery',
      'Azure Data Lake Storage', 'Data Lake Store', 'Azure Files', 'Azure Managed Lustre', 'Azure Elastic SAN',
    ],
  },
  {
    category: 'Security',
    aws: [
      'awskms', 'AWS Key Management Service', 'AWSSecretsManager', 'AWS Secrets Manager', 'awswaf', 'AWS WAF',
      'AWSShield', 'AWS Shield', 'AmazonGuardDuty', 'Amazon GuardDuty', 'AWSSecurityHub', 'AWS Security Hub',
      'AmazonInspector', 'AmazonInspectorV2', 'Amazon Inspector', 'AmazonMacie', 'Amazon Macie',
      'AWSCertificateManager', 'AWS Certificate Manager', 'ACMPCA', 'AWS Private Certificate Authority',
      'AWSCloudHSM', 'AWS CloudHSM', 'AWSNetworkFirewall', 'AWS Network Firewall', 'AWSFMS',
      'AWS Firewall Manager', 'AmazonCognito', 'Amazon Cognito', 'AWSDirectoryService', 'AWS Directory Service',
      'AmazonDetective', 'Amazon Detective', 'AmazonVerifiedPermissions', 'Amazon Verified Permissions',
      'AmazonSecurityLake', 'Amazon Security Lake', 'AWS IAM Access Analyzer', 'AWSIAMAccessAnalyzer',
      'AWS Verified Access', 'AWSIdentityCenter', 'AWS IAM Identity Center',
    ],
    gcp: [
      'Cloud Key Management Service (KMS)', 'Cloud KMS', 'Secret Manager', 'Security Command Center',
      'Cloud Armor', 'Identity Platform', 'Cloud Identity', 'Identity-Aware Proxy', 'reCAPTCHA Enterprise',
      'Certificate Authority Service', 'Certificate Manager', 'Cloud Data Loss Prevention',
      'Sensitive Data Protection', 'Binary Authorization', 'Web Security Scanner', 'Chronicle',
      'Google Security Operations', 'Cloud IDS', 'VPC Service Controls', 'Assured Workloads',
    ],
    azure: [
      'Microsoft.KeyVault', 'Microsoft.Security', 'Microsoft.SecurityInsights', 'Key Vault', 'Azure Key Vault',
      'Microsoft Defender for Cloud', 'Azure Defender', 'Security Center', 'Advanced Threat Protection',
      'Azure Firewall', 'Azure Firewall Manager', 'Azure DDOS Protection', 'DDoS Protection',
      'Azure Active Directory', 'Azure Active Directory B2C', 'Microsoft Entra ID', 'Microsoft Entra External ID',
      'Microsoft Sentinel', 'Sentinel', 'Azure Bastion', 'Azure Web Application Firewall',
      'Azure Payment HSM', 'Azure Dedicated HSM',
    ],
  },
  {
    category: 'Analytics',
    aws: [
      'AmazonAthena', 'Amazon Athena', 'AmazonRedshift', 'Amazon Redshift', 'AmazonKinesis', 'Amazon Kinesis',
      'AmazonKinesisFirehose', 'Amazon Kinesis Firehose', 'Amazon Data Firehose', 'AmazonKinesisAnalytics',
      'Amazon Kinesis Analytics', 'Amazon Managed Service for Apache Flink', 'AWSGlue', 'AWS Glue',
      'ElasticMapReduce', 'AmazonEMR', 'Amazon Elastic MapReduce', 'Amazon EMR', 'AmazonES',
      'Amazon OpenSearch Service', 'Amazon Elasticsearch Service', 'AmazonQuickSight', 'Amazon QuickSight',
      'AWSLakeFormation', 'AWS Lake Formation', 'AmazonMSK', 'Amazon Managed Streaming for Apache Kafka',
      'AWSDataPipeline', 'AWS Data Pipeline', 'AmazonDataZone', 'Amazon DataZone', 'AmazonCloudSearch',
      'Amazon CloudSearch', 'AWSDataExchange', 'AWS Data Exchange', 'AmazonMWAA',
      'Amazon Managed Workflows for Apache Airflow', 'AWS Clean Rooms', 'AmazonAppFlow', 'Amazon AppFlow',
    ],
    gcp: [
      'BigQuery', 'BigQuery Storage API', 'BigQuery Reservation API', 'BigQuery BI Engine',
      'BigQuery Data Transfer Service', 'BigQuery Omni', 'Dataflow', 'Cloud Dataflow', 'Dataproc',
      'Cloud Dataproc', 'Dataproc Metastore', 'Pub/Sub', 'Cloud Pub/Sub', 'Pub/Sub Lite', 'Data Catalog',
      'Dataplex', 'Cloud Composer', 'Looker', 'Looker Studio', 'Cloud Data Fusion', 'Dataprep',
      'Cloud Dataprep', 'Analytics Hub', 'Dataform', 'Managed Service for Apache Kafka',
    ],
    azure: [
      'Microsoft.Synapse', 'Microsoft.DataFactory', 'Microsoft.Databricks', 'Microsoft.Kusto',
      'Microsoft.HDInsight', 'Microsoft.EventHub', 'Microsoft.StreamAnalytics', 'Microsoft.Fabric',
      'Azure Synapse Analytics', 'Azure Data Factory', 'Azure Data Factory v2', 'Data Factory',
      'Azure Data Explorer', 'HDInsight', 'Azure Databricks', 'Event Hubs', 'Azure Event Hubs',
      'Stream Analytics', 'Azure Stream Analytics', 'Power BI Embedded', 'Power BI', 'Azure Analysis Services',
      'Microsoft Fabric', 'Microsoft Purview', 'Azure Purview', 'Azure Data Share',
    ],
  },
  {
    category: 'Container',
    aws: [
      'AmazonECS', 'Amazon Elastic Container Service', 'Amazon EC2 Container Service', 'AmazonECR',
      'Amazon EC2 Container Registry (ECR)', 'Amazon Elastic Container Registry', 'AmazonECRPublic',
      'Amazon Elastic Container Registry Public', 'AWSFargate', 'AWS Fargate',
    ],
    gcp: [
      'Artifact Registry', 'Container Registry', 'Container Registry Vulnerability Scanning',
      'Container Analysis', 'Container Scanning API',
    ],
    azure: [
      'Microsoft.ContainerInstance', 'Microsoft.ContainerRegistry', 'Container Instances',
      'Azure Container Instances', 'Container Registry', 'Azure Container Registry',
    ],
  },
  {
    category: 'Kubernetes',
    aws: [
      'AmazonEKS', 'Amazon Elastic Kubernetes Service', 'Amazon Elastic Container Service for Kubernetes',
      'Amazon EKS Anywhere', 'Red Hat OpenShift Service on AWS',
    ],
    gcp: ['Kubernetes Engine', 'Google Kubernetes Engine', 'GKE Enterprise', 'Anthos', 'GKE Hub'],
    azure: [
      'Microsoft.ContainerService', 'Azure Kubernetes Service', 'Azure Red Hat OpenShift',
      'Microsoft.RedHatOpenShift', 'Azure Arc-enabled Kubernetes',
    ],
  },
  {
    category: 'ML/AI',
    aws: [
      'AmazonSageMaker', 'Amazon SageMaker', 'AmazonBedrock', 'Amazon Bedrock', 'AmazonRekognition',
      'Amazon Rekognition', 'comprehend', 'AmazonComprehend', 'Amazon Comprehend', 'AmazonComprehendMedical',
      'AmazonTextract', 'Amazon Textract', 'translate', 'AmazonTranslate', 'Amazon Translate', 'AmazonPolly',
      'Amazon Polly', 'transcribe', 'AmazonTranscribe', 'Amazon Transcribe', 'AmazonLex', 'Amazon Lex',
      'AmazonPersonalize', 'Amazon Personalize', 'AmazonForecast', 'Amazon Forecast', 'AmazonKendra',
      'Amazon Kendra', 'AmazonQ', 'Amazon Q', 'AmazonFraudDetector', 'Amazon Fraud Detector',
      'AmazonA2I', 'Amazon Augmented AI', 'AmazonLookoutVision', 'Amazon Lookout for Vision',
    ],
    gcp: [
      'Vertex AI', 'Cloud AI Platform', 'AI Platform', 'Cloud Vision API', 'Cloud Vision',
      'Cloud Natural Language API', 'Cloud Natural Language', 'Cloud Speech API', 'Speech-to-Text',
      'Cloud Text-to-Speech API', 'Text-to-Speech', 'Cloud Translation API', 'Cloud Translation',
      'Translate API', 'Document AI', 'Cloud Document AI API', 'Dialogflow', 'Dialogflow API',
      'Dialogflow CX', 'Gemini API', 'Generative Language API', 'Contact Center AI', 'Recommendations AI',
      'Cloud Video Intelligence API', 'AutoML', 'Cloud TPU', 'Notebooks', 'Vertex AI Workbench',
      'Vertex AI Search', 'Gemini for Google Cloud',
    ],
    azure: [
      'Microsoft.CognitiveServices', 'Microsoft.MachineLearningServices', 'Cognitive Services',
      'Azure Cognitive Services', 'Azure AI Services', 'Azure OpenAI', 'Azure OpenAI Service',
      'Azure Machine Learning', 'Machine Learning', 'Machine Learning Studio', 'Azure Cognitive Search',
      'Azure AI Search', 'Azure Bot Service', 'Azure AI Foundry', 'Foundry Models', 'Foundry Tools',
    ],
  },
  {
    category: 'Serverless',
    aws: [
      'AWSLambda', 'AWS Lambda', 'AmazonStates', 'AWS Step Functions', 'AWSQueueService', 'AmazonSQS',
      'Amazon Simple Queue Service', 'AmazonSNS', 'Amazon Simple Notification Service', 'AWSEvents',
      'AmazonEventBridge', 'Amazon EventBridge', 'CloudWatch Events', 'AWSAppRunner', 'AWS App Runner',
    ],
    gcp: [
      'Cloud Functions', 'Cloud Run', 'Cloud Run functions', 'App Engine', 'Cloud Tasks', 'Cloud Scheduler',
      'Eventarc', 'Workflows', 'Firebase Hosting',
    ],
    azure: [
      'Microsoft.Logic', 'Microsoft.EventGrid', 'Microsoft.ServiceBus', 'Microsoft.App', 'Functions',
      'Azure Functions', 'Logic Apps', 'Event Grid', 'Azure Event Grid', 'Service Bus', 'Azure Service Bus',
      'Azure Container Apps', 'Container Apps', 'Notification Hubs', 'Azure Static Web Apps', 'SignalR',
      'Azure SignalR Service', 'Azure Web PubSub',
    ],
  },
  {
    category: 'Developer Tools',
    aws: [
      'CodeBuild', 'AWSCodeBuild', 'AWS CodeBuild', 'AWSCodeCommit', 'AWS CodeCommit', 'AWSCodePipeline',
      'AWS CodePipeline', 'AWSCodeDeploy', 'AWS CodeDeploy', 'AWSCodeArtifact', 'AWS CodeArtifact',
      'AWSCloud9', 'AWS Cloud9', 'AmazonCodeCatalyst', 'Amazon CodeCatalyst', 'AmazonCodeGuru',
      'Amazon CodeGuru', 'AWSAmplify', 'AWS Amplify', 'AWSDeviceFarm', 'AWS Device Farm', 'AWS CodeStar',
      'Amazon Q Developer',
    ],
    gcp: [
      'Cloud Build', 'Cloud Source Repositories', 'Secure Source Manager', 'Cloud Deploy', 'Cloud Workstations',
      'Firebase Test Lab', 'Cloud Shell', 'Gemini Code Assist', 'Firebase App Distribution',
    ],
    azure: [
      'Microsoft.DevTestLab', 'Microsoft.VisualStudio', 'Microsoft.LoadTestService', 'Azure DevOps',
      'Visual Studio Subscription', 'Visual Studio', 'Azure Load Testing', 'Azure Deployment Environments',
      'Azure Lab Services', 'DevTest Labs', 'Azure DevTest Labs', 'GitHub', 'Microsoft Dev Box',
    ],
  },
  {
    category: 'API Management',
    aws: ['AmazonApiGateway', 'Amazon API Gateway', 'AWSAppSync', 'AWS AppSync'],
    gcp: ['Apigee', 'Apigee API Management', 'API Gateway', 'Cloud Endpoints', 'Endpoints', 'API Hub'],
    azure: ['Microsoft.ApiManagement', 'API Management', 'Azure API Management', 'Azure API Center'],
  },
  {
    category: 'Operations',
    aws: [
      'AmazonCloudWatch', 'Amazon CloudWatch', 'AWSCloudTrail', 'AWS CloudTrail', 'AWSConfig', 'AWS Config',
      'AWSSystemsManager', 'AWS Systems Manager', 'AWSSupportBusiness', 'AWS Support (Business)',
      'AWSSupportEnterprise', 'AWS Support (Enterprise)', 'AWSSupportDeveloper', 'AWS Support (Developer)',
      'AWS Support', 'AWSXRay', 'AWS X-Ray', 'AWSCostExplorer', 'AWS Cost Explorer', 'AWSServiceCatalog',
      'AWS Service Catalog', 'AWSCloudFormation', 'AWS CloudFormation', 'AmazonGrafana',
      'Amazon Managed Grafana', 'AmazonPrometheus', 'Amazon Managed Service for Prometheus',
      'AWSTrustedAdvisor', 'AWS Trusted Advisor', 'AWSControlTower', 'AWS Control Tower',
      'AWSResilienceHub', 'AWS Resilience Hub', 'AWSBudgets', 'AWS Budgets', 'AWSOrganizations',
      'AWS Organizations', 'AWS Health', 'AWSFIS', 'AWS Fault Injection Service', 'AWS Fault Injection Simulator',
    ],
    gcp: [
      'Cloud Monitoring', 'Stackdriver Monitoring', 'Cloud Logging', 'Stackdriver Logging', 'Cloud Trace',
      'Stackdriver Trace', 'Cloud Debugger', 'Cloud Profiler', 'Error Reporting', 'Support', 'Cloud Support',
      'Google Cloud Support', 'Cloud Deployment Manager', 'Cloud Asset Inventory', 'Infrastructure Manager',
      'Google Cloud Observability', 'Google Cloud Managed Service for Prometheus', 'Active Assist',
    ],
    azure: [
      'Microsoft.Insights', 'Microsoft.OperationalInsights', 'Microsoft.Automation', 'Microsoft.Monitor',
      'Microsoft.Dashboard', 'Azure Monitor', 'Log Analytics', 'Insight and Analytics', 'Application Insights',
      'Automation', 'Azure Automation', 'Azure Managed Grafana', 'Azure Policy', 'Azure Arc', 'Advisor',
      'Azure Advisor', 'Azure Chaos Studio', 'Azure Update Manager', 'Azure Support', 'Support',
    ],
  },
  {
    category: 'Migration',
    aws: [
      'AWSDatabaseMigrationSvc', 'AWS Database Migration Service', 'AWSApplicationMigrationSvc',
      'AWS Application Migration Service', 'AWSMigrationHub', 'AWS Migration Hub', 'AWSDataSync',
      'AWS DataSync', 'AWSTransfer', 'AWS Transfer Family', 'AWSSnowball', 'AWS Snowball',
      'AWSServerMigrationService', 'AWS Server Migration Service', 'AWS Mainframe Modernization',
    ],
    gcp: [
      'Database Migration Service', 'Migrate to Virtual Machines', 'Migrate to Containers',
      'Storage Transfer Service', 'Transfer Appliance', 'Datastream', 'Migration Center',
    ],
    azure: [
      'Microsoft.Migrate', 'Microsoft.DataMigration', 'Microsoft.DataBox', 'Azure Migrate',
      'Azure Database Migration Service', 'Data Box', 'Azure Data Box', 'Azure File Sync', 'Storage Sync Service',
    ],
  },
  {
    category: 'Other',
    aws: [
      'AmazonSES', 'Amazon Simple Email Service', 'AmazonMQ', 'Amazon MQ', 'AmazonConnect', 'Amazon Connect',
      'AWSMarketplace', 'AWS Marketplace', 'AmazonChime', 'Amazon Chime', 'AmazonPinpoint', 'Amazon Pinpoint',
      'AWSIoT', 'AWS IoT', 'AWS IoT Core', 'AmazonLocationService', 'Amazon Location Service', 'Tax', 'Fee',
      'Credit', 'Refund',
    ],
    gcp: ['Invoice', 'Google Maps Platform', 'Maps API', 'Google Workspace', 'Cloud Marketplace', 'Tax'],
    azure: ['Azure Communication Services', 'Azure Marketplace', 'Microsoft.Communication', 'Azure IoT Hub', 'IoT Hub'],
  },
];

/** Vendor words dropped from the start of a name before it is looked up. */
const VENDOR_PREFIXES = ['microsoft', 'amazon', 'google', 'azure', 'aws', 'gcp'];

/**
 * The lookup key of a service name: lower case, letters and digits only, without leading vendor
 * words ("Amazon EC2", "AmazonEC2" and "EC2" are all "ec2").
 */
export function serviceKey(name: string): string {
  let key = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  let stripped = true;
  while (stripped) {
    stripped = false;
    for (const prefix of VENDOR_PREFIXES) {
      if (key.startsWith(prefix) && key.length > prefix.length) {
        key = key.slice(prefix.length);
        stripped = true;
      }
    }
  }
  return key;
}

/**
 * For names the table does not list: words that place a name in one category without doubt,
 * tried in this order against the key ("Amazon Aurora PostgreSQL Serverless" → Database).
 */
const KEYWORDS: ReadonlyArray<readonly [string, ServiceCategory]> = [
  ['kubernetes', 'Kubernetes'],
  ['migration', 'Migration'],
  ['migrate', 'Migration'],
  ['database', 'Database'],
  ['sql', 'Database'],
  ['container', 'Container'],
  ['machinelearning', 'ML/AI'],
  ['cognitive', 'ML/AI'],
  ['openai', 'ML/AI'],
  ['sagemaker', 'ML/AI'],
  ['bedrock', 'ML/AI'],
  ['vertexai', 'ML/AI'],
  ['lambda', 'Serverless'],
  ['function', 'Serverless'],
  ['apigateway', 'API Management'],
  ['apimanagement', 'API Management'],
  ['firewall', 'Security'],
  ['security', 'Security'],
  ['keyvault', 'Security'],
  ['keymanagement', 'Security'],
  ['secret', 'Security'],
  ['datatransfer', 'Network'],
  ['bandwidth', 'Network'],
  ['network', 'Network'],
  ['loadbalanc', 'Network'],
  ['storage', 'Storage'],
  ['backup', 'Storage'],
  ['monitor', 'Operations'],
  ['logging', 'Operations'],
  ['support', 'Operations'],
  ['analytics', 'Analytics'],
  ['bigquery', 'Analytics'],
  ['virtualmachine', 'Compute'],
  ['compute', 'Compute'],
];

type Lookup = Map<string, ServiceCategory>;

function buildLookups(): { byProvider: Record<CloudProvider, Lookup>; any: Lookup } {
  const byProvider: Record<CloudProvider, Lookup> = { aws: new Map(), gcp: new Map(), azure: new Map() };
  const any: Lookup = new Map();
  for (const entry of SERVICE_CATEGORY_TABLE) {
    for (const provider of ['aws', 'gcp', 'azure'] as const) {
      for (const name of entry[provider]) {
        const key = serviceKey(name);
        if (!byProvider[provider].has(key)) byProvider[provider].set(key, entry.category);
        if (!any.has(key)) any.set(key, entry.category);
      }
    }
  }
  return { byProvider, any };
}

const LOOKUPS = buildLookups();

function providerOf(provider: string | undefined): CloudProvider | undefined {
  const code = provider?.toLowerCase();
  if (code === 'aws' || code === 'gcp' || code === 'azure') return code;
  if (code === 'google cloud' || code === 'google') return 'gcp';
  return undefined;
}

/** The category of a service name as it appears in a billing export; unknown names are "Other". */
export function categoryOf(serviceName: string, provider?: string): ServiceCategory {
  const key = serviceKey(serviceName);
  if (!key) return 'Other';
  const code = providerOf(provider);
  const known = (code && LOOKUPS.byProvider[code].get(key)) ?? LOOKUPS.any.get(key);
  if (known) return known;
  for (const [word, category] of KEYWORDS) {
    if (key.includes(word)) return category;
  }
  return 'Other';
}
