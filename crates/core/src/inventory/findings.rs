//! IAM and compliance findings on discovered resources (spec 1 §2.6's IAM and Compliance tabs,
//! built natively on the discovered data; issue 14).
//!
//! The rules read only the property keys of [`super::properties`]. A rule whose input a
//! resource does not carry (a key missing, a time that does not parse) says nothing about that
//! resource: a finding is raised on evidence, never on a guess. Deleted resources raise none.
//!
//! | kind | category | severity | rule |
//! |---|---|---|---|
//! | `iam_user_without_mfa` | iam | high | `HasConsolePassword` true and `MfaEnabled` false |
//! | `iam_access_key_old` | iam | medium | `Status` `Active` and `CreateDate` more than 90 days before now |
//! | `iam_role_unused` | iam | low | `RoleLastUsed` more than 90 days before now, or `null` (never used) and `CreateDate` more than 90 days before now; service-linked roles (path `/aws-service-role/`) are AWS's and left out |
//! | `s3_bucket_public` | compliance | high | an ACL grant of `READ` or `FULL_CONTROL` to AllUsers or AuthenticatedUsers unless `PublicAccessBlock.IgnorePublicAcls`; or `PolicyIsPublic` unless `PublicAccessBlock.RestrictPublicBuckets` |
//! | `security_group_open_all_traffic` | compliance | high | a rule of protocol `-1` (all traffic) from `0.0.0.0/0` or `::/0` |
//! | `security_group_open_admin_port` | compliance | high | a TCP rule (`tcp`/`6`) from anywhere whose port range covers 22 (SSH) or 3389 (RDP) |
//! | `security_group_open_database_port` | compliance | medium | a TCP rule from anywhere covering 3306, 5432, 1433, 27017 or 6379 |
//! | `ebs_volume_unencrypted` | compliance | medium | `Encrypted` false |
//! | `rds_instance_unencrypted` | compliance | medium | `StorageEncrypted` false |
//!
//! A security group open to all traffic raises only the all-traffic finding (it covers the
//! ports). "More than 90 days" is strict: a key created exactly 90 days ago is not yet a
//! finding.
//!
//! A finding's id is stable across runs: `kind:account:region:resource_id` (the region keeps
//! apart two RDS instances of one name in two regions).

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::properties::{at, bool_at, f64_at, is_null_at, str_at, time_at};
use super::{resource_types, Resource, ResourceKey};

/// "Older than 90 days" for access keys and unused roles.
pub const STALE_AFTER_DAYS: i64 = 90;
/// Administrative ports that must not be open to the internet.
pub const ADMIN_PORTS: [(u16, &str); 2] = [(22, "SSH"), (3389, "RDP")];
/// Database ports that should not be open to the internet.
pub const DATABASE_PORTS: [(u16, &str); 5] = [
    (3306, "MySQL"),
    (5432, "PostgreSQL"),
    (1433, "SQL Server"),
    (27017, "MongoDB"),
    (6379, "Redis"),
];

const ALL_USERS_URI: &str = "http://acs.amazonaws.com/groups/global/AllUsers";
const AUTHENTICATED_USERS_URI: &str = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";

/// Which tab a finding belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FindingCategory {
    Iam,
    Compliance,
}

impl FindingCategory {
    pub const fn as_str(self) -> &'static str {
        match self {
            FindingCategory::Iam => "iam",
            FindingCategory::Compliance => "compliance",
        }
    }

    /// `iam` or `compliance`, as the `category` query parameter names it.
    pub fn parse(input: &str) -> Option<Self> {
        match input.trim() {
            "iam" => Some(FindingCategory::Iam),
            "compliance" => Some(FindingCategory::Compliance),
            _ => None,
        }
    }
}

/// How urgent a finding is; ordered from the most urgent.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    High,
    Medium,
    Low,
}

/// What a finding is about.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    IamUserWithoutMfa,
    IamAccessKeyOld,
    IamRoleUnused,
    S3BucketPublic,
    SecurityGroupOpenAllTraffic,
    SecurityGroupOpenAdminPort,
    SecurityGroupOpenDatabasePort,
    EbsVolumeUnencrypted,
    RdsInstanceUnencrypted,
}

