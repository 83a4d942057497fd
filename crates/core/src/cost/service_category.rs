//! Mission Control's service categories (spec 1 §9): the 15 categories in their order, and the
//! rule that puts a service's spend in one of them.
//!
//! The FOCUS `ServiceCategory` of a service's rows comes first: every FOCUS 1.x category maps onto
//! one of the 15 ([`ServiceCategory::from_focus`]), so a SaaS provider's rows land in the right
//! category without anyone listing its service names. Within a broad FOCUS category the name list
//! may name a narrower one of the 15 (FOCUS puts Amazon EKS and AWS Lambda in Compute; the spec
//! has Kubernetes and Serverless): that narrower category is kept. Rows without a FOCUS category
//! (native AWS, GCP and Azure exports, or a service whose rows disagree) fall back to the AWS, GCP
//! and Azure service names listed here, then to a few unambiguous words, then to Other.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Provider;

/// The 15 categories of spec 1 §9, in the spec's order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
pub enum ServiceCategory {
    Network,
    Database,
    Compute,
    Storage,
    Security,
    Analytics,
    Container,
    Kubernetes,
    #[serde(rename = "ML/AI")]
    #[schema(rename = "ML/AI")]
    MlAi,
    Serverless,
    #[serde(rename = "Developer Tools")]
    #[schema(rename = "Developer Tools")]
    DeveloperTools,
    #[serde(rename = "API Management")]
    #[schema(rename = "API Management")]
    ApiManagement,
    Operations,
    Migration,
    Other,
}

impl ServiceCategory {
    /// The 15 categories in the spec's order (the order Mission Control lists them in).
    pub const ALL: [ServiceCategory; 15] = [
        ServiceCategory::Network,
        ServiceCategory::Database,
        ServiceCategory::Compute,
        ServiceCategory::Storage,
        ServiceCategory::Security,
        ServiceCategory::Analytics,
        ServiceCategory::Container,
        ServiceCategory::Kubernetes,
        ServiceCategory::MlAi,
        ServiceCategory::Serverless,
        ServiceCategory::DeveloperTools,
        ServiceCategory::ApiManagement,
        ServiceCategory::Operations,
        ServiceCategory::Migration,
        ServiceCategory::Other,
    ];

    /// The spec's label ("ML/AI", "API Management" …).
    pub fn label(self) -> &'static str {
        match self {
            ServiceCategory::Network => "Network",
            ServiceCategory::Database => "Database",
            ServiceCategory::Compute => "Compute",
            ServiceCategory::Storage => "Storage",
            ServiceCategory::Security => "Security",
            ServiceCategory::Analytics => "Analytics",
            ServiceCategory::Container => "Container",
            ServiceCategory::Kubernetes => "Kubernetes",
            ServiceCategory::MlAi => "ML/AI",
            ServiceCategory::Serverless => "Serverless",
            ServiceCategory::DeveloperTools => "Developer Tools",
            ServiceCategory::ApiManagement => "API Management",
            ServiceCategory::Operations => "Operations",
            ServiceCategory::Migration => "Migration",
            ServiceCategory::Other => "Other",
        }
    }

    /// The category of a FOCUS `ServiceCategory` value (FOCUS 1.0–1.4, any case and spacing);
    /// `None` for a value FOCUS does not define (a native export's product family, say).
    pub fn from_focus(value: &str) -> Option<ServiceCategory> {
        focus_entry(value).map(|entry| entry.category)
    }

    /// The category of a service's spend: its FOCUS categories (the distinct non-empty
    /// `ServiceCategory` values of its rows) first, then its name.
    ///
    /// A FOCUS category is used when the rows carry exactly one value and FOCUS defines it; the
    /// name list still wins when it names a narrower category inside that FOCUS category
    /// (Compute → Container, Kubernetes, Serverless …). Otherwise the name decides
    /// ([`ServiceCategory::from_service_name`]).
    pub fn of_service(
        provider: &Provider,
        service: &str,
        focus_categories: &[String],
    ) -> ServiceCategory {
        let named = || ServiceCategory::from_service_name(provider, service);
        let mut values = focus_categories
            .iter()
            .map(|value| value.trim())
            .filter(|value| !value.is_empty());
        let Some(only) = values.next() else {
            return named();
        };
        if values.any(|value| !same_focus(value, only)) {
            return named();
        }
        let Some(entry) = focus_entry(only) else {
            return named();
        };
        let by_name = named();
        if entry.narrower.contains(&by_name) {
            by_name
        } else {
            entry.category
        }
    }

    /// The category of a service name as AWS, GCP and Azure exports spell it ("AmazonEC2",
    /// "Amazon EC2", "EC2", "Microsoft.Compute", "Compute Engine"). The provider's own list is
    /// tried first, then every list, then a few unambiguous words; an unknown name is Other.
    pub fn from_service_name(provider: &Provider, service: &str) -> ServiceCategory {
        let key = service_key(service);
        if key.is_empty() {
            return ServiceCategory::Other;
        }
        let lookups = &*LOOKUPS;
        let own = match provider {
            Provider::Aws => lookups.aws.get(&key),
            Provider::Gcp => lookups.gcp.get(&key),
            Provider::Azure => lookups.azure.get(&key),
            Provider::Other(_) => None,
        };
        if let Some(category) = own.or_else(|| lookups.any.get(&key)) {
            return *category;
        }
        KEYWORDS
            .iter()
            .find(|(word, _)| key.contains(word))
            .map_or(ServiceCategory::Other, |(_, category)| *category)
    }
}

impl std::fmt::Display for ServiceCategory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// One FOCUS `ServiceCategory` value, the category it maps onto and the narrower categories a
/// service name may refine it to.
struct FocusEntry {
    focus: &'static str,
    category: ServiceCategory,
    narrower: &'static [ServiceCategory],
}

