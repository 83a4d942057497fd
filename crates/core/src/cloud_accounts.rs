//! The rules for what a person types when connecting a cloud account (spec 2 §5 AWS / GCP,
//! and the Azure and manual-setup fields beyond it). Every `parse` trims surrounding white
//! space and answers the value in its stored form, or a [`FieldError`] with the message the
//! form shows. Names of the fields are the JSON names of the registration bodies.

use crate::FieldError;

/// The longest name, GCP project id or other free text kept for a connection, in characters.
pub const MAX_CLOUD_TEXT_CHARS: usize = 500;

fn is_lower_alnum(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

fn has_control(s: &str) -> bool {
    s.chars().any(char::is_control)
}

macro_rules! string_newtype {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(String);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> String {
                self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------
// AWS
// ---------------------------------------------------------------------------------------------

string_newtype!(
    /// An AWS account id: exactly 12 digits (leading zeros kept).
    AwsAccountId
);

impl AwsAccountId {
    pub const MESSAGE: &'static str = "AWS Account ID must be exactly 12 digits";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        Self::parse_field("aws_account_id", input)
    }

    /// The same rule for a body that names the field differently (e.g. `account_id`).
    pub fn parse_field(field: &'static str, input: &str) -> Result<Self, FieldError> {
        let id = input.trim();
        if id.len() == 12 && id.bytes().all(|b| b.is_ascii_digit()) {
            Ok(Self(id.to_owned()))
        } else {
            Err(FieldError::new(field, Self::MESSAGE))
        }
    }
}

string_newtype!(
    /// An AWS Organizations root id as spec 2 asks for it: `r-` and 4 to 32 lowercase letters
    /// or digits.
    AwsOrganizationId
);

impl AwsOrganizationId {
    pub const MESSAGE: &'static str = "Organization ID must follow the format: r-[0-9a-z]{4,32}";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let id = input.trim();
        let ok = id
            .strip_prefix("r-")
            .is_some_and(|rest| (4..=32).contains(&rest.len()) && rest.chars().all(is_lower_alnum));
        if ok {
            Ok(Self(id.to_owned()))
        } else {
            Err(FieldError::new("organization_id", Self::MESSAGE))
        }
    }
}

fn parse_name(
    field: &'static str,
    input: &str,
    too_short: &'static str,
    too_long: &'static str,
) -> Result<String, FieldError> {
    let name = input.trim();
    let chars = name.chars().count();
    if chars <= 2 {
        return Err(FieldError::new(field, too_short));
    }
    if chars > MAX_CLOUD_TEXT_CHARS {
        return Err(FieldError::new(field, too_long));
    }
    if has_control(name) {
        return Err(FieldError::new(
            field,
            "Name must not contain control characters",
        ));
    }
    Ok(name.to_owned())
}

string_newtype!(
    /// The name of a connected AWS account (or Azure subscription): longer than 2 characters
    /// once trimmed, at most 500.
    AccountName
);

impl AccountName {
    pub const TOO_SHORT: &'static str = "Account name must be longer than 2 characters";
    pub const TOO_LONG: &'static str = "Account name must be at most 500 characters";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        parse_name("account_name", input, Self::TOO_SHORT, Self::TOO_LONG).map(Self)
    }
}

string_newtype!(
    /// The name of a connected AWS organisation: longer than 2 characters once trimmed, at
    /// most 500.
    OrganizationName
);

impl OrganizationName {
    pub const TOO_SHORT: &'static str = "Organization name must be longer than 2 characters";
    pub const TOO_LONG: &'static str = "Organization name must be at most 500 characters";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        parse_name("organization_name", input, Self::TOO_SHORT, Self::TOO_LONG).map(Self)
    }
}

string_newtype!(
    /// An IAM role ARN: `arn:<partition>:iam::<12 digits>:role/<path/>name`.
    AwsRoleArn
);