impl FindingKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            FindingKind::IamUserWithoutMfa => "iam_user_without_mfa",
            FindingKind::IamAccessKeyOld => "iam_access_key_old",
            FindingKind::IamRoleUnused => "iam_role_unused",
            FindingKind::S3BucketPublic => "s3_bucket_public",
            FindingKind::SecurityGroupOpenAllTraffic => "security_group_open_all_traffic",
            FindingKind::SecurityGroupOpenAdminPort => "security_group_open_admin_port",
            FindingKind::SecurityGroupOpenDatabasePort => "security_group_open_database_port",
            FindingKind::EbsVolumeUnencrypted => "ebs_volume_unencrypted",
            FindingKind::RdsInstanceUnencrypted => "rds_instance_unencrypted",
        }
    }

    pub const fn category(self) -> FindingCategory {
        match self {
            FindingKind::IamUserWithoutMfa
            | FindingKind::IamAccessKeyOld
            | FindingKind::IamRoleUnused => FindingCategory::Iam,
            _ => FindingCategory::Compliance,
        }
    }

    pub const fn severity(self) -> Severity {
        match self {
            FindingKind::IamUserWithoutMfa
            | FindingKind::S3BucketPublic
            | FindingKind::SecurityGroupOpenAllTraffic
            | FindingKind::SecurityGroupOpenAdminPort => Severity::High,
            FindingKind::IamAccessKeyOld
            | FindingKind::SecurityGroupOpenDatabasePort
            | FindingKind::EbsVolumeUnencrypted
            | FindingKind::RdsInstanceUnencrypted => Severity::Medium,
            FindingKind::IamRoleUnused => Severity::Low,
        }
    }
}

/// One finding about one resource.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable across runs: `kind:account:region:resource_id`.
    pub id: String,
    pub kind: FindingKind,
    pub category: FindingCategory,
    pub severity: Severity,
    pub resource: ResourceKey,
    pub title: String,
    /// What was seen, in words (the values the rule read).
    pub evidence: String,
}

impl Finding {
    fn new(kind: FindingKind, key: &ResourceKey, title: String, evidence: String) -> Self {
        Finding {
            id: finding_id(kind.as_str(), key),
            kind,
            category: kind.category(),
            severity: kind.severity(),
            resource: key.clone(),
            title,
            evidence,
        }
    }
}

/// The stable id of a finding or recommendation of `kind` about `key`.
pub fn finding_id(kind: &str, key: &ResourceKey) -> String {
    format!(
        "{kind}:{}:{}:{}",
        key.account_id, key.region, key.resource_id
    )
}

/// Every finding about the live resources given, most severe first, then by kind and
/// resource.
pub fn findings(resources: &[Resource], now: DateTime<Utc>) -> Vec<Finding> {
    let mut out = Vec::new();
    for resource in resources.iter().filter(|r| r.d_time.is_none()) {
        let key = &resource.key;
        let p = &resource.properties;
        match key.resource_type.as_str() {
            resource_types::IAM_USER => out.extend(user_without_mfa(key, &observed(resource))),
            resource_types::IAM_ACCESS_KEY => {
                out.extend(old_access_key(key, &observed(resource), now));
            }
            resource_types::IAM_ROLE => out.extend(unused_role(key, &observed(resource), now)),
            resource_types::S3_BUCKET => out.extend(public_bucket(key, p)),
            resource_types::EC2_SECURITY_GROUP => out.extend(open_security_group(key, p)),
            resource_types::EC2_VOLUME if bool_at(p, "Encrypted") == Some(false) => {
                out.push(Finding::new(
                    FindingKind::EbsVolumeUnencrypted,
                    key,
                    format!("EBS volume {} is not encrypted", key.resource_id),
                    "Encrypted is false: its data, snapshots and the traffic to its \
                         instance are stored and sent unencrypted."
                        .to_owned(),
                ));
            }
            resource_types::RDS_DB_INSTANCE if bool_at(p, "StorageEncrypted") == Some(false) => {
                let engine = str_at(p, "Engine").unwrap_or("database");
                out.push(Finding::new(
                    FindingKind::RdsInstanceUnencrypted,
                    key,
                    format!("RDS instance {} is not encrypted", key.resource_id),
                    format!(
                        "StorageEncrypted is false: the {engine} instance's storage, backups \
                             and snapshots are unencrypted."
                    ),
                ));
            }
            _ => {}
        }
    }
    out.sort_by(|a, b| (a.severity, a.kind, &a.resource).cmp(&(b.severity, b.kind, &b.resource)));
    out
}