/// Every value of the FOCUS `ServiceCategory` column (FOCUS 1.0–1.4; 1.1 renamed none, added
/// none the 15 lack).
const FOCUS_CATEGORIES: [FocusEntry; 19] = [
    FocusEntry {
        focus: "AI and Machine Learning",
        category: ServiceCategory::MlAi,
        narrower: &[],
    },
    FocusEntry {
        focus: "Analytics",
        category: ServiceCategory::Analytics,
        narrower: &[],
    },
    FocusEntry {
        focus: "Business Applications",
        category: ServiceCategory::Other,
        narrower: &[],
    },
    FocusEntry {
        focus: "Compute",
        category: ServiceCategory::Compute,
        narrower: &[
            ServiceCategory::Container,
            ServiceCategory::Kubernetes,
            ServiceCategory::Serverless,
        ],
    },
    FocusEntry {
        focus: "Databases",
        category: ServiceCategory::Database,
        narrower: &[],
    },
    FocusEntry {
        focus: "Developer Tools",
        category: ServiceCategory::DeveloperTools,
        narrower: &[],
    },
    FocusEntry {
        focus: "Multicloud",
        category: ServiceCategory::Other,
        narrower: &[ServiceCategory::Kubernetes, ServiceCategory::Operations],
    },
    FocusEntry {
        focus: "Identity",
        category: ServiceCategory::Security,
        narrower: &[],
    },
    FocusEntry {
        focus: "Integration",
        category: ServiceCategory::ApiManagement,
        narrower: &[ServiceCategory::Serverless],
    },
    FocusEntry {
        focus: "Internet of Things",
        category: ServiceCategory::Other,
        narrower: &[],
    },
    FocusEntry {
        focus: "Management and Governance",
        category: ServiceCategory::Operations,
        narrower: &[],
    },
    FocusEntry {
        focus: "Media",
        category: ServiceCategory::Other,
        narrower: &[],
    },
    FocusEntry {
        focus: "Migration",
        category: ServiceCategory::Migration,
        narrower: &[],
    },
    FocusEntry {
        focus: "Mobile",
        category: ServiceCategory::DeveloperTools,
        narrower: &[],
    },
    FocusEntry {
        focus: "Networking",
        category: ServiceCategory::Network,
        narrower: &[],
    },
    FocusEntry {
        focus: "Security",
        category: ServiceCategory::Security,
        narrower: &[],
    },
    FocusEntry {
        focus: "Storage",
        category: ServiceCategory::Storage,
        narrower: &[],
    },
    FocusEntry {
        focus: "Web",
        category: ServiceCategory::Compute,
        narrower: &[ServiceCategory::Serverless, ServiceCategory::ApiManagement],
    },
    // FOCUS "Other": the provider did not say; any category the name list knows is better.
    FocusEntry {
        focus: "Other",
        category: ServiceCategory::Other,
        narrower: &ServiceCategory::ALL,
    },
];

/// FOCUS values compared without case and spacing ("Management and governance").
fn same_focus(a: &str, b: &str) -> bool {
    let squash = |value: &str| {
        value
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    squash(a) == squash(b)
}

fn focus_entry(value: &str) -> Option<&'static FocusEntry> {
    FOCUS_CATEGORIES
        .iter()
        .find(|entry| same_focus(entry.focus, value))
}

/// Vendor words dropped from the start of a name before it is looked up.
const VENDOR_PREFIXES: [&str; 6] = ["microsoft", "amazon", "google", "azure", "aws", "gcp"];

/// The lookup key of a service name: lower case, ASCII letters and digits only, without leading
/// vendor words ("Amazon EC2", "AmazonEC2" and "EC2" are all "ec2"; "Microsoft.Compute" is
/// "compute").
pub fn service_key(name: &str) -> String {
    let mut key: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let mut stripped = true;
    while stripped {
        stripped = false;
        for prefix in VENDOR_PREFIXES {
            if key.starts_with(prefix) && key.len() > prefix.len() {
                key.drain(..prefix.len());
                stripped = true;
            }
        }
    }
    key
}

/// For names no list has: words that place a name in one category without doubt, tried in this
/// order against the key ("Amazon Aurora PostgreSQL Serverless" → Database).
const KEYWORDS: [(&str, ServiceCategory); 34] = [
    ("kubernetes", ServiceCategory::Kubernetes),
    ("migration", ServiceCategory::Migration),
    ("migrate", ServiceCategory::Migration),
    ("database", ServiceCategory::Database),
    ("sql", ServiceCategory::Database),
    ("container", ServiceCategory::Container),
    ("machinelearning", ServiceCategory::MlAi),
    ("cognitive", ServiceCategory::MlAi),
    ("openai", ServiceCategory::MlAi),
    ("sagemaker", ServiceCategory::MlAi),
    ("bedrock", ServiceCategory::MlAi),
    ("vertexai", ServiceCategory::MlAi),
    ("lambda", ServiceCategory::Serverless),
    ("function", ServiceCategory::Serverless),
    ("apigateway", ServiceCategory::ApiManagement),
    ("apimanagement", ServiceCategory::ApiManagement),
    ("firewall", ServiceCategory::Security),
    ("security", ServiceCategory::Security),
    ("keyvault", ServiceCategory::Security),
    ("keymanagement", ServiceCategory::Security),
    ("secret", ServiceCategory::Security),
    ("datatransfer", ServiceCategory::Network),
    ("bandwidth", ServiceCategory::Network),
    ("network", ServiceCategory::Network),
    ("loadbalanc", ServiceCategory::Network),
    ("storage", ServiceCategory::Storage),
    ("backup", ServiceCategory::Storage),
    ("monitor", ServiceCategory::Operations),
    ("logging", ServiceCategory::Operations),
    ("support", ServiceCategory::Operations),
    ("analytics", ServiceCategory::Analytics),
    ("bigquery", ServiceCategory::Analytics),
    ("virtualmachine", ServiceCategory::Compute),
    ("compute", ServiceCategory::Compute),
];