impl AwsRoleArn {
    pub const MESSAGE: &'static str =
        "IAM role ARN must look like arn:aws:iam::123456789012:role/CostscopeReadOnly";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let arn = input.trim();
        if Self::split(arn).is_some() {
            Ok(Self(arn.to_owned()))
        } else {
            Err(FieldError::new("iam_role_arn", Self::MESSAGE))
        }
    }

    /// The role ARN every onboarded account gets from the template.
    pub fn default_for(account: &AwsAccountId) -> Self {
        Self(format!(
            "arn:aws:iam::{}:role/{}",
            account.as_str(),
            crate::aws_onboarding::ROLE_NAME
        ))
    }

    /// The account the role lives in.
    pub fn account_id(&self) -> &str {
        Self::split(&self.0)
            .map(|(_, account, _)| account)
            .unwrap_or_default()
    }

    /// The role's name (without its path).
    pub fn role_name(&self) -> &str {
        Self::split(&self.0)
            .map(|(_, _, name)| name)
            .unwrap_or_default()
    }

    /// (partition, account, role name) of a valid ARN.
    fn split(arn: &str) -> Option<(&str, &str, &str)> {
        let rest = arn.strip_prefix("arn:")?;
        let (partition, rest) = rest.split_once(':')?;
        let partition_ok = partition
            .strip_prefix("aws")
            .is_some_and(|p| p.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
        let rest = rest.strip_prefix("iam::")?;
        let (account, resource) = rest.split_once(':')?;
        let account_ok = account.len() == 12 && account.bytes().all(|b| b.is_ascii_digit());
        let path_and_name = resource.strip_prefix("role/")?;
        let (path, name) = match path_and_name.rsplit_once('/') {
            Some((path, name)) => (Some(path), name),
            None => (None, path_and_name),
        };
        // IAM: names are 1-64 of [A-Za-z0-9+=,.@_-]; a path is 1-512 printable ASCII
        // characters between slashes.
        let name_ok = (1..=64).contains(&name.len())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+=,.@_-".contains(c));
        let path_ok = path.is_none_or(|p| {
            p.len() < 512
                && !p.is_empty()
                && !p.contains("//")
                && p.chars().all(|c| c.is_ascii_graphic())
        });
        (partition_ok && account_ok && name_ok && path_ok).then_some((partition, account, name))
    }
}

string_newtype!(
    /// The external id a tenant's role demands in `sts:AssumeRole` (STS: 2 to 1224 of
    /// `[A-Za-z0-9+=,.@:/_-]`).
    AwsExternalId
);

impl AwsExternalId {
    pub const MESSAGE: &'static str =
        "External ID must be 2 to 1224 letters, digits or + = , . @ : / _ - characters";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let id = input.trim();
        let ok = (2..=1224).contains(&id.len())
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+=,.@:/_-".contains(c));
        if ok {
            Ok(Self(id.to_owned()))
        } else {
            Err(FieldError::new("external_id", Self::MESSAGE))
        }
    }
}

string_newtype!(
    /// An S3 bucket name under AWS's general-purpose bucket naming rules.
    S3BucketName
);

impl S3BucketName {
    pub const LENGTH: &'static str = "Bucket name must be 3 to 63 characters long";
    pub const CHARSET: &'static str =
        "Bucket name may contain only lowercase letters, digits, dots and hyphens";
    pub const ENDS: &'static str = "Bucket name must begin and end with a letter or digit";
    pub const DOTS: &'static str = "Bucket name must not contain two adjacent dots";
    pub const IP: &'static str = "Bucket name must not look like an IP address";
    pub const RESERVED: &'static str =
        "Bucket name must not use a prefix or suffix that AWS reserves (xn--, sthree-, amzn-s3-demo-, -s3alias, --ol-s3, .mrap, --x-s3, --table-s3)";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let name = input.trim();
        let err = |m| Err(FieldError::new("export_bucket", m));
        if !(3..=63).contains(&name.len()) {
            return err(Self::LENGTH);
        }
        if !name
            .chars()
            .all(|c| is_lower_alnum(c) || c == '.' || c == '-')
        {
            return err(Self::CHARSET);
        }
        let first_last_ok = name.starts_with(is_lower_alnum) && name.ends_with(is_lower_alnum);
        if !first_last_ok {
            return err(Self::ENDS);
        }
        if name.contains("..") {
            return err(Self::DOTS);
        }
        let parts: Vec<&str> = name.split('.').collect();
        if parts.len() == 4
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()))
        {
            return err(Self::IP);
        }
        let reserved_prefix = ["xn--", "sthree-", "amzn-s3-demo-"]
            .iter()
            .any(|p| name.starts_with(p));
        let reserved_suffix = ["-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"]
            .iter()
            .any(|s| name.ends_with(s));
        if reserved_prefix || reserved_suffix {
            return err(Self::RESERVED);
        }
        Ok(Self(name.to_owned()))
    }

    /// The bucket the onboarding template creates in `account`.
    pub fn default_for(account: &AwsAccountId) -> Self {
        Self(format!("costscope-exports-{}", account.as_str()))
    }
}

/// The path rule shared by export prefixes and Azure directories: segments of
/// `[A-Za-z0-9._-]` joined by single `/`, no leading or trailing `/`, no `.` or `..` segment;
/// empty is allowed (the root).
fn parse_path(
    field: &'static str,
    input: &str,
    messages: PathMessages,
) -> Result<String, FieldError> {
    let path = input.trim();
    if path.is_empty() {
        return Ok(String::new());
    }
    if path.len() > 512 {
        return Err(FieldError::new(field, messages.too_long));
    }
    if path.starts_with('/') || path.ends_with('/') {
        return Err(FieldError::new(field, messages.slashes));
    }
    let ok = path.split('/').all(|seg| {
        !seg.is_empty()
            && seg != "."
            && seg != ".."
            && seg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    });
    if !ok {
        return Err(FieldError::new(field, messages.charset));
    }
    Ok(path.to_owned())
}