/// The properties with the resource's metrics laid over them: discovery keeps what changes by
/// itself (a role's, user's or key's last use) in metrics, so that using it makes no snapshot.
fn observed(resource: &Resource) -> Value {
    let mut merged = resource.properties.clone();
    if let (Some(target), Some(Value::Object(metrics))) =
        (merged.as_object_mut(), resource.metrics.as_ref())
    {
        for (key, value) in metrics {
            target.insert(key.clone(), value.clone());
        }
    }
    merged
}

fn day(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d").to_string()
}

/// Whole days from `t` to `now`.
fn age_days(t: DateTime<Utc>, now: DateTime<Utc>) -> i64 {
    (now - t).num_days()
}

fn older_than(t: DateTime<Utc>, days: i64, now: DateTime<Utc>) -> bool {
    now - t > Duration::days(days)
}

fn user_without_mfa(key: &ResourceKey, p: &Value) -> Option<Finding> {
    if bool_at(p, "HasConsolePassword")? && !bool_at(p, "MfaEnabled")? {
        let last_used = time_at(p, "PasswordLastUsed").map_or_else(
            || "never used".to_owned(),
            |t| format!("last used {}", day(t)),
        );
        Some(Finding::new(
            FindingKind::IamUserWithoutMfa,
            key,
            format!(
                "IAM user {} signs in to the console without MFA",
                key.resource_id
            ),
            format!("The user has a console password ({last_used}) and no MFA device."),
        ))
    } else {
        None
    }
}

fn old_access_key(key: &ResourceKey, p: &Value, now: DateTime<Utc>) -> Option<Finding> {
    if str_at(p, "Status")? != "Active" {
        return None;
    }
    let created = time_at(p, "CreateDate")?;
    if !older_than(created, STALE_AFTER_DAYS, now) {
        return None;
    }
    let user = str_at(p, "UserName").unwrap_or("an unknown user");
    let last_used = time_at(p, "LastUsedDate").map_or_else(
        || "never used".to_owned(),
        |t| format!("last used {}", day(t)),
    );
    let age = age_days(created, now);
    Some(Finding::new(
        FindingKind::IamAccessKeyOld,
        key,
        format!("Access key {} of {user} is {age} days old", key.resource_id),
        format!(
            "Active since {} ({age} days, more than {STALE_AFTER_DAYS}); {last_used}. Rotate it.",
            day(created)
        ),
    ))
}

fn unused_role(key: &ResourceKey, p: &Value, now: DateTime<Utc>) -> Option<Finding> {
    let service_linked =
        str_at(p, "Arn").is_some_and(|arn| arn.contains(":role/aws-service-role/"));
    if service_linked {
        return None;
    }
    let evidence = if let Some(last_used) = time_at(p, "RoleLastUsed") {
        if !older_than(last_used, STALE_AFTER_DAYS, now) {
            return None;
        }
        format!(
            "Last used {} ({} days ago, more than {STALE_AFTER_DAYS}).",
            day(last_used),
            age_days(last_used, now)
        )
    } else if is_null_at(p, "RoleLastUsed") {
        let created = time_at(p, "CreateDate")?;
        if !older_than(created, STALE_AFTER_DAYS, now) {
            return None;
        }
        format!(
            "Never used since it was created on {} ({} days ago).",
            day(created),
            age_days(created, now)
        )
    } else {
        return None;
    };
    Some(Finding::new(
        FindingKind::IamRoleUnused,
        key,
        format!(
            "IAM role {} has not been used for {STALE_AFTER_DAYS} days",
            key.resource_id
        ),
        evidence,
    ))
}