/// The service names of one category as AWS, GCP and Azure spell them.
struct NamedServices {
    category: ServiceCategory,
    /// AWS product codes (`line_item_product_code` / `product_servicecode`) and product names.
    aws: &'static [&'static str],
    /// GCP service descriptions as in the billing export.
    gcp: &'static [&'static str],
    /// Azure meter categories, service names and resource providers.
    azure: &'static [&'static str],
}

/// The name lists by key: per cloud, and over every cloud.
#[derive(Default)]
struct Lookups {
    aws: HashMap<String, ServiceCategory>,
    gcp: HashMap<String, ServiceCategory>,
    azure: HashMap<String, ServiceCategory>,
    any: HashMap<String, ServiceCategory>,
}

static LOOKUPS: LazyLock<Lookups> = LazyLock::new(|| {
    let mut lookups = Lookups::default();
    for entry in NAMED_SERVICES {
        for (names, own) in [
            (entry.aws, &mut lookups.aws),
            (entry.gcp, &mut lookups.gcp),
            (entry.azure, &mut lookups.azure),
        ] {
            for name in names {
                let key = service_key(name);
                own.entry(key.clone()).or_insert(entry.category);
                lookups.any.entry(key).or_insert(entry.category);
            }
        }
    }
    lookups
});

/// Earlier entries win where a name is listed twice.
const NAMED_SERVICES: &[NamedServices] = &[
    NamedServices {
        category: ServiceCategory::Network,
        aws: &[
            "AmazonVPC",
            "Amazon Virtual Private Cloud",
            "AWSDataTransfer",
            "AWS Data Transfer",
            "AmazonCloudFront",
            "Amazon CloudFront",
            "AmazonRoute53",
            "Amazon Route 53",
            "AWSDirectConnect",
            "AWS Direct Connect",
            "AWSGlobalAccelerator",
            "AWS Global Accelerator",
            "AWSELB",
            "Elastic Load Balancing",
            "AWS Elastic Load Balancing",
            "AWS Transit Gateway",
            "AWS PrivateLink",
            "AWS Site-to-Site VPN",
            "AWS Client VPN",
            "AWSCloudMap",
            "AWS Cloud Map",
            "AWSAppMesh",
            "AWS App Mesh",
            "AmazonVPCLattice",
            "Amazon VPC Lattice",
            "AWS Cloud WAN",
            "AmazonNetworkManager",
            "EC2 - Other: NAT Gateway",
        ],
        gcp: &[
            "Networking",
            "Network",
            "Cloud CDN",
            "Cloud DNS",
            "Cloud Load Balancing",
            "Cloud NAT",
            "Cloud VPN",
            "Cloud Interconnect",
            "Network Intelligence Center",
            "Network Connectivity Center",
            "Network Service Tiers",
            "Cloud Domains",
            "Service Directory",
            "Media CDN",
            "Private Service Connect",
        ],
        azure: &[
            "Microsoft.Network",
            "Bandwidth",
            "Virtual Network",
            "Load Balancer",
            "VPN Gateway",
            "Application Gateway",
            "Azure DNS",
            "DNS",
            "Azure Front Door Service",
            "Azure Front Door",
            "Content Delivery Network",
            "Azure CDN",
            "ExpressRoute",
            "Network Watcher",
            "Traffic Manager",
            "NAT Gateway",
            "Virtual WAN",
            "Azure Private Link",
            "Private Link",
            "IP Addresses",
            "Microsoft.Cdn",
        ],
    },
    NamedServices {
        category: ServiceCategory::Database,
        aws: &[
            "AmazonRDS",
            "Amazon Relational Database Service",
            "Amazon RDS Service",
            "AmazonDynamoDB",
            "Amazon DynamoDB",
            "AmazonElastiCache",
            "Amazon ElastiCache",
            "AmazonDocDB",
            "Amazon DocumentDB",
            "Amazon DocumentDB (with MongoDB compatibility)",
            "AmazonNeptune",
            "Amazon Neptune",
            "AmazonQLDB",
            "Amazon Quantum Ledger Database",
            "AmazonMCS",
            "AmazonKeyspaces",
            "Amazon Keyspaces (for Apache Cassandra)",
            "AmazonMemoryDB",
            "Amazon MemoryDB",
            "Amazon MemoryDB for Redis",
            "AmazonTimestream",
            "Amazon Timestream",
            "AmazonAuroraDSQL",
            "Amazon Aurora DSQL",
            "Amazon Aurora",
        ],
        gcp: &[
            "Cloud SQL",
            "Cloud Spanner",
            "Spanner",
            "Cloud Bigtable",
            "Bigtable",
            "Firestore",
            "Cloud Firestore",
            "Cloud Datastore",
            "Datastore",
            "Cloud Memorystore for Redis",
            "Memorystore for Redis",
            "Memorystore for Memcached",
            "Memorystore for Valkey",
            "AlloyDB",
            "AlloyDB for PostgreSQL",
            "Firebase Realtime Database",
            "Database Center",
        ],
        azure: &[
            "Microsoft.Sql",
            "Microsoft.DocumentDB",
            "Microsoft.DBforPostgreSQL",
            "Microsoft.DBforMySQL",
            "Microsoft.DBforMariaDB",
            "Microsoft.Cache",
            "SQL Database",
            "Azure SQL Database",
            "SQL Managed Instance",
            "Azure SQL Managed Instance",
            "SQL Server",
            "Azure Cosmos DB",
            "Cosmos DB",
            "Azure Database for PostgreSQL",
            "Azure Database for MySQL",
            "Azure Database for MariaDB",
            "Redis Cache",
            "Azure Cache for Redis",
            "Azure Managed Redis",
        ],
    },
    NamedServices {
        category: ServiceCategory::Compute,
        aws: &[
            "AmazonEC2",
            "Amazon Elastic Compute Cloud",
            "Amazon Elastic Compute Cloud - Compute",
            "EC2 - Other",
            "EC2-Instances",
            "AmazonLightsail",
            "Amazon Lightsail",
            "AWSElasticBeanstalk",
            "AWS Elastic Beanstalk",
            "AWSBatch",
            "AWS Batch",
            "AmazonWorkSpaces",
            "Amazon WorkSpaces",
            "AmazonAppStream",
            "Amazon AppStream",
            "AWSOutposts",
            "AWS Outposts",
            "AmazonGameLift",
            "Amazon GameLift",
            "ComputeSavingsPlans",
            "Savings Plans for AWS Compute usage",
            "AWS ParallelCluster",
            "Amazon EC2 Auto Scaling",
        ],
        gcp: &[
            "Compute Engine",
            "Google Compute Engine",
            "VMware Engine",
            "Google Cloud VMware Engine",
            "Batch",
            "Bare Metal Solution",
            "Sole-Tenant Nodes",
        ],
        azure: &[
            "Microsoft.Compute",
            "Microsoft.Web",
            "Virtual Machines",
            "Virtual Machines Licenses",
            "Virtual Machine Scale Sets",
            "Cloud Services",
            "Azure App Service",
            "App Service",
            "Azure Virtual Desktop",
            "Windows Virtual Desktop",
            "Azure Dedicated Host",
            "Azure VMware Solution",
            "Azure Spring Apps",
            "Microsoft.Batch",
        ],
    },
    NamedServices {
        category: ServiceCategory::Storage,
        aws: &[
            "AmazonS3",
            "Amazon Simple Storage Service",
            "AmazonS3GlacierDeepArchive",
            "Amazon S3 Glacier Deep Archive",
            "AmazonGlacier",
            "Amazon Glacier",
            "Amazon S3 Glacier",
            "AmazonEFS",
            "Amazon Elastic File System",
            "AmazonFSx",
            "Amazon FSx",
            "AmazonEBS",
            "Amazon Elastic Block Store",
            "EC2 - Other: EBS",
            "AWSBackup",
            "AWS Backup",
            "AWSStorageGateway",
            "AWS Storage Gateway",
            "AWS Elastic Disaster Recovery",
            "AWSElasticDisasterRecovery",
        ],
        gcp: &[
            "Cloud Storage",
            "Google Cloud Storage",
            "Filestore",
            "Cloud Filestore",
            "Persistent Disk",
            "Backup and DR Service",
            "Backup for GKE",
            "NetApp Volumes",
            "Google Cloud NetApp Volumes",
            "Parallelstore",
            "Storage Insights",
        ],
        azure: &[
            "Microsoft.Storage",
            "Microsoft.RecoveryServices",
            "Microsoft.NetApp",
            "Storage",
            "Azure Storage",
            "Azure NetApp Files",
            "Backup",
            "Azure Backup",
            "Azure Site Recovery",
            "Site Recovery",
            "Azure Data Lake Storage",
            "Data Lake Store",
            "Azure Files",
            "Azure Managed Lustre",
            "Azure Elastic SAN",
        ],
    },
    NamedServices {
        category: ServiceCategory::Security,
        aws: &[
            "awskms",
            "AWS Key Management Service",
            "AWSSecretsManager",
            "AWS Secrets Manager",
            "awswaf",
            "AWS WAF",
            "AWSShield",
            "AWS Shield",
            "AmazonGuardDuty",
            "Amazon GuardDuty",
            "AWSSecurityHub",
            "AWS Security Hub",
            "AmazonInspector",
            "AmazonInspectorV2",
            "Amazon Inspector",
            "AmazonMacie",
            "Amazon Macie",
            "AWSCertificateManager",
            "AWS Certificate Manager",
            "ACMPCA",
            "AWS Private Certificate Authority",
            "AWSCloudHSM",
            "AWS CloudHSM",
            "AWSNetworkFirewall",
            "AWS Network Firewall",
            "AWSFMS",
            "AWS Firewall Manager",
            "AmazonCognito",
            "Amazon Cognito",
            "AWSDirectoryService",
            "AWS Directory Service",
            "AmazonDetective",
            "Amazon Detective",
            "AmazonVerifiedPermissions",
            "Amazon Verified Permissions",
            "AmazonSecurityLake",
            "Amazon Security Lake",
            "AWS IAM Access Analyzer",
            "AWSIAMAccessAnalyzer",
            "AWS Verified Access",
            "AWSIdentityCenter",
            "AWS IAM Identity Center",
        ],
        gcp: &[
            "Cloud Key Management Service (KMS)",
            "Cloud KMS",
            "Secret Manager",
            "Security Command Center",
            "Cloud Armor",
            "Identity Platform",
            "Cloud Identity",
            "Identity-Aware Proxy",
            "reCAPTCHA Enterprise",
            "Certificate Authority Service",
            "Certificate Manager",
            "Cloud Data Loss Prevention",
            "Sensitive Data Protection",
            "Binary Authorization",
            "Web Security Scanner",
            "Chronicle",
            "Google Security Operations",
            "Cloud IDS",
            "VPC Service Controls",
            "Assured Workloads",
        ],
        azure: &[
            "Microsoft.KeyVault",
            "Microsoft.Security",
            "Microsoft.SecurityInsights",
            "Key Vault",
            "Azure Key Vault",
            "Microsoft Defender for Cloud",
            "Azure Defender",
            "Security Center",
            "Advanced Threat Protection",
            "Azure Firewall",
            "Azure Firewall Manager",
            "Azure DDOS Protection",
            "DDoS Protection",
            "Azure Active Directory",
            "Azure Active Directory B2C",
            "Microsoft Entra ID",
            "Microsoft Entra External ID",
            "Microsoft Sentinel",
            "Sentinel",
            "Azure Bastion",
            "Azure Web Application Firewall",
            "Azure Payment HSM",
            "Azure Dedicated HSM",
        ],
    },
    NamedServices {
        category: ServiceCategory::Analytics,
        aws: &[
            "AmazonAthena",
            "Amazon Athena",
            "AmazonRedshift",
            "Amazon Redshift",
            "AmazonKinesis",
            "Amazon Kinesis",
            "AmazonKinesisFirehose",
            "Amazon Kinesis Firehose",
            "Amazon Data Firehose",
            "AmazonKinesisAnalytics",
            "Amazon Kinesis Analytics",
            "Amazon Managed Service for Apache Flink",
            "AWSGlue",
            "AWS Glue",
            "ElasticMapReduce",
            "AmazonEMR",
            "Amazon Elastic MapReduce",
            "Amazon EMR",
            "AmazonES",
            "Amazon OpenSearch Service",
            "Amazon Elasticsearch Service",
            "AmazonQuickSight",
            "Amazon QuickSight",
            "AWSLakeFormation",
            "AWS Lake Formation",
            "AmazonMSK",
            "Amazon Managed Streaming for Apache Kafka",
            "AWSDataPipeline",
            "AWS Data Pipeline",
            "AmazonDataZone",
            "Amazon DataZone",
            "AmazonCloudSearch",
            "Amazon CloudSearch",
            "AWSDataExchange",
            "AWS Data Exchange",
            "AmazonMWAA",
            "Amazon Managed Workflows for Apache Airflow",
            "AWS Clean Rooms",
            "AmazonAppFlow",
            "Amazon AppFlow",
        ],
        gcp: &[
            "BigQuery",
            "BigQuery Storage API",
            "BigQuery Reservation API",
            "BigQuery BI Engine",
            "BigQuery Data Transfer Service",
            "BigQuery Omni",
            "Dataflow",
            "Cloud Dataflow",
            "Dataproc",
            "Cloud Dataproc",
            "Dataproc Metastore",
            "Pub/Sub",
            "Cloud Pub/Sub",
            "Pub/Sub Lite",
            "Data Catalog",
            "Dataplex",
            "Cloud Composer",
            "Looker",
            "Looker Studio",
            "Cloud Data Fusion",
            "Dataprep",
            "Cloud Dataprep",
            "Analytics Hub",
            "Dataform",
            "Managed Service for Apache Kafka",
        ],
        azure: &[
            "Microsoft.Synapse",
            "Microsoft.DataFactory",
            "Microsoft.Databricks",
            "Microsoft.Kusto",
            "Microsoft.HDInsight",
            "Microsoft.EventHub",
            "Microsoft.StreamAnalytics",
            "Microsoft.Fabric",
            "Azure Synapse Analytics",
            "Azure Data Factory",
            "Azure Data Factory v2",
            "Data Factory",
            "Azure Data Explorer",
            "HDInsight",
            "Azure Databricks",
            "Event Hubs",
            "Azure Event Hubs",
            "Stream Analytics",
            "Azure Stream Analytics",
            "Power BI Embedded",
            "Power BI",
            "Azure Analysis Services",
            "Microsoft Fabric",
            "Microsoft Purview",
            "Azure Purview",
            "Azure Data Share",
        ],
    },
    NamedServices {
        category: ServiceCategory::Container,
        aws: &[
            "AmazonECS",
            "Amazon Elastic Container Service",
            "Amazon EC2 Container Service",
            "AmazonECR",
            "Amazon EC2 Container Registry (ECR)",
            "Amazon Elastic Container Registry",
            "AmazonECRPublic",
            "Amazon Elastic Container Registry Public",
            "AWSFargate",
            "AWS Fargate",
        ],
        gcp: &[
            "Artifact Registry",
            "Container Registry",
            "Container Registry Vulnerability Scanning",
            "Container Analysis",
            "Container Scanning API",
        ],
        azure: &[
            "Microsoft.ContainerInstance",
            "Microsoft.ContainerRegistry",
            "Container Instances",
            "Azure Container Instances",
            "Container Registry",
            "Azure Container Registry",
        ],
    },
    NamedServices {
        category: ServiceCategory::Kubernetes,
        aws: &[
            "AmazonEKS",
            "Amazon Elastic Kubernetes Service",
            "Amazon Elastic Container Service for Kubernetes",
            "Amazon EKS Anywhere",
            "Red Hat OpenShift Service on AWS",
        ],
        gcp: &[
            "Kubernetes Engine",
            "Google Kubernetes Engine",
            "GKE Enterprise",
            "Anthos",
            "GKE Hub",
        ],
        azure: &[
            "Microsoft.ContainerService",
            "Azure Kubernetes Service",
            "Azure Red Hat OpenShift",
            "Microsoft.RedHatOpenShift",
            "Azure Arc-enabled Kubernetes",
        ],
    },
    NamedServices {
        category: ServiceCategory::MlAi,
        aws: &[
            "AmazonSageMaker",
            "Amazon SageMaker",
            "AmazonBedrock",
            "Amazon Bedrock",
            "AmazonRekognition",
            "Amazon Rekognition",
            "comprehend",
            "AmazonComprehend",
            "Amazon Comprehend",
            "AmazonComprehendMedical",
            "AmazonTextract",
            "Amazon Textract",
            "translate",
            "AmazonTranslate",
            "Amazon Translate",
            "AmazonPolly",
            "Amazon Polly",
            "transcribe",
            "AmazonTranscribe",
            "Amazon Transcribe",
            "AmazonLex",
            "Amazon Lex",
            "AmazonPersonalize",
            "Amazon Personalize",
            "AmazonForecast",
            "Amazon Forecast",
            "AmazonKendra",
            "Amazon Kendra",
            "AmazonQ",
            "Amazon Q",
            "AmazonFraudDetector",
            "Amazon Fraud Detector",
            "AmazonA2I",
            "Amazon Augmented AI",
            "AmazonLookoutVision",
            "Amazon Lookout for Vision",
        ],
        gcp: &[
            "Vertex AI",
            "Cloud AI Platform",
            "AI Platform",
            "Cloud Vision API",
            "Cloud Vision",
            "Cloud Natural Language API",
            "Cloud Natural Language",
            "Cloud Speech API",
            "Speech-to-Text",
            "Cloud Text-to-Speech API",
            "Text-to-Speech",
            "Cloud Translation API",
            "Cloud Translation",
            "Translate API",
            "Document AI",
            "Cloud Document AI API",
            "Dialogflow",
            "Dialogflow API",
            "Dialogflow CX",
            "Gemini API",
            "Generative Language API",
            "Contact Center AI",
            "Recommendations AI",
            "Cloud Video Intelligence API",
            "AutoML",
            "Cloud TPU",
            "Notebooks",
            "Vertex AI Workbench",
            "Vertex AI Search",
            "Gemini for Google Cloud",
        ],
        azure: &[
            "Microsoft.CognitiveServices",
            "Microsoft.MachineLearningServices",
            "Cognitive Services",
            "Azure Cognitive Services",
            "Azure AI Services",
            "Azure OpenAI",
            "Azure OpenAI Service",
            "Azure Machine Learning",
            "Machine Learning",
            "Machine Learning Studio",
            "Azure Cognitive Search",
            "Azure AI Search",
            "Azure Bot Service",
            "Azure AI Foundry",
            "Foundry Models",
            "Foundry Tools",
        ],
    },
    NamedServices {
        category: ServiceCategory::Serverless,
        aws: &[
            "AWSLambda",
            "AWS Lambda",
            "AmazonStates",
            "AWS Step Functions",
            "AWSQueueService",
            "AmazonSQS",
            "Amazon Simple Queue Service",
            "AmazonSNS",
            "Amazon Simple Notification Service",
            "AWSEvents",
            "AmazonEventBridge",
            "Amazon EventBridge",
            "CloudWatch Events",
            "AWSAppRunner",
            "AWS App Runner",
        ],
        gcp: &[
            "Cloud Functions",
            "Cloud Run",
            "Cloud Run functions",
            "App Engine",
            "Cloud Tasks",
            "Cloud Scheduler",
            "Eventarc",
            "Workflows",
            "Firebase Hosting",
        ],
        azure: &[
            "Microsoft.Logic",
            "Microsoft.EventGrid",
            "Microsoft.ServiceBus",
            "Microsoft.App",
            "Functions",
            "Azure Functions",
            "Logic Apps",
            "Event Grid",
            "Azure Event Grid",
            "Service Bus",
            "Azure Service Bus",
            "Azure Container Apps",
            "Container Apps",
            "Notification Hubs",
            "Azure Static Web Apps",
            "SignalR",
            "Azure SignalR Service",
            "Azure Web PubSub",
        ],
    },
    NamedServices {
        category: ServiceCategory::DeveloperTools,
        aws: &[
            "CodeBuild",
            "AWSCodeBuild",
            "AWS CodeBuild",
            "AWSCodeCommit",
            "AWS CodeCommit",
            "AWSCodePipeline",
            "AWS CodePipeline",
            "AWSCodeDeploy",
            "AWS CodeDeploy",
            "AWSCodeArtifact",
            "AWS CodeArtifact",
            "AWSCloud9",
            "AWS Cloud9",
            "AmazonCodeCatalyst",
            "Amazon CodeCatalyst",
            "AmazonCodeGuru",
            "Amazon CodeGuru",
            "AWSAmplify",
            "AWS Amplify",
            "AWSDeviceFarm",
            "AWS Device Farm",
            "AWS CodeStar",
            "Amazon Q Developer",
        ],
        gcp: &[
            "Cloud Build",
            "Cloud Source Repositories",
            "Secure Source Manager",
            "Cloud Deploy",
            "Cloud Workstations",
            "Firebase Test Lab",
            "Cloud Shell",
            "Gemini Code Assist",
            "Firebase App Distribution",
        ],
        azure: &[
            "Microsoft.DevTestLab",
            "Microsoft.VisualStudio",
            "Microsoft.LoadTestService",
            "Azure DevOps",
            "Visual Studio Subscription",
            "Visual Studio",
            "Azure Load Testing",
            "Azure Deployment Environments",
            "Azure Lab Services",
            "DevTest Labs",
            "Azure DevTest Labs",
            "GitHub",
            "Microsoft Dev Box",
        ],
    },
    NamedServices {
        category: ServiceCategory::ApiManagement,
        aws: &[
            "AmazonApiGateway",
            "Amazon API Gateway",
            "AWSAppSync",
            "AWS AppSync",
        ],
        gcp: &[
            "Apigee",
            "Apigee API Management",
            "API Gateway",
            "Cloud Endpoints",
            "Endpoints",
            "API Hub",
        ],
        azure: &[
            "Microsoft.ApiManagement",
            "API Management",
            "Azure API Management",
            "Azure API Center",
        ],
    },
    NamedServices {
        category: ServiceCategory::Operations,
        aws: &[
            "AmazonCloudWatch",
            "Amazon CloudWatch",
            "AWSCloudTrail",
            "AWS CloudTrail",
            "AWSConfig",
            "AWS Config",
            "AWSSystemsManager",
            "AWS Systems Manager",
            "AWSSupportBusiness",
            "AWS Support (Business)",
            "AWSSupportEnterprise",
            "AWS Support (Enterprise)",
            "AWSSupportDeveloper",
            "AWS Support (Developer)",
            "AWS Support",
            "AWSXRay",
            "AWS X-Ray",
            "AWSCostExplorer",
            "AWS Cost Explorer",
            "AWSServiceCatalog",
            "AWS Service Catalog",
            "AWSCloudFormation",
            "AWS CloudFormation",
            "AmazonGrafana",
            "Amazon Managed Grafana",
            "AmazonPrometheus",
            "Amazon Managed Service for Prometheus",
            "AWSTrustedAdvisor",
            "AWS Trusted Advisor",
            "AWSControlTower",
            "AWS Control Tower",
            "AWSResilienceHub",
            "AWS Resilience Hub",
            "AWSBudgets",
            "AWS Budgets",
            "AWSOrganizations",
            "AWS Organizations",
            "AWS Health",
            "AWSFIS",
            "AWS Fault Injection Service",
            "AWS Fault Injection Simulator",
        ],
        gcp: &[
            "Cloud Monitoring",
            "Stackdriver Monitoring",
            "Cloud Logging",
            "Stackdriver Logging",
            "Cloud Trace",
            "Stackdriver Trace",
            "Cloud Debugger",
            "Cloud Profiler",
            "Error Reporting",
            "Support",
            "Cloud Support",
            "Google Cloud Support",
            "Cloud Deployment Manager",
            "Cloud Asset Inventory",
            "Infrastructure Manager",
            "Google Cloud Observability",
            "Google Cloud Managed Service for Prometheus",
            "Active Assist",
        ],
        azure: &[
            "Microsoft.Insights",
            "Microsoft.OperationalInsights",
            "Microsoft.Automation",
            "Microsoft.Monitor",
            "Microsoft.Dashboard",
            "Azure Monitor",
            "Log Analytics",
            "Insight and Analytics",
            "Application Insights",
            "Automation",
            "Azure Automation",
            "Azure Managed Grafana",
            "Azure Policy",
            "Azure Arc",
            "Advisor",
            "Azure Advisor",
            "Azure Chaos Studio",
            "Azure Update Manager",
            "Azure Support",
            "Support",
        ],
    },
    NamedServices {
        category: ServiceCategory::Migration,
        aws: &[
            "AWSDatabaseMigrationSvc",
            "AWS Database Migration Service",
            "AWSApplicationMigrationSvc",
            "AWS Application Migration Service",
            "AWSMigrationHub",
            "AWS Migration Hub",
            "AWSDataSync",
            "AWS DataSync",
            "AWSTransfer",
            "AWS Transfer Family",
            "AWSSnowball",
            "AWS Snowball",
            "AWSServerMigrationService",
            "AWS Server Migration Service",
            "AWS Mainframe Modernization",
        ],
        gcp: &[
            "Database Migration Service",
            "Migrate to Virtual Machines",
            "Migrate to Containers",
            "Storage Transfer Service",
            "Transfer Appliance",
            "Datastream",
            "Migration Center",
        ],
        azure: &[
            "Microsoft.Migrate",
            "Microsoft.DataMigration",
            "Microsoft.DataBox",
            "Azure Migrate",
            "Azure Database Migration Service",
            "Data Box",
            "Azure Data Box",
            "Azure File Sync",
            "Storage Sync Service",
        ],
    },
    NamedServices {
        category: ServiceCategory::Other,
        aws: &[
            "AmazonSES",
            "Amazon Simple Email Service",
            "AmazonMQ",
            "Amazon MQ",
            "AmazonConnect",
            "Amazon Connect",
            "AWSMarketplace",
            "AWS Marketplace",
            "AmazonChime",
            "Amazon Chime",
            "AmazonPinpoint",
            "Amazon Pinpoint",
            "AWSIoT",
            "AWS IoT",
            "AWS IoT Core",
            "AmazonLocationService",
            "Amazon Location Service",
            "Tax",
            "Fee",
            "Credit",
            "Refund",
        ],
        gcp: &[
            "Invoice",
            "Google Maps Platform",
            "Maps API",
            "Google Workspace",
            "Cloud Marketplace",
            "Tax",
        ],
        azure: &[
            "Azure Communication Services",
            "Azure Marketplace",
            "Microsoft.Communication",
            "Azure IoT Hub",
            "IoT Hub",
        ],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn focus(values: &[&str]) -> Vec<String> {
        values.iter().map(|value| (*value).to_owned()).collect()
    }

    fn other(name: &str) -> Provider {
        Provider::Other(name.to_owned())
    }

    #[test]
    fn every_focus_category_maps_onto_one_of_the_fifteen() {
        let expected = [
            ("AI and Machine Learning", ServiceCategory::MlAi),
            ("Analytics", ServiceCategory::Analytics),
            ("Business Applications", ServiceCategory::Other),
            ("Compute", ServiceCategory::Compute),
            ("Databases", ServiceCategory::Database),
            ("Developer Tools", ServiceCategory::DeveloperTools),
            ("Multicloud", ServiceCategory::Other),
            ("Identity", ServiceCategory::Security),
            ("Integration", ServiceCategory::ApiManagement),
            ("Internet of Things", ServiceCategory::Other),
            ("Management and Governance", ServiceCategory::Operations),
            ("Media", ServiceCategory::Other),
            ("Migration", ServiceCategory::Migration),
            ("Mobile", ServiceCategory::DeveloperTools),
            ("Networking", ServiceCategory::Network),
            ("Security", ServiceCategory::Security),
            ("Storage", ServiceCategory::Storage),
            ("Web", ServiceCategory::Compute),
            ("Other", ServiceCategory::Other),
        ];
        for (value, category) in expected {
            assert_eq!(
                ServiceCategory::from_focus(value),
                Some(category),
                "{value}"
            );
        }
        assert_eq!(
            ServiceCategory::from_focus(" management AND governance "),
            Some(ServiceCategory::Operations)
        );
        assert_eq!(ServiceCategory::from_focus("Compute Instance"), None);
        assert_eq!(ServiceCategory::from_focus(""), None);
    }

    #[test]
    fn a_saas_service_lands_in_its_focus_category_without_a_name_list() {
        assert_eq!(
            ServiceCategory::of_service(
                &other("OpenAI"),
                "GPT-4o",
                &focus(&["AI and Machine Learning"])
            ),
            ServiceCategory::MlAi
        );
        assert_eq!(
            ServiceCategory::of_service(
                &other("Datadog"),
                "Infrastructure Hosts",
                &focus(&["Management and Governance"])
            ),
            ServiceCategory::Operations
        );
        assert_eq!(
            ServiceCategory::of_service(&other("Oracle"), "Block Storage", &focus(&["Storage"])),
            ServiceCategory::Storage
        );
        assert_eq!(
            ServiceCategory::of_service(
                &other("Snowflake"),
                "Warehouse",
                &focus(&["Databases", "databases"])
            ),
            ServiceCategory::Database
        );
    }

    #[test]
    fn the_focus_category_wins_over_the_name_unless_the_name_is_narrower_within_it() {
        // Amazon S3 is Storage by name, but FOCUS rows saying Analytics are trusted.
        assert_eq!(
            ServiceCategory::of_service(&Provider::Aws, "Amazon S3", &focus(&["Analytics"])),
            ServiceCategory::Analytics
        );
        // Compute in FOCUS; the name list knows Kubernetes, Serverless and Container inside it.
        assert_eq!(
            ServiceCategory::of_service(
                &Provider::Aws,
                "Amazon Elastic Kubernetes Service",
                &focus(&["Compute"])
            ),
            ServiceCategory::Kubernetes
        );
        assert_eq!(
            ServiceCategory::of_service(&Provider::Aws, "AWS Lambda", &focus(&["Compute"])),
            ServiceCategory::Serverless
        );
        assert_eq!(
            ServiceCategory::of_service(
                &Provider::Azure,
                "Container Instances",
                &focus(&["Compute"])
            ),
            ServiceCategory::Container
        );
        assert_eq!(
            ServiceCategory::of_service(
                &Provider::Aws,
                "Amazon Simple Queue Service",
                &focus(&["Integration"])
            ),
            ServiceCategory::Serverless
        );
        // FOCUS "Other": the name list decides.
        assert_eq!(
            ServiceCategory::of_service(&Provider::Gcp, "BigQuery", &focus(&["Other"])),
            ServiceCategory::Analytics
        );
    }

    #[test]
    fn rows_without_a_single_focus_category_fall_back_to_the_name() {
        // Native exports: no category, or a product family FOCUS does not define.
        assert_eq!(
            ServiceCategory::of_service(&Provider::Aws, "AmazonEC2", &[]),
            ServiceCategory::Compute
        );
        assert_eq!(
            ServiceCategory::of_service(
                &Provider::Aws,
                "AmazonRDS",
                &focus(&["Database Instance"])
            ),
            ServiceCategory::Database
        );
        // An AWS CUR's product families vary within one service: the name decides.
        assert_eq!(
            ServiceCategory::of_service(
                &Provider::Aws,
                "AmazonEC2",
                &focus(&["Compute Instance", "Storage", ""])
            ),
            ServiceCategory::Compute
        );
        assert_eq!(
            ServiceCategory::of_service(&other("Acme"), "Widgets", &focus(&["", " "])),
            ServiceCategory::Other
        );
    }

    #[test]
    fn names_match_across_spellings_and_providers() {
        for name in ["AmazonEC2", "Amazon EC2", "EC2", "amazon ec2"] {
            assert_eq!(
                ServiceCategory::from_service_name(&Provider::Aws, name),
                ServiceCategory::Compute,
                "{name}"
            );
        }
        assert_eq!(
            ServiceCategory::from_service_name(&Provider::Azure, "Microsoft.Compute"),
            ServiceCategory::Compute
        );
        assert_eq!(
            ServiceCategory::from_service_name(&Provider::Gcp, "Kubernetes Engine"),
            ServiceCategory::Kubernetes
        );
        // "Container Registry" is a Container service on GCP and Azure alike.
        assert_eq!(
            ServiceCategory::from_service_name(&Provider::Gcp, "Container Registry"),
            ServiceCategory::Container
        );
        // Another provider's service named like a cloud's is found in every list.
        assert_eq!(
            ServiceCategory::from_service_name(&other("Oracle"), "Cloud SQL"),
            ServiceCategory::Database
        );
        // Keywords, then Other.
        assert_eq!(
            ServiceCategory::from_service_name(&other("Oracle"), "Autonomous Database"),
            ServiceCategory::Database
        );
        assert_eq!(
            ServiceCategory::from_service_name(&Provider::Aws, "Something Unheard Of"),
            ServiceCategory::Other
        );
        assert_eq!(
            ServiceCategory::from_service_name(&Provider::Aws, "  "),
            ServiceCategory::Other
        );
    }

    #[test]
    fn service_keys_drop_vendor_words_case_and_punctuation() {
        assert_eq!(service_key("Amazon EC2"), "ec2");
        assert_eq!(service_key("AWS Lambda"), "lambda");
        assert_eq!(service_key("Microsoft.Compute"), "compute");
        assert_eq!(service_key("Google Cloud Storage"), "cloudstorage");
        assert_eq!(service_key("Amazon"), "amazon");
    }

    #[test]
    fn categories_are_listed_and_serialised_with_the_spec_labels() {
        let labels: Vec<&str> = ServiceCategory::ALL
            .iter()
            .map(|category| category.label())
            .collect();
        assert_eq!(
            labels,
            [
                "Network",
                "Database",
                "Compute",
                "Storage",
                "Security",
                "Analytics",
                "Container",
                "Kubernetes",
                "ML/AI",
                "Serverless",
                "Developer Tools",
                "API Management",
                "Operations",
                "Migration",
                "Other",
            ]
        );
        for category in ServiceCategory::ALL {
            assert_eq!(
                serde_json::to_value(category).unwrap(),
                serde_json::Value::String(category.label().to_owned())
            );
        }
    }
}