struct PathMessages {
    too_long: &'static str,
    slashes: &'static str,
    charset: &'static str,
}

string_newtype!(
    /// The S3 prefix an AWS export is delivered under (`s3://bucket/<prefix>/<export>/…`);
    /// empty for the bucket's root.
    S3ExportPrefix
);

impl S3ExportPrefix {
    pub const TOO_LONG: &'static str = "Export prefix must be at most 512 characters";
    pub const SLASHES: &'static str = "Export prefix must not start or end with a slash";
    pub const CHARSET: &'static str =
        "Export prefix may contain only letters, digits, '.', '_', '-' and single slashes between folders";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        parse_path(
            "export_prefix",
            input,
            PathMessages {
                too_long: Self::TOO_LONG,
                slashes: Self::SLASHES,
                charset: Self::CHARSET,
            },
        )
        .map(Self)
    }

    /// The prefix the onboarding template delivers under.
    pub fn default_prefix() -> Self {
        Self(crate::aws_onboarding::DEFAULT_PREFIX.to_owned())
    }
}

string_newtype!(
    /// The name of an AWS Data Export (or legacy CUR report): 1 to 128 of `[A-Za-z0-9_-]`.
    AwsExportName
);

impl AwsExportName {
    pub const MESSAGE: &'static str =
        "Export name must be 1 to 128 letters, digits, underscores or hyphens";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let name = input.trim();
        let ok = (1..=128).contains(&name.len())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if ok {
            Ok(Self(name.to_owned()))
        } else {
            Err(FieldError::new("export_name", Self::MESSAGE))
        }
    }

    /// The export the onboarding template creates for `format`.
    pub fn default_for(format: crate::aws_onboarding::ExportFormat) -> Self {
        Self(format.default_export_name().to_owned())
    }
}

string_newtype!(
    /// An AWS region code such as `us-east-1`, `eu-central-2` or `us-gov-west-1`.
    AwsRegion
);

impl AwsRegion {
    pub const MESSAGE: &'static str = "Region must be an AWS region code such as us-east-1";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let region = input.trim();
        let parts: Vec<&str> = region.split('-').collect();
        let ok = region.len() <= 32
            && parts.len() >= 3
            && parts[0].len() == 2
            && parts[..parts.len() - 1]
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase()))
            && parts.last().is_some_and(|n| {
                (1..=2).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_digit())
            });
        if ok {
            Ok(Self(region.to_owned()))
        } else {
            Err(FieldError::new("export_region", Self::MESSAGE))
        }
    }

    /// Where AWS Data Exports live, and where the template is deployed.
    pub fn us_east_1() -> Self {
        Self("us-east-1".to_owned())
    }
}

// ---------------------------------------------------------------------------------------------
// GCP
// ---------------------------------------------------------------------------------------------

string_newtype!(
    /// The project id typed in the GCP wizard: required, at most 500 characters (spec 2 §5 GCP).
    GcpProjectId
);

impl GcpProjectId {
    pub const REQUIRED: &'static str = "Project ID is required";
    pub const TOO_LONG: &'static str = "Project ID must be at most 500 characters";
    pub const CONTROL: &'static str = "Project ID must not contain control characters";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let id = input.trim();
        if id.is_empty() {
            return Err(FieldError::new("account_id", Self::REQUIRED));
        }
        if id.chars().count() > MAX_CLOUD_TEXT_CHARS {
            return Err(FieldError::new("account_id", Self::TOO_LONG));
        }
        if has_control(id) {
            return Err(FieldError::new("account_id", Self::CONTROL));
        }
        Ok(Self(id.to_owned()))
    }
}

string_newtype!(
    /// The optional name of a GCP project connection: at most 500 characters; empty when not
    /// given.
    GcpAccountName
);

impl GcpAccountName {
    pub const TOO_LONG: &'static str = "Name must be at most 500 characters";
    pub const CONTROL: &'static str = "Name must not contain control characters";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let name = input.trim();
        if name.chars().count() > MAX_CLOUD_TEXT_CHARS {
            return Err(FieldError::new("account_name", Self::TOO_LONG));
        }
        if has_control(name) {
            return Err(FieldError::new("account_name", Self::CONTROL));
        }
        Ok(Self(name.to_owned()))
    }

    /// The name shown: the given one, else the project id.
    pub fn or_project(self, project: &GcpProjectId) -> Self {
        if self.0.is_empty() {
            Self(project.as_str().to_owned())
        } else {
            self
        }
    }
}