fn public_bucket(key: &ResourceKey, p: &Value) -> Option<Finding> {
    let block = |setting: &str| bool_at(p, &format!("PublicAccessBlock.{setting}")) == Some(true);
    let mut reasons = Vec::new();
    if !block("IgnorePublicAcls") {
        if let Some(Value::Array(grants)) = at(p, "AclGrants") {
            for grant in grants {
                let uri = str_at(grant, "Grantee.URI");
                let group = match uri {
                    Some(ALL_USERS_URI) => "everyone (AllUsers)",
                    Some(AUTHENTICATED_USERS_URI) => "every AWS account (AuthenticatedUsers)",
                    _ => continue,
                };
                let permission = str_at(grant, "Permission").unwrap_or_default();
                if matches!(permission, "READ" | "FULL_CONTROL") {
                    let reason = format!("its ACL grants {permission} to {group}");
                    if !reasons.contains(&reason) {
                        reasons.push(reason);
                    }
                }
            }
        }
    }
    if bool_at(p, "PolicyIsPublic") == Some(true) && !block("RestrictPublicBuckets") {
        reasons.push("its bucket policy is public".to_owned());
    }
    if reasons.is_empty() {
        return None;
    }
    Some(Finding::new(
        FindingKind::S3BucketPublic,
        key,
        format!("S3 bucket {} is publicly readable", key.resource_id),
        format!(
            "The bucket is readable from outside the account: {}; no Block Public Access \
             setting stops it.",
            reasons.join("; ")
        ),
    ))
}

/// A security group rule open to the internet: its protocol, port range and the open ranges.
struct OpenRule {
    protocol: String,
    ports: Option<(i64, i64)>,
    sources: Vec<String>,
}

impl OpenRule {
    fn describe(&self) -> String {
        let what = match (self.protocol.as_str(), self.ports) {
            ("-1", _) => "all traffic".to_owned(),
            (proto, Some((from, to))) if from == to => format!("{proto} port {from}"),
            (proto, Some((from, to))) => format!("{proto} ports {from}-{to}"),
            (proto, None) => format!("{proto} (all ports)"),
        };
        format!("{what} from {}", self.sources.join(" and "))
    }

    fn is_tcp(&self) -> bool {
        matches!(self.protocol.to_ascii_lowercase().as_str(), "tcp" | "6")
    }

    fn covers(&self, port: u16) -> bool {
        match self.ports {
            // TCP without ports in the API means every port.
            None => true,
            Some((from, to)) => (from..=to).contains(&i64::from(port)),
        }
    }
}

fn open_rules(p: &Value) -> Vec<OpenRule> {
    let Some(Value::Array(permissions)) = at(p, "IpPermissions") else {
        return Vec::new();
    };
    permissions
        .iter()
        .filter_map(|perm| {
            let mut sources = Vec::new();
            if let Some(Value::Array(ranges)) = at(perm, "IpRanges") {
                if ranges
                    .iter()
                    .any(|r| str_at(r, "CidrIp") == Some("0.0.0.0/0"))
                {
                    sources.push("0.0.0.0/0".to_owned());
                }
            }
            if let Some(Value::Array(ranges)) = at(perm, "Ipv6Ranges") {
                if ranges.iter().any(|r| str_at(r, "CidrIpv6") == Some("::/0")) {
                    sources.push("::/0".to_owned());
                }
            }
            if sources.is_empty() {
                return None;
            }
            let protocol = match at(perm, "IpProtocol") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                _ => return None,
            };
            let from = f64_at(perm, "FromPort");
            let to = f64_at(perm, "ToPort");
            #[allow(clippy::cast_possible_truncation)]
            let ports = match (from, to) {
                (Some(from), Some(to)) if from >= 0.0 && to >= 0.0 => {
                    Some((from as i64, to as i64))
                }
                _ => None,
            };
            Some(OpenRule {
                protocol,
                ports,
                sources,
            })
        })
        .collect()
}