/// Whether `s` is a Google Cloud project id: `[a-z][a-z0-9-]{4,28}[a-z0-9]`, optionally
/// domain-scoped (`example.com:project`).
fn is_gcp_project(s: &str) -> bool {
    let project = match s.rsplit_once(':') {
        Some((domain, project)) => {
            let domain_ok = !domain.is_empty()
                && domain.len() <= 253
                && domain.split('.').all(|label| {
                    !label.is_empty()
                        && label.len() <= 63
                        && label.chars().all(|c| is_lower_alnum(c) || c == '-')
                        && !label.starts_with('-')
                        && !label.ends_with('-')
                });
            if !domain_ok {
                return false;
            }
            project
        }
        None => s,
    };
    (6..=30).contains(&project.len())
        && project.starts_with(|c: char| c.is_ascii_lowercase())
        && project.ends_with(is_lower_alnum)
        && project.chars().all(|c| is_lower_alnum(c) || c == '-')
}

fn is_bq_name(s: &str) -> bool {
    (1..=1024).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The Cloud Billing export table, `project.dataset.table` (standard or detailed export),
/// with a strict character set so that it can be written into a query as
/// `` `project.dataset.table` `` safely. A pair of surrounding backticks, as the BigQuery
/// console copies it, is accepted.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BigQueryTable {
    project: String,
    dataset: String,
    table: String,
}

impl BigQueryTable {
    pub const MESSAGE: &'static str = "Billing export table must be project.dataset.table";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let s = input.trim();
        let s = s
            .strip_prefix('`')
            .and_then(|s| s.strip_suffix('`'))
            .unwrap_or(s);
        let err = || FieldError::new("billing_table", Self::MESSAGE);
        let (rest, table) = s.rsplit_once('.').ok_or_else(err)?;
        let (project, dataset) = rest.rsplit_once('.').ok_or_else(err)?;
        if is_gcp_project(project) && is_bq_name(dataset) && is_bq_name(table) {
            Ok(Self {
                project: project.to_owned(),
                dataset: dataset.to_owned(),
                table: table.to_owned(),
            })
        } else {
            Err(err())
        }
    }

    pub fn project(&self) -> &str {
        &self.project
    }

    pub fn dataset(&self) -> &str {
        &self.dataset
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    /// The table as a query names it: `` `project.dataset.table` ``.
    pub fn sql_ref(&self) -> String {
        format!("`{self}`")
    }
}

impl std::fmt::Display for BigQueryTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.project, self.dataset, self.table)
    }
}

string_newtype!(
    /// The project BigQuery jobs run (and are billed) in, when it is not the table's:
    /// a Google Cloud project id (`[a-z][a-z0-9-]{4,28}[a-z0-9]`, optionally domain-scoped).
    GcpBillingProjectId
);

impl GcpBillingProjectId {
    pub const MESSAGE: &'static str =
        "Billing project must be a Google Cloud project ID (6 to 30 lowercase letters, digits or hyphens, starting with a letter)";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let id = input.trim();
        if is_gcp_project(id) {
            Ok(Self(id.to_owned()))
        } else {
            Err(FieldError::new("billing_project_id", Self::MESSAGE))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Azure
// ---------------------------------------------------------------------------------------------

string_newtype!(
    /// An Azure storage account name: 3 to 24 lowercase letters and digits.
    AzureStorageAccount
);

impl AzureStorageAccount {
    pub const MESSAGE: &'static str =
        "Storage account name must be 3 to 24 lowercase letters and digits";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let name = input.trim();
        if (3..=24).contains(&name.len()) && name.chars().all(is_lower_alnum) {
            Ok(Self(name.to_owned()))
        } else {
            Err(FieldError::new("storage_account", Self::MESSAGE))
        }
    }
}

string_newtype!(
    /// An Azure blob container name: 3 to 63 lowercase letters, digits and hyphens, starting
    /// and ending with a letter or digit, every hyphen between two letters or digits.
    AzureContainer
);

impl AzureContainer {
    pub const MESSAGE: &'static str =
        "Container name must be 3 to 63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let name = input.trim();
        let ok = (3..=63).contains(&name.len())
            && name.chars().all(|c| is_lower_alnum(c) || c == '-')
            && name.starts_with(is_lower_alnum)
            && name.ends_with(is_lower_alnum)
            && !name.contains("--");
        if ok {
            Ok(Self(name.to_owned()))
        } else {
            Err(FieldError::new("container", Self::MESSAGE))
        }
    }
}

string_newtype!(
    /// The directory in a container that a Cost Management export writes under; empty for the
    /// container's root.
    AzureDirectory
);

impl AzureDirectory {
    pub const TOO_LONG: &'static str = "Directory must be at most 512 characters";
    pub const SLASHES: &'static str = "Directory must not start or end with a slash";
    pub const CHARSET: &'static str =
        "Directory may contain only letters, digits, '.', '_', '-' and single slashes between folders";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        parse_path(
            "directory",
            input,
            PathMessages {
                too_long: Self::TOO_LONG,
                slashes: Self::SLASHES,
                charset: Self::CHARSET,
            },
        )
        .map(Self)
    }
}