fn open_security_group(key: &ResourceKey, p: &Value) -> Vec<Finding> {
    let rules = open_rules(p);
    let name = str_at(p, "GroupName")
        .map(|n| format!("{} ({n})", key.resource_id))
        .unwrap_or_else(|| key.resource_id.clone());
    let all: Vec<String> = rules
        .iter()
        .filter(|r| r.protocol == "-1")
        .map(OpenRule::describe)
        .collect();
    if !all.is_empty() {
        return vec![Finding::new(
            FindingKind::SecurityGroupOpenAllTraffic,
            key,
            format!("Security group {name} allows all traffic from the internet"),
            format!("Inbound rule: {}.", all.join("; ")),
        )];
    }
    let mut out = Vec::new();
    for (kind, ports, what) in [
        (
            FindingKind::SecurityGroupOpenAdminPort,
            &ADMIN_PORTS[..],
            "administrative",
        ),
        (
            FindingKind::SecurityGroupOpenDatabasePort,
            &DATABASE_PORTS[..],
            "database",
        ),
    ] {
        let mut open_ports = Vec::new();
        let mut matched_rules = Vec::new();
        for rule in rules.iter().filter(|r| r.is_tcp()) {
            let covered: Vec<String> = ports
                .iter()
                .filter(|(port, _)| rule.covers(*port))
                .map(|(port, label)| format!("{port} ({label})"))
                .collect();
            if !covered.is_empty() {
                for port in covered {
                    if !open_ports.contains(&port) {
                        open_ports.push(port);
                    }
                }
                matched_rules.push(rule.describe());
            }
        }
        if !open_ports.is_empty() {
            out.push(Finding::new(
                kind,
                key,
                format!(
                    "Security group {name} opens {what} ports to the internet: {}",
                    open_ports.join(", ")
                ),
                format!("Inbound rules: {}.", matched_rules.join("; ")),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use serde_json::json;

    use super::*;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap()
    }

    fn rfc(t: DateTime<Utc>) -> String {
        t.to_rfc3339()
    }

    fn resource(resource_type: &str, id: &str, properties: Value) -> Resource {
        let t = now() - Duration::days(400);
        Resource {
            key: ResourceKey {
                account_id: "111122223333".into(),
                region: if resource_types::is_global(resource_type) {
                    super::super::GLOBAL_REGION.into()
                } else {
                    "eu-west-1".into()
                },
                resource_type: resource_type.into(),
                resource_id: id.into(),
            },
            arn: None,
            connection_id: 1,
            c_time: t,
            m_time: t,
            d_time: None,
            last_seen: now(),
            properties,
            tags: Default::default(),
            metrics: None,
        }
    }

    fn kinds(resources: &[Resource]) -> Vec<(FindingKind, String)> {
        findings(resources, now())
            .into_iter()
            .map(|f| (f.kind, f.resource.resource_id))
            .collect()
    }

    #[test]
    fn users_with_a_console_password_and_no_mfa() {
        let resources = vec![
            resource(
                resource_types::IAM_USER,
                "alice",
                json!({"HasConsolePassword": true, "MfaEnabled": false, "PasswordLastUsed": "2026-11-01T00:00:00Z"}),
            ),
            resource(
                resource_types::IAM_USER,
                "bob",
                json!({"HasConsolePassword": true, "MfaEnabled": true}),
            ),
            resource(
                resource_types::IAM_USER,
                "ci",
                json!({"HasConsolePassword": false, "MfaEnabled": false}),
            ),
            // Unknown MFA state: no finding on a guess.
            resource(
                resource_types::IAM_USER,
                "dave",
                json!({"HasConsolePassword": true}),
            ),
        ];
        let found = findings(&resources, now());
        assert_eq!(found.len(), 1);
        let f = &found[0];
        assert_eq!(f.kind, FindingKind::IamUserWithoutMfa);
        assert_eq!(f.category, FindingCategory::Iam);
        assert_eq!(f.severity, Severity::High);
        assert_eq!(f.id, "iam_user_without_mfa:111122223333:global:alice");
        assert!(
            f.evidence.contains("last used 2026-11-01"),
            "{}",
            f.evidence
        );
    }

    #[test]
    fn active_access_keys_older_than_90_days() {
        let key = |id: &str, status: &str, age: Duration| {
            resource(
                resource_types::IAM_ACCESS_KEY,
                id,
                json!({"Status": status, "UserName": "alice", "CreateDate": rfc(now() - age), "LastUsedDate": null}),
            )
        };
        let resources = vec![
            key("AKIAOLD", "Active", Duration::days(91)),
            key("AKIAEXACT", "Active", Duration::days(90)),
            key(
                "AKIAJUSTOVER",
                "Active",
                Duration::days(90) + Duration::seconds(1),
            ),
            key("AKIAINACTIVE", "Inactive", Duration::days(400)),
            key("AKIANEW", "Active", Duration::days(3)),
            resource(
                resource_types::IAM_ACCESS_KEY,
                "AKIANODATE",
                json!({"Status": "Active"}),
            ),
        ];
        assert_eq!(
            kinds(&resources),
            vec![
                (FindingKind::IamAccessKeyOld, "AKIAJUSTOVER".to_owned()),
                (FindingKind::IamAccessKeyOld, "AKIAOLD".to_owned()),
            ]
        );
        let f = &findings(&resources[..1], now())[0];
        assert_eq!(f.title, "Access key AKIAOLD of alice is 91 days old");
        assert!(f.evidence.contains("never used"));
    }

    #[test]
    fn last_use_is_read_from_the_metrics_discovery_keeps_it_in() {
        let role = |id: &str, last_used_days_ago: i64| {
            let mut role = resource(
                resource_types::IAM_ROLE,
                id,
                json!({
                    "Arn": format!("arn:aws:iam::111122223333:role/{id}"),
                    "CreateDate": rfc(now() - Duration::days(400)),
                }),
            );
            role.metrics = Some(json!({
                "RoleLastUsed": rfc(now() - Duration::days(last_used_days_ago)),
            }));
            role
        };
        assert_eq!(
            kinds(&[role("stale", 120), role("recent", 3)]),
            vec![(FindingKind::IamRoleUnused, "stale".to_owned())]
        );
    }

    #[test]
    fn roles_unused_for_90_days_or_never_used() {
        let role = |id: &str, created: Duration, last: Option<Duration>| {
            resource(
                resource_types::IAM_ROLE,
                id,
                json!({
                    "Arn": format!("arn:aws:iam::111122223333:role/{id}"),
                    "CreateDate": rfc(now() - created),
                    "RoleLastUsed": last.map(|d| rfc(now() - d)),
                }),
            )
        };
        let resources = vec![
            role("stale", Duration::days(400), Some(Duration::days(120))),
            role("recent", Duration::days(400), Some(Duration::days(5))),
            role("exactly90", Duration::days(400), Some(Duration::days(90))),
            role("never-old", Duration::days(91), None),
            role("never-new", Duration::days(90), None),
            resource(
                resource_types::IAM_ROLE,
                "AWSServiceRoleForSupport",
                json!({
                    "Arn": "arn:aws:iam::111122223333:role/aws-service-role/support.amazonaws.com/AWSServiceRoleForSupport",
                    "CreateDate": rfc(now() - Duration::days(900)),
                    "RoleLastUsed": null,
                }),
            ),
            // RoleLastUsed not written at all: unknown, no finding.
            resource(
                resource_types::IAM_ROLE,
                "unknown",
                json!({"CreateDate": rfc(now() - Duration::days(900))}),
            ),
        ];
        assert_eq!(
            kinds(&resources),
            vec![
                (FindingKind::IamRoleUnused, "never-old".to_owned()),
                (FindingKind::IamRoleUnused, "stale".to_owned()),
            ]
        );
        let found = findings(&resources, now());
        assert_eq!(found[0].severity, Severity::Low);
        assert!(
            found[0].evidence.starts_with("Never used"),
            "{}",
            found[0].evidence
        );
        assert!(
            found[1].evidence.contains("120 days ago"),
            "{}",
            found[1].evidence
        );
    }

    fn bucket(id: &str, grants: Value, policy_public: bool, block: Value) -> Resource {
        resource(
            resource_types::S3_BUCKET,
            id,
            json!({"Name": id, "AclGrants": grants, "PolicyIsPublic": policy_public, "PublicAccessBlock": block}),
        )
    }

    #[test]
    fn publicly_readable_buckets() {
        let grant = |uri: &str, permission: &str| json!({"Grantee": {"URI": uri, "ID": null}, "Permission": permission});
        let owner = json!({"Grantee": {"URI": null, "ID": "abc"}, "Permission": "FULL_CONTROL"});
        let resources = vec![
            bucket(
                "acl-read",
                json!([owner, grant(ALL_USERS_URI, "READ")]),
                false,
                Value::Null,
            ),
            bucket(
                "acl-auth-full",
                json!([grant(AUTHENTICATED_USERS_URI, "FULL_CONTROL")]),
                false,
                Value::Null,
            ),
            bucket(
                "acl-write-only",
                json!([grant(ALL_USERS_URI, "WRITE")]),
                false,
                Value::Null,
            ),
            bucket(
                "acl-ignored",
                json!([grant(ALL_USERS_URI, "READ")]),
                false,
                json!({"IgnorePublicAcls": true, "RestrictPublicBuckets": false}),
            ),
            bucket(
                "policy",
                json!([owner]),
                true,
                json!({"IgnorePublicAcls": true}),
            ),
            bucket(
                "policy-restricted",
                json!([]),
                true,
                json!({"RestrictPublicBuckets": true}),
            ),
            bucket("private", json!([owner]), false, Value::Null),
        ];
        assert_eq!(
            kinds(&resources),
            vec![
                (FindingKind::S3BucketPublic, "acl-auth-full".to_owned()),
                (FindingKind::S3BucketPublic, "acl-read".to_owned()),
                (FindingKind::S3BucketPublic, "policy".to_owned()),
            ]
        );
        let f = findings(&resources[..1], now()).remove(0);
        assert_eq!(f.category, FindingCategory::Compliance);
        assert!(
            f.evidence.contains("grants READ to everyone (AllUsers)"),
            "{}",
            f.evidence
        );
    }

    fn group(id: &str, permissions: Value) -> Resource {
        resource(
            resource_types::EC2_SECURITY_GROUP,
            id,
            json!({"GroupId": id, "GroupName": "web", "IpPermissions": permissions}),
        )
    }

    fn rule(protocol: &str, from: Option<i64>, to: Option<i64>, v4: &[&str], v6: &[&str]) -> Value {
        json!({
            "IpProtocol": protocol,
            "FromPort": from,
            "ToPort": to,
            "IpRanges": v4.iter().map(|c| json!({"CidrIp": c})).collect::<Vec<_>>(),
            "Ipv6Ranges": v6.iter().map(|c| json!({"CidrIpv6": c})).collect::<Vec<_>>(),
        })
    }

    #[test]
    fn security_groups_open_to_the_internet() {
        let resources = vec![
            group(
                "sg-ssh",
                json!([rule("tcp", Some(22), Some(22), &["0.0.0.0/0"], &[])]),
            ),
            group(
                "sg-rdp6",
                json!([rule("tcp", Some(3389), Some(3389), &[], &["::/0"])]),
            ),
            group(
                "sg-range",
                json!([rule("6", Some(0), Some(65535), &["0.0.0.0/0"], &[])]),
            ),
            group(
                "sg-all",
                json!([
                    rule("-1", None, None, &["0.0.0.0/0"], &[]),
                    rule("tcp", Some(22), Some(22), &["0.0.0.0/0"], &[])
                ]),
            ),
            group(
                "sg-db",
                json!([rule("tcp", Some(5432), Some(5432), &["0.0.0.0/0"], &[])]),
            ),
            group(
                "sg-private",
                json!([rule("tcp", Some(22), Some(22), &["10.0.0.0/8"], &[])]),
            ),
            group(
                "sg-https",
                json!([rule("tcp", Some(443), Some(443), &["0.0.0.0/0"], &["::/0"])]),
            ),
            group(
                "sg-udp",
                json!([rule("udp", Some(0), Some(65535), &["0.0.0.0/0"], &[])]),
            ),
            group("sg-empty", json!([])),
        ];
        assert_eq!(
            kinds(&resources),
            vec![
                (
                    FindingKind::SecurityGroupOpenAllTraffic,
                    "sg-all".to_owned()
                ),
                (
                    FindingKind::SecurityGroupOpenAdminPort,
                    "sg-range".to_owned()
                ),
                (
                    FindingKind::SecurityGroupOpenAdminPort,
                    "sg-rdp6".to_owned()
                ),
                (FindingKind::SecurityGroupOpenAdminPort, "sg-ssh".to_owned()),
                (
                    FindingKind::SecurityGroupOpenDatabasePort,
                    "sg-db".to_owned()
                ),
                (
                    FindingKind::SecurityGroupOpenDatabasePort,
                    "sg-range".to_owned()
                ),
            ]
        );
        let found = findings(&resources, now());
        let ssh = found
            .iter()
            .find(|f| f.resource.resource_id == "sg-ssh")
            .unwrap();
        assert_eq!(
            ssh.title,
            "Security group sg-ssh (web) opens administrative ports to the internet: 22 (SSH)"
        );
        assert_eq!(ssh.evidence, "Inbound rules: tcp port 22 from 0.0.0.0/0.");
        let db = found
            .iter()
            .find(|f| f.resource.resource_id == "sg-db")
            .unwrap();
        assert_eq!(db.severity, Severity::Medium);
        let all = &found[0];
        assert_eq!(all.severity, Severity::High);
        assert_eq!(all.evidence, "Inbound rule: all traffic from 0.0.0.0/0.");
    }

    #[test]
    fn unencrypted_volumes_and_databases() {
        let resources = vec![
            resource(
                resource_types::EC2_VOLUME,
                "vol-plain",
                json!({"Encrypted": false}),
            ),
            resource(
                resource_types::EC2_VOLUME,
                "vol-enc",
                json!({"Encrypted": true}),
            ),
            resource(
                resource_types::EC2_VOLUME,
                "vol-unknown",
                json!({"Encrypted": null}),
            ),
            resource(
                resource_types::RDS_DB_INSTANCE,
                "db-plain",
                json!({"StorageEncrypted": false, "Engine": "postgres"}),
            ),
            resource(
                resource_types::RDS_DB_INSTANCE,
                "db-enc",
                json!({"StorageEncrypted": true}),
            ),
        ];
        assert_eq!(
            kinds(&resources),
            vec![
                (FindingKind::EbsVolumeUnencrypted, "vol-plain".to_owned()),
                (FindingKind::RdsInstanceUnencrypted, "db-plain".to_owned()),
            ]
        );
    }

    #[test]
    fn deleted_resources_raise_nothing_and_ids_are_stable() {
        let mut gone = resource(
            resource_types::EC2_VOLUME,
            "vol-gone",
            json!({"Encrypted": false}),
        );
        gone.d_time = Some(now());
        assert!(findings(&[gone], now()).is_empty());
        let live = resource(
            resource_types::EC2_VOLUME,
            "vol-1",
            json!({"Encrypted": false}),
        );
        let a = findings(std::slice::from_ref(&live), now());
        let b = findings(&[live], now() + Duration::days(3));
        assert_eq!(
            a[0].id,
            "ebs_volume_unencrypted:111122223333:eu-west-1:vol-1"
        );
        assert_eq!(a[0].id, b[0].id);
    }

    #[test]
    fn categories_parse_and_serialise_as_the_api_names_them() {
        assert_eq!(FindingCategory::parse("iam"), Some(FindingCategory::Iam));
        assert_eq!(
            FindingCategory::parse("compliance"),
            Some(FindingCategory::Compliance)
        );
        assert_eq!(FindingCategory::parse("cost"), None);
        assert_eq!(
            serde_json::to_value(FindingKind::S3BucketPublic).unwrap(),
            json!("s3_bucket_public")
        );
        assert_eq!(serde_json::to_value(Severity::High).unwrap(), json!("high"));
        for kind in [
            FindingKind::IamRoleUnused,
            FindingKind::SecurityGroupOpenDatabasePort,
        ] {
            assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.as_str()));
        }
    }
}