/// A GUID as Azure writes it (8-4-4-4-12 hex digits), lowercased.
fn parse_guid(input: &str) -> Option<String> {
    let id = input.trim();
    let groups: Vec<&str> = id.split('-').collect();
    let ok = groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()));
    ok.then(|| id.to_ascii_lowercase())
}

macro_rules! guid_type {
    ($(#[$meta:meta])* $name:ident, $field:literal, $message:literal) => {
        string_newtype!($(#[$meta])* $name);

        impl $name {
            pub const MESSAGE: &'static str = $message;

            pub fn parse(input: &str) -> Result<Self, FieldError> {
                parse_guid(input)
                    .map(Self)
                    .ok_or(FieldError::new($field, Self::MESSAGE))
            }
        }
    };
}

guid_type!(
    /// An Azure subscription id (a GUID, stored lowercase).
    AzureSubscriptionId,
    "account_id",
    "Subscription ID must be a GUID such as 00000000-0000-0000-0000-000000000000"
);

guid_type!(
    /// A Microsoft Entra tenant (directory) id.
    AzureTenantId,
    "tenant_id",
    "Tenant ID must be a GUID such as 00000000-0000-0000-0000-000000000000"
);

guid_type!(
    /// A service principal's application (client) id.
    AzureClientId,
    "client_id",
    "Client ID must be a GUID such as 00000000-0000-0000-0000-000000000000"
);

#[cfg(test)]
mod tests {
    use super::*;

    fn msg<T: std::fmt::Debug>(r: Result<T, FieldError>) -> (&'static str, &'static str) {
        let e = r.unwrap_err();
        (e.field, e.message)
    }

    #[test]
    fn aws_account_id_is_exactly_twelve_digits() {
        assert_eq!(
            AwsAccountId::parse(" 012345678901 ").unwrap().as_str(),
            "012345678901"
        );
        for bad in [
            "",
            "12345678901",
            "1234567890123",
            "12345678901a",
            "1234-5678-9012",
            "１２３４５６７８９０１２",
        ] {
            assert_eq!(
                msg(AwsAccountId::parse(bad)),
                ("aws_account_id", "AWS Account ID must be exactly 12 digits"),
                "{bad}"
            );
        }
        assert_eq!(
            msg(AwsAccountId::parse_field("account_id", "x")).0,
            "account_id"
        );
    }

    #[test]
    fn organization_id_follows_the_root_format() {
        for ok in ["r-ab12", "r-0123456789abcdefghijklmnopqrstuv"] {
            assert_eq!(AwsOrganizationId::parse(ok).unwrap().as_str(), ok);
        }
        for bad in [
            "",
            "r-",
            "r-abc",
            "r-0123456789abcdefghijklmnopqrstuvw",
            "r-AB12",
            "o-ab12cd",
            "ab12",
            "r-ab_12",
            "r-ab12 x",
        ] {
            assert_eq!(
                msg(AwsOrganizationId::parse(bad)),
                (
                    "organization_id",
                    "Organization ID must follow the format: r-[0-9a-z]{4,32}"
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn names_are_longer_than_two_characters_and_trimmed() {
        assert_eq!(AccountName::parse("  Prod  ").unwrap().as_str(), "Prod");
        assert_eq!(AccountName::parse("abc").unwrap().as_str(), "abc");
        assert_eq!(AccountName::parse("Ünï").unwrap().as_str(), "Ünï");
        for bad in ["", "ab", "  ab  ", "ü "] {
            assert_eq!(
                msg(AccountName::parse(bad)),
                (
                    "account_name",
                    "Account name must be longer than 2 characters"
                )
            );
            assert_eq!(
                msg(OrganizationName::parse(bad)),
                (
                    "organization_name",
                    "Organization name must be longer than 2 characters"
                )
            );
        }
        let longest = "é".repeat(500);
        assert!(AccountName::parse(&longest).is_ok());
        assert_eq!(
            msg(AccountName::parse(&"a".repeat(501))).1,
            "Account name must be at most 500 characters"
        );
        assert_eq!(
            msg(OrganizationName::parse(&"a".repeat(501))).1,
            "Organization name must be at most 500 characters"
        );
        assert_eq!(
            msg(AccountName::parse("ab\u{0}cd")).1,
            "Name must not contain control characters"
        );
    }

    #[test]
    fn role_arns() {
        let arn = AwsRoleArn::parse("arn:aws:iam::123456789012:role/CostscopeReadOnly").unwrap();
        assert_eq!(arn.account_id(), "123456789012");
        assert_eq!(arn.role_name(), "CostscopeReadOnly");
        let pathed =
            AwsRoleArn::parse("arn:aws-us-gov:iam::123456789012:role/finops/team/Reader+1")
                .unwrap();
        assert_eq!(pathed.role_name(), "Reader+1");
        assert!(AwsRoleArn::parse("arn:aws-cn:iam::123456789012:role/x").is_ok());
        for bad in [
            "",
            "CostscopeReadOnly",
            "arn:aws:iam::12345678901:role/x",
            "arn:aws:iam::123456789012:user/x",
            "arn:aws:iam::123456789012:role/",
            "arn:aws:iam::123456789012:role//x",
            "arn:aws:iam:us-east-1:123456789012:role/x",
            "arn:gcp:iam::123456789012:role/x",
            "arn:aws:sts::123456789012:role/x",
            "arn:aws:iam::123456789012:role/bad name",
            "arn:aws:iam::123456789012:role/a\"b",
        ] {
            assert_eq!(
                msg(AwsRoleArn::parse(bad)),
                (
                    "iam_role_arn",
                    "IAM role ARN must look like arn:aws:iam::123456789012:role/CostscopeReadOnly"
                ),
                "{bad}"
            );
        }
        let long_name = format!("arn:aws:iam::123456789012:role/{}", "a".repeat(65));
        assert!(AwsRoleArn::parse(&long_name).is_err());
        let id = AwsAccountId::parse("123456789012").unwrap();
        assert_eq!(
            AwsRoleArn::default_for(&id).as_str(),
            "arn:aws:iam::123456789012:role/CostscopeReadOnly"
        );
    }

    #[test]
    fn external_ids() {
        assert!(AwsExternalId::parse("cs-5-2f1c9e0a").is_ok());
        assert!(AwsExternalId::parse("a:b/c@d=e,f.g+h_i-j").is_ok());
        for bad in ["", "a", "has space", "quote'", &"a".repeat(1225)] {
            assert_eq!(
                msg(AwsExternalId::parse(bad)),
                ("external_id", AwsExternalId::MESSAGE),
                "{bad}"
            );
        }
    }

    #[test]
    fn bucket_names() {
        for ok in [
            "costscope-exports-123456789012",
            "abc",
            "a.b-c",
            &"a".repeat(63),
            "1.2.3.4a",
        ] {
            assert_eq!(S3BucketName::parse(ok).unwrap().as_str(), ok);
        }
        let cases = [
            ("ab", S3BucketName::LENGTH),
            (&"a".repeat(64) as &str, S3BucketName::LENGTH),
            ("Costscope", S3BucketName::CHARSET),
            ("cost_scope", S3BucketName::CHARSET),
            ("cost/scope", S3BucketName::CHARSET),
            ("-costscope", S3BucketName::ENDS),
            ("costscope.", S3BucketName::ENDS),
            ("cost..scope", S3BucketName::DOTS),
            ("192.168.5.4", S3BucketName::IP),
            ("xn--costscope", S3BucketName::RESERVED),
            ("sthree-costscope", S3BucketName::RESERVED),
            ("amzn-s3-demo-bucket", S3BucketName::RESERVED),
            ("costscope-s3alias", S3BucketName::RESERVED),
            ("costscope--ol-s3", S3BucketName::RESERVED),
            ("costscope.mrap", S3BucketName::RESERVED),
            ("costscope--x-s3", S3BucketName::RESERVED),
            ("costscope--table-s3", S3BucketName::RESERVED),
        ];
        for (bad, message) in cases {
            assert_eq!(
                msg(S3BucketName::parse(bad)),
                ("export_bucket", message),
                "{bad}"
            );
        }
        let id = AwsAccountId::parse("123456789012").unwrap();
        assert_eq!(
            S3BucketName::default_for(&id).as_str(),
            "costscope-exports-123456789012"
        );
    }

    #[test]
    fn export_prefixes() {
        for ok in ["costscope", "billing/exports", "a.b_c-d/e", "2026"] {
            assert_eq!(S3ExportPrefix::parse(ok).unwrap().as_str(), ok);
        }
        assert_eq!(S3ExportPrefix::default_prefix().as_str(), "costscope");
        assert_eq!(S3ExportPrefix::parse("  ").unwrap().as_str(), "");
        let cases = [
            (&"a".repeat(513) as &str, S3ExportPrefix::TOO_LONG),
            ("/costscope", S3ExportPrefix::SLASHES),
            ("costscope/", S3ExportPrefix::SLASHES),
            ("a//b", S3ExportPrefix::CHARSET),
            ("a/../b", S3ExportPrefix::CHARSET),
            ("a/./b", S3ExportPrefix::CHARSET),
            ("with space", S3ExportPrefix::CHARSET),
            ("quote'", S3ExportPrefix::CHARSET),
            ("$(rm)", S3ExportPrefix::CHARSET),
            ("ünï", S3ExportPrefix::CHARSET),
        ];
        for (bad, message) in cases {
            assert_eq!(
                msg(S3ExportPrefix::parse(bad)),
                ("export_prefix", message),
                "{bad}"
            );
        }
    }

    #[test]
    fn export_names() {
        for ok in ["costscope-focus", "cur_2", "A"] {
            assert!(AwsExportName::parse(ok).is_ok());
        }
        for bad in ["", "a b", "a/b", "a.b", &"a".repeat(129)] {
            assert_eq!(
                msg(AwsExportName::parse(bad)),
                ("export_name", AwsExportName::MESSAGE),
                "{bad}"
            );
        }
    }

    #[test]
    fn regions() {
        for ok in [
            "us-east-1",
            "eu-central-2",
            "ap-southeast-5",
            "us-gov-west-1",
            "cn-northwest-1",
            "il-central-1",
        ] {
            assert_eq!(AwsRegion::parse(ok).unwrap().as_str(), ok);
        }
        for bad in [
            "",
            "us-east",
            "US-EAST-1",
            "useast1",
            "us-east-123",
            "usa-east-1",
            "us--1",
            "us-east-1a",
        ] {
            assert_eq!(
                msg(AwsRegion::parse(bad)),
                ("export_region", AwsRegion::MESSAGE),
                "{bad}"
            );
        }
    }

    #[test]
    fn gcp_project_ids_and_names() {
        assert_eq!(
            GcpProjectId::parse(" my-project ").unwrap().as_str(),
            "my-project"
        );
        assert_eq!(
            msg(GcpProjectId::parse("   ")),
            ("account_id", "Project ID is required")
        );
        assert!(GcpProjectId::parse(&"p".repeat(500)).is_ok());
        assert_eq!(
            msg(GcpProjectId::parse(&"p".repeat(501))),
            ("account_id", "Project ID must be at most 500 characters")
        );
        assert_eq!(msg(GcpProjectId::parse("a\nb")).1, GcpProjectId::CONTROL);

        assert_eq!(GcpAccountName::parse("").unwrap().as_str(), "");
        assert!(GcpAccountName::parse(&"n".repeat(500)).is_ok());
        assert_eq!(
            msg(GcpAccountName::parse(&"n".repeat(501))),
            ("account_name", "Name must be at most 500 characters")
        );
        let project = GcpProjectId::parse("my-project").unwrap();
        assert_eq!(
            GcpAccountName::parse(" ")
                .unwrap()
                .or_project(&project)
                .as_str(),
            "my-project"
        );
        assert_eq!(
            GcpAccountName::parse("Data")
                .unwrap()
                .or_project(&project)
                .as_str(),
            "Data"
        );
    }

    #[test]
    fn bigquery_tables() {
        let t = BigQueryTable::parse(
            "billing-prj-1.billing_export.gcp_billing_export_v1_0123AB_45CD67_89EF01",
        )
        .unwrap();
        assert_eq!(t.project(), "billing-prj-1");
        assert_eq!(t.dataset(), "billing_export");
        assert_eq!(t.table(), "gcp_billing_export_v1_0123AB_45CD67_89EF01");
        assert_eq!(
            t.sql_ref(),
            "`billing-prj-1.billing_export.gcp_billing_export_v1_0123AB_45CD67_89EF01`"
        );
        let scoped = BigQueryTable::parse("`example.com:my-project.ds.tbl`").unwrap();
        assert_eq!(scoped.project(), "example.com:my-project");
        assert_eq!(scoped.to_string(), "example.com:my-project.ds.tbl");
        assert!(BigQueryTable::parse(&format!("abcdef.{}.t", "d".repeat(1024))).is_ok());
        for bad in [
            "",
            "dataset.table",
            "my-project.ds",
            "my-project.ds.tbl.extra",
            "My-Project.ds.tbl",
            "1project.ds.tbl",
            "short.ds.tbl",
            "project-.ds.tbl",
            "a-project-name-that-is-far-too-long.ds.tbl",
            "my-project.d-s.tbl",
            "my-project.ds.t`bl",
            "my-project.ds.t bl",
            "my-project..tbl",
            "my-project.ds.",
            "`my-project.ds.tbl",
            ":my-project.ds.tbl",
            "exa_mple.com:my-project.ds.tbl",
            "my-project.ds.tbl; DROP TABLE x",
        ] {
            assert_eq!(
                msg(BigQueryTable::parse(bad)),
                (
                    "billing_table",
                    "Billing export table must be project.dataset.table"
                ),
                "{bad}"
            );
        }
        assert!(BigQueryTable::parse(&format!("abcdef.{}.t", "d".repeat(1025))).is_err());
    }

    #[test]
    fn billing_project_ids() {
        assert!(GcpBillingProjectId::parse("billing-prj-1").is_ok());
        assert!(GcpBillingProjectId::parse("google.com:my-project").is_ok());
        for bad in ["", "abc", "Billing", "has space1"] {
            assert_eq!(
                msg(GcpBillingProjectId::parse(bad)),
                ("billing_project_id", GcpBillingProjectId::MESSAGE)
            );
        }
    }

    #[test]
    fn azure_storage_accounts_and_containers() {
        for ok in ["abc", "costscope01", &"a".repeat(24)] {
            assert!(AzureStorageAccount::parse(ok).is_ok());
        }
        for bad in [
            "ab",
            &"a".repeat(25) as &str,
            "Costscope",
            "cost-scope",
            "cost_scope",
        ] {
            assert_eq!(
                msg(AzureStorageAccount::parse(bad)),
                ("storage_account", AzureStorageAccount::MESSAGE),
                "{bad}"
            );
        }
        for ok in ["exports", "cost-exports-1", "abc", &"a".repeat(63)] {
            assert!(AzureContainer::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "ab",
            &"a".repeat(64) as &str,
            "-exports",
            "exports-",
            "cost--exports",
            "Exports",
            "cost_exports",
            "cost.exports",
        ] {
            assert_eq!(
                msg(AzureContainer::parse(bad)),
                ("container", AzureContainer::MESSAGE),
                "{bad}"
            );
        }
    }

    #[test]
    fn azure_directories() {
        assert_eq!(AzureDirectory::parse("").unwrap().as_str(), "");
        assert_eq!(
            AzureDirectory::parse("exports/daily").unwrap().as_str(),
            "exports/daily"
        );
        assert_eq!(
            msg(AzureDirectory::parse("/exports")),
            ("directory", AzureDirectory::SLASHES)
        );
        assert_eq!(
            msg(AzureDirectory::parse("a/../b")),
            ("directory", AzureDirectory::CHARSET)
        );
        assert_eq!(
            msg(AzureDirectory::parse(&"a".repeat(513))),
            ("directory", AzureDirectory::TOO_LONG)
        );
    }

    #[test]
    fn azure_guids() {
        let id = AzureSubscriptionId::parse(" 0F8FAD5B-D9CB-469F-A165-70867728950E ").unwrap();
        assert_eq!(id.as_str(), "0f8fad5b-d9cb-469f-a165-70867728950e");
        for bad in [
            "",
            "0f8fad5b-d9cb-469f-a165-70867728950",
            "0f8fad5bd9cb469fa16570867728950e",
            "0f8fad5b-d9cb-469f-a165-70867728950g",
            "{0f8fad5b-d9cb-469f-a165-70867728950e}",
        ] {
            assert_eq!(
                msg(AzureSubscriptionId::parse(bad)),
                ("account_id", AzureSubscriptionId::MESSAGE),
                "{bad}"
            );
        }
        assert_eq!(msg(AzureTenantId::parse("x")).0, "tenant_id");
        assert_eq!(msg(AzureClientId::parse("x")).0, "client_id");
    }
}

/// Where Google's service-account keys send their token requests.
pub const GOOGLE_TOKEN_URI: &str = "https://oauth2.googleapis.com/token";
/// A GCP key naming another token endpoint, on a server that allows no custom endpoints.
pub const CUSTOM_TOKEN_URI_REFUSED: &str =
    "The key file's token_uri must be https://oauth2.googleapis.com/token on this server";
/// An Azure blob endpoint given on a server that allows no custom endpoints.
pub const CUSTOM_BLOB_ENDPOINT_REFUSED: &str =
    "This server does not allow a custom blob endpoint: leave it empty";

/// Whether a connection may send requests where it says: a GCP key's token endpoint must be
/// Google's, and an Azure export must use its account's own blob endpoint (`None`), unless the
/// server allows custom endpoints (`[cloud] allow_custom_endpoints`: emulators, tests). Keeps a
/// tenant from pointing the server at addresses of its own network.
pub fn custom_endpoint_refusal(
    token_uri: Option<&str>,
    blob_endpoint: Option<&str>,
    custom_endpoints_allowed: bool,
) -> Option<&'static str> {
    if custom_endpoints_allowed {
        return None;
    }
    if token_uri.is_some_and(|uri| uri != GOOGLE_TOKEN_URI) {
        return Some(CUSTOM_TOKEN_URI_REFUSED);
    }
    if blob_endpoint.is_some() {
        return Some(CUSTOM_BLOB_ENDPOINT_REFUSED);
    }
    None
}

#[cfg(test)]
mod endpoint_tests {
    use super::*;

    #[test]
    fn only_googles_token_endpoint_and_the_accounts_own_blob_endpoint_unless_allowed() {
        assert_eq!(
            custom_endpoint_refusal(Some(GOOGLE_TOKEN_URI), None, false),
            None
        );
        assert_eq!(
            custom_endpoint_refusal(Some("http://169.254.169.254/token"), None, false),
            Some(CUSTOM_TOKEN_URI_REFUSED)
        );
        assert_eq!(
            custom_endpoint_refusal(None, Some("http://10.0.0.1/acct"), false),
            Some(CUSTOM_BLOB_ENDPOINT_REFUSED)
        );
        assert_eq!(custom_endpoint_refusal(None, None, false), None);
        assert_eq!(
            custom_endpoint_refusal(
                Some("http://127.0.0.1:1/t"),
                Some("http://127.0.0.1:2"),
                true
            ),
            None
        );
    }
}
