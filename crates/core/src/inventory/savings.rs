//! Savings recommendations from discovered resources and their own billed cost (issue 14,
//! "Savings"; the Cost Saving page).
//!
//! Every saving is computed from the resource's OWN billed cost over the last 30 days (the
//! `costs` map: line items that name the resource, by id or ARN), never from a list price: a
//! resource with no cost line gets `monthly_saving: None` and its evidence says so. When the
//! resource's own creation time (the API's `CreateTime`, `LaunchTime`, `StartTime`) lies inside
//! the 30 days, its cost is scaled up to 30 days (`cost × 30 / days it existed`, at least one
//! day), so a volume created ten days ago is not undervalued threefold.
//!
//! | kind | rule | monthly saving |
//! |---|---|---|
//! | `unattached_volume` | EBS volume `State` `available` | its cost |
//! | `unassociated_elastic_ip` | Elastic IP with `AssociationId` `null` | its cost |
//! | `orphaned_snapshot` | snapshot `StartTime` more than 90 days ago whose `VolumeId` is no live volume of the account and region given | its cost |
//! | `gp2_volume` | EBS volume `VolumeType` `gp2` | 20 % of its cost (gp3 is 20 % cheaper per GB) |
//! | `previous_generation_instance` | running instance of a family of [`PREVIOUS_GENERATIONS`] | its cost × (1 − price ratio) |
//! | `stopped_instance_volumes` | instance `State` `stopped` with `StoppedSince` more than 14 days ago and attached volumes | the cost of its attached volumes |
//! | `idle_instance` | running instance whose metrics say `CpuAverage14d` < 5 % over ≥ 14 `Datapoints` | its cost |
//!
//! One cost is counted once: a volume is recommended for deletion when unattached, else its
//! cost is counted in its stopped instance's recommendation, else it may be a gp2 conversion;
//! an idle instance is not also a previous-generation one. "More than 90 / 14 days" is strict.
//! Recommendations are sorted by saving, largest first (those without a saving last), then by
//! kind and resource. Ids are stable across runs: `kind:account:region:resource_id`.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::findings::finding_id;
use super::properties::{at, f64_at, is_null_at, str_at, time_at};
use super::{resource_types, Resource, ResourceKey};

/// The period `costs` covers and a monthly saving is expressed in.
pub const COST_WINDOW_DAYS: i64 = 30;
/// Snapshots older than this whose volume is gone.
pub const OLD_SNAPSHOT_DAYS: i64 = 90;
/// Instances stopped for longer than this.
pub const STOPPED_DAYS: i64 = 14;
/// An instance is idle below this average CPU (percent)…
pub const IDLE_CPU_PERCENT: f64 = 5.0;
/// …measured over at least this many daily datapoints.
pub const IDLE_MIN_DATAPOINTS: f64 = 14.0;
/// gp3 costs this much less than gp2 per GB-month.
pub const GP3_SAVING_SHARE: f64 = 0.20;

/// Previous-generation EC2 families, the current family to move to, and the ratio of their
/// public on-demand prices (new ÷ old) for the same size: Linux, us-east-1, from AWS's public
/// price list (`large`, or `xlarge` where the family has no `large`). The saving is the
/// instance's own cost × (1 − ratio).
///
/// | from | to | hourly old → new | ratio |
/// |---|---|---|---|
/// | t1 | t3 | t1.micro 0.020 → t3.micro 0.0104 | 0.52 |
/// | t2 | t3 | t2.large 0.0928 → t3.large 0.0832 | 0.90 |
/// | m1 | m5 | m1.large 0.175 → m5.large 0.096 | 0.55 |
/// | m3 | m5 | m3.large 0.133 → m5.large 0.096 | 0.72 |
/// | m4 | m5 | m4.large 0.100 → m5.large 0.096 | 0.96 |
/// | c1 | c5 | c1.xlarge 0.520 → c5.2xlarge 0.340 | 0.65 |
/// | c3 | c5 | c3.large 0.105 → c5.large 0.085 | 0.81 |
/// | c4 | c5 | c4.large 0.100 → c5.large 0.085 | 0.85 |
/// | m2 | r5 | m2.xlarge 0.245 → r5.large 0.126 | 0.51 |
/// | r3 | r5 | r3.large 0.166 → r5.large 0.126 | 0.76 |
/// | r4 | r5 | r4.large 0.133 → r5.large 0.126 | 0.95 |
/// | i2 | i3 | i2.xlarge 0.853 → i3.xlarge 0.312 | 0.37 |
/// | d2 | d3 | d2.xlarge 0.690 → d3.xlarge 0.499 | 0.72 |
/// | g2 | g4dn | g2.2xlarge 0.650 → g4dn.xlarge 0.526 | 0.81 |
pub const PREVIOUS_GENERATIONS: [(&str, &str, f64); 14] = [
    ("t1", "t3", 0.52),
    ("t2", "t3", 0.90),
    ("m1", "m5", 0.55),
    ("m3", "m5", 0.72),
    ("m4", "m5", 0.96),
    ("c1", "c5", 0.65),
    ("c3", "c5", 0.81),
    ("c4", "c5", 0.85),
    ("m2", "r5", 0.51),
    ("r3", "r5", 0.76),
    ("r4", "r5", 0.95),
    ("i2", "i3", 0.37),
    ("d2", "d3", 0.72),
    ("g2", "g4dn", 0.81),
];

/// The current family and price ratio for an instance type of a previous generation.
pub fn previous_generation(instance_type: &str) -> Option<(&'static str, f64)> {
    let family = instance_type.split('.').next()?;
    PREVIOUS_GENERATIONS
        .iter()
        .find(|(old, _, _)| *old == family)
        .map(|(_, new, ratio)| (*new, *ratio))
}

/// What a recommendation is about.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum RecommendationKind {
    UnattachedVolume,
    UnassociatedElasticIp,
    OrphanedSnapshot,
    Gp2Volume,
    PreviousGenerationInstance,
    StoppedInstanceVolumes,
    IdleInstance,
}

impl RecommendationKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            RecommendationKind::UnattachedVolume => "unattached_volume",
            RecommendationKind::UnassociatedElasticIp => "unassociated_elastic_ip",
            RecommendationKind::OrphanedSnapshot => "orphaned_snapshot",
            RecommendationKind::Gp2Volume => "gp2_volume",
            RecommendationKind::PreviousGenerationInstance => "previous_generation_instance",
            RecommendationKind::StoppedInstanceVolumes => "stopped_instance_volumes",
            RecommendationKind::IdleInstance => "idle_instance",
        }
    }
}

/// One way to spend less on one resource.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recommendation {
    /// Stable across runs: `kind:account:region:resource_id`.
    pub id: String,
    pub kind: RecommendationKind,
    pub resource: ResourceKey,
    pub title: String,
    /// What was seen, in words, including where the saving comes from (or why there is none).
    pub evidence: String,
    /// In the currency of `costs`, per 30 days; `None` when the resource has no cost line.
    pub monthly_saving: Option<f64>,
    /// How to act.
    pub action: String,
}

const NO_COST: &str = "No billed cost names this resource in the last 30 days, so no saving \
                       is estimated.";

/// The resource's cost over the last 30 days, scaled to 30 days when its creation time lies
/// inside them; `None` without a cost line.
fn monthly_cost(
    resource: &Resource,
    costs: &HashMap<ResourceKey, f64>,
    now: DateTime<Utc>,
) -> Option<f64> {
    let cost = *costs.get(&resource.key)?;
    let created = ["CreateTime", "LaunchTime", "StartTime"]
        .iter()
        .find_map(|key| time_at(&resource.properties, key));
    let window = Duration::days(COST_WINDOW_DAYS);
    match created {
        Some(created) if now - created < window => {
            let days = ((now - created).num_seconds() as f64 / 86_400.0).max(1.0);
            Some(cost * COST_WINDOW_DAYS as f64 / days)
        }
        _ => Some(cost),
    }
}

fn saving_evidence(facts: String, saving: Option<f64>, share: &str) -> String {
    match saving {
        Some(_) => {
            format!("{facts} The saving is {share} its own billed cost of the last 30 days.")
        }
        None => format!("{facts} {NO_COST}"),
    }
}

fn older_than(t: DateTime<Utc>, days: i64, now: DateTime<Utc>) -> bool {
    now - t > Duration::days(days)
}

fn day(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d").to_string()
}

fn volume_key(instance: &ResourceKey, volume_id: &str) -> ResourceKey {
    ResourceKey {
        account_id: instance.account_id.clone(),
        region: instance.region.clone(),
        resource_type: resource_types::EC2_VOLUME.to_owned(),
        resource_id: volume_id.to_owned(),
    }
}

/// The volume ids an instance's block device mappings name.
fn attached_volume_ids(properties: &Value) -> Vec<String> {
    let Some(Value::Array(mappings)) = at(properties, "BlockDeviceMappings") else {
        return Vec::new();
    };
    let mut ids: Vec<String> = Vec::new();
    for id in mappings.iter().filter_map(|m| str_at(m, "Ebs.VolumeId")) {
        if !ids.iter().any(|i| i == id) {
            ids.push(id.to_owned());
        }
    }
    ids
}

fn stopped_long_enough(p: &Value, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    if str_at(p, "State")? != "stopped" {
        return None;
    }
    let since = time_at(p, "StoppedSince")?;
    older_than(since, STOPPED_DAYS, now).then_some(since)
}

fn is_idle(resource: &Resource) -> Option<(f64, f64)> {
    if str_at(&resource.properties, "State")? != "running" {
        return None;
    }
    let metrics = resource.metrics.as_ref()?;
    let cpu = f64_at(metrics, "CpuAverage14d")?;
    let points = f64_at(metrics, "Datapoints")?;
    (cpu < IDLE_CPU_PERCENT && points >= IDLE_MIN_DATAPOINTS).then_some((cpu, points))
}

struct Builder<'a> {
    costs: &'a HashMap<ResourceKey, f64>,
    out: Vec<Recommendation>,
}

impl Builder<'_> {
    fn push(
        &mut self,
        kind: RecommendationKind,
        key: &ResourceKey,
        title: String,
        evidence: String,
        monthly_saving: Option<f64>,
        action: &str,
    ) {
        self.out.push(Recommendation {
            id: finding_id(kind.as_str(), key),
            kind,
            resource: key.clone(),
            title,
            evidence,
            monthly_saving,
            action: action.to_owned(),
        });
    }
}

/// Every recommendation for the live resources given (see the module doc for the rules).
/// `costs`: each resource's billed cost over the last 30 days, in one currency.
pub fn recommendations(
    resources: &[Resource],
    costs: &HashMap<ResourceKey, f64>,
    now: DateTime<Utc>,
) -> Vec<Recommendation> {
    let live: Vec<&Resource> = resources.iter().filter(|r| r.d_time.is_none()).collect();
    let by_key: HashMap<&ResourceKey, &Resource> = live.iter().map(|r| (&r.key, *r)).collect();
    let live_volumes: HashSet<(&str, &str, &str)> = live
        .iter()
        .filter(|r| r.key.resource_type == resource_types::EC2_VOLUME)
        .map(|r| {
            (
                r.key.account_id.as_str(),
                r.key.region.as_str(),
                r.key.resource_id.as_str(),
            )
        })
        .collect();
    let mut b = Builder {
        costs,
        out: Vec::new(),
    };
    // Volumes whose cost a stopped instance's recommendation already counts.
    let mut counted_volumes: HashSet<ResourceKey> = HashSet::new();

    for r in live
        .iter()
        .filter(|r| r.key.resource_type == resource_types::EC2_INSTANCE)
    {
        let p = &r.properties;
        let instance_type = str_at(p, "InstanceType").unwrap_or("unknown type");
        if let Some(since) = stopped_long_enough(p, now) {
            let volumes: Vec<ResourceKey> = attached_volume_ids(p)
                .iter()
                .map(|id| volume_key(&r.key, id))
                .filter(|k| {
                    by_key
                        .get(k)
                        .is_none_or(|v| str_at(&v.properties, "State") != Some("available"))
                })
                .collect();
            if volumes.is_empty() {
                continue;
            }
            let priced: Vec<f64> = volumes
                .iter()
                .filter_map(|k| match by_key.get(k) {
                    Some(v) => monthly_cost(v, b.costs, now),
                    None => b.costs.get(k).copied(),
                })
                .collect();
            let saving = (!priced.is_empty()).then(|| priced.iter().sum::<f64>());
            let ids: Vec<&str> = volumes.iter().map(|k| k.resource_id.as_str()).collect();
            let days = (now - since).num_days();
            let mut facts = format!(
                "Stopped since {} ({days} days, more than {STOPPED_DAYS}); its EBS volumes {} are \
                 still billed.",
                day(since),
                ids.join(", ")
            );
            let evidence = if saving.is_some() {
                if priced.len() < volumes.len() {
                    facts.push_str(&format!(
                        " {} of {} volumes have no cost line and add nothing.",
                        volumes.len() - priced.len(),
                        volumes.len()
                    ));
                }
                format!(
                    "{facts} The saving is the billed cost of those volumes over the last 30 days."
                )
            } else {
                format!("{facts} No billed cost names these volumes in the last 30 days, so no saving is estimated.")
            };
            counted_volumes.extend(volumes);
            b.push(
                RecommendationKind::StoppedInstanceVolumes,
                &r.key,
                format!(
                    "Instance {} ({instance_type}) has been stopped for {days} days but still pays for its volumes",
                    r.key.resource_id
                ),
                evidence,
                saving,
                "Snapshot the volumes and terminate the instance if it is no longer needed, or delete the volumes it does not need.",
            );
            continue;
        }
        if let Some((cpu, points)) = is_idle(r) {
            let saving = monthly_cost(r, b.costs, now);
            b.push(
                RecommendationKind::IdleInstance,
                &r.key,
                format!(
                    "Instance {} ({instance_type}) is idle",
                    r.key.resource_id
                ),
                saving_evidence(
                    format!(
                        "Average CPU {cpu:.1} % over the last 14 days ({points} daily datapoints), below {IDLE_CPU_PERCENT} %."
                    ),
                    saving,
                    "all of",
                ),
                saving,
                "Stop or terminate the instance if nothing needs it, or move it to a smaller instance type.",
            );
            continue;
        }
        if str_at(p, "State") == Some("running") {
            if let Some((family, ratio)) = previous_generation(instance_type) {
                let saving = monthly_cost(r, b.costs, now).map(|c| c * (1.0 - ratio));
                let size = instance_type.split_once('.').map_or("", |(_, s)| s);
                let target = format!("{family}.{size}");
                let share = format!("{:.0} % of", (1.0 - ratio) * 100.0);
                b.push(
                    RecommendationKind::PreviousGenerationInstance,
                    &r.key,
                    format!(
                        "Instance {} runs on previous-generation {instance_type}",
                        r.key.resource_id
                    ),
                    saving_evidence(
                        format!(
                            "{instance_type} is a previous generation; {target} costs {:.0} % of its on-demand price.",
                            ratio * 100.0
                        ),
                        saving,
                        &share,
                    ),
                    saving,
                    &format!(
                        "Change the instance type to {target} (or the nearest {family} size) at the next maintenance window."
                    ),
                );
            }
        }
    }

    for r in &live {
        let p = &r.properties;
        let key = &r.key;
        match key.resource_type.as_str() {
            resource_types::EC2_VOLUME => {
                let size = f64_at(p, "Size").map_or_else(String::new, |s| format!("{s} GiB "));
                let volume_type = str_at(p, "VolumeType").unwrap_or_default();
                if str_at(p, "State") == Some("available") {
                    let saving = monthly_cost(r, costs, now);
                    b.push(
                        RecommendationKind::UnattachedVolume,
                        key,
                        format!(
                            "EBS volume {} ({size}{volume_type}) is not attached to any instance",
                            key.resource_id
                        ),
                        saving_evidence(
                            "State is available: no instance uses the volume.".to_owned(),
                            saving,
                            "all of",
                        ),
                        saving,
                        "Snapshot the volume if its data may be needed, then delete it.",
                    );
                } else if volume_type == "gp2" && !counted_volumes.contains(key) {
                    let saving = monthly_cost(r, costs, now).map(|c| c * GP3_SAVING_SHARE);
                    b.push(
                        RecommendationKind::Gp2Volume,
                        key,
                        format!(
                            "EBS volume {} ({size}gp2) can move to gp3",
                            key.resource_id
                        ),
                        saving_evidence(
                            "The volume type is gp2; gp3 costs 20 % less per GB and gives at least the same baseline performance.".to_owned(),
                            saving,
                            "20 % of",
                        ),
                        saving,
                        "Modify the volume to gp3 (no downtime; check its IOPS and throughput settings).",
                    );
                }
            }
            resource_types::EC2_ELASTIC_IP if is_null_at(p, "AssociationId") => {
                let saving = monthly_cost(r, costs, now);
                let ip = str_at(p, "PublicIp").unwrap_or(&key.resource_id);
                b.push(
                        RecommendationKind::UnassociatedElasticIp,
                        key,
                        format!("Elastic IP {ip} is not associated"),
                        saving_evidence(
                            "The address has no association: it is billed while unused.".to_owned(),
                            saving,
                            "all of",
                        ),
                        saving,
                        "Release the address if nothing needs it, or associate it with the instance that should use it.",
                    );
            }
            resource_types::EC2_SNAPSHOT => {
                let Some(started) = time_at(p, "StartTime") else {
                    continue;
                };
                if !older_than(started, OLD_SNAPSHOT_DAYS, now) {
                    continue;
                }
                let volume = str_at(p, "VolumeId").unwrap_or_default();
                if live_volumes.contains(&(key.account_id.as_str(), key.region.as_str(), volume)) {
                    continue;
                }
                let saving = monthly_cost(r, costs, now);
                let volume_text = if volume.is_empty() {
                    "names no volume".to_owned()
                } else {
                    format!("was taken from {volume}, which no longer exists")
                };
                b.push(
                    RecommendationKind::OrphanedSnapshot,
                    key,
                    format!(
                        "Snapshot {} is {} days old and its volume is gone",
                        key.resource_id,
                        (now - started).num_days()
                    ),
                    saving_evidence(
                        format!(
                            "Started {} (more than {OLD_SNAPSHOT_DAYS} days ago); it {volume_text}.",
                            day(started)
                        ),
                        saving,
                        "all of",
                    ),
                    saving,
                    "Delete the snapshot unless an AMI, a restore plan or a retention rule needs it.",
                );
            }
            _ => {}
        }
    }

    let mut out = b.out;
    out.sort_by(|a, b| {
        let saving = |r: &Recommendation| r.monthly_saving.unwrap_or(f64::NEG_INFINITY);
        saving(b)
            .total_cmp(&saving(a))
            .then_with(|| a.kind.cmp(&b.kind))
            .then_with(|| a.resource.cmp(&b.resource))
    });
    out
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use serde_json::json;

    use super::*;

    const ACCOUNT: &str = "111122223333";
    const REGION: &str = "us-east-1";

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap()
    }

    fn ago(d: Duration) -> String {
        (now() - d).to_rfc3339()
    }

    fn key(resource_type: &str, id: &str) -> ResourceKey {
        ResourceKey {
            account_id: ACCOUNT.into(),
            region: REGION.into(),
            resource_type: resource_type.into(),
            resource_id: id.into(),
        }
    }

    fn resource(resource_type: &str, id: &str, properties: Value) -> Resource {
        let t = now() - Duration::days(200);
        Resource {
            key: key(resource_type, id),
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

    fn volume(id: &str, state: &str, volume_type: &str) -> Resource {
        resource(
            resource_types::EC2_VOLUME,
            id,
            json!({"VolumeId": id, "State": state, "VolumeType": volume_type, "Size": 100, "CreateTime": ago(Duration::days(200))}),
        )
    }

    fn instance(
        id: &str,
        instance_type: &str,
        state: &str,
        stopped: Option<Duration>,
        volumes: &[&str],
    ) -> Resource {
        resource(
            resource_types::EC2_INSTANCE,
            id,
            json!({
                "InstanceId": id,
                "InstanceType": instance_type,
                "State": state,
                "StoppedSince": stopped.map(ago),
                "LaunchTime": ago(Duration::days(300)),
                "BlockDeviceMappings": volumes.iter().map(|v| json!({"DeviceName": "/dev/xvda", "Ebs": {"VolumeId": v}})).collect::<Vec<_>>(),
            }),
        )
    }

    fn costs(items: &[(&Resource, f64)]) -> HashMap<ResourceKey, f64> {
        items.iter().map(|(r, c)| (r.key.clone(), *c)).collect()
    }

    fn summary(recs: &[Recommendation]) -> Vec<(RecommendationKind, &str, Option<f64>)> {
        recs.iter()
            .map(|r| {
                (
                    r.kind,
                    r.resource.resource_id.as_str(),
                    r.monthly_saving.map(|s| (s * 100.0).round() / 100.0),
                )
            })
            .collect()
    }

    #[test]
    fn unattached_volume_saves_its_own_cost() {
        let vol = volume("vol-free", "available", "gp3");
        let used = volume("vol-used", "in-use", "gp3");
        let recs = recommendations(
            &[vol.clone(), used.clone()],
            &costs(&[(&vol, 8.0), (&used, 9.0)]),
            now(),
        );
        assert_eq!(
            summary(&recs),
            vec![(RecommendationKind::UnattachedVolume, "vol-free", Some(8.0))]
        );
        let r = &recs[0];
        assert_eq!(r.id, "unattached_volume:111122223333:us-east-1:vol-free");
        assert_eq!(
            r.title,
            "EBS volume vol-free (100 GiB gp3) is not attached to any instance"
        );
        assert!(r.evidence.contains("own billed cost"), "{}", r.evidence);
        assert!(r.action.contains("delete"));
    }

    #[test]
    fn without_a_cost_line_no_saving_is_guessed() {
        let vol = volume("vol-free", "available", "gp2");
        let recs = recommendations(&[vol], &HashMap::new(), now());
        assert_eq!(
            summary(&recs),
            vec![(RecommendationKind::UnattachedVolume, "vol-free", None)]
        );
        assert!(
            recs[0]
                .evidence
                .contains("No billed cost names this resource"),
            "{}",
            recs[0].evidence
        );
    }

    #[test]
    fn young_resources_have_their_cost_scaled_to_30_days() {
        let mut vol = volume("vol-new", "available", "gp3");
        vol.properties["CreateTime"] = json!(ago(Duration::days(10)));
        let mut brand_new = volume("vol-hour", "available", "gp3");
        brand_new.properties["CreateTime"] = json!(ago(Duration::hours(1)));
        let recs = recommendations(
            &[vol.clone(), brand_new.clone()],
            &costs(&[(&vol, 2.0), (&brand_new, 0.1)]),
            now(),
        );
        // 2.0 over 10 days → 6.0 per 30 days; less than a day counts as one day: 0.1 × 30.
        assert_eq!(
            summary(&recs),
            vec![
                (RecommendationKind::UnattachedVolume, "vol-new", Some(6.0)),
                (RecommendationKind::UnattachedVolume, "vol-hour", Some(3.0)),
            ]
        );
    }

    #[test]
    fn elastic_ips_without_association() {
        let free = resource(
            resource_types::EC2_ELASTIC_IP,
            "eipalloc-1",
            json!({"PublicIp": "203.0.113.5", "AssociationId": null}),
        );
        let used = resource(
            resource_types::EC2_ELASTIC_IP,
            "eipalloc-2",
            json!({"PublicIp": "203.0.113.6", "AssociationId": "eipassoc-1"}),
        );
        let unknown = resource(
            resource_types::EC2_ELASTIC_IP,
            "eipalloc-3",
            json!({"PublicIp": "203.0.113.7"}),
        );
        let recs = recommendations(
            &[free.clone(), used, unknown],
            &costs(&[(&free, 3.6)]),
            now(),
        );
        assert_eq!(
            summary(&recs),
            vec![(
                RecommendationKind::UnassociatedElasticIp,
                "eipalloc-1",
                Some(3.6)
            )]
        );
        assert_eq!(recs[0].title, "Elastic IP 203.0.113.5 is not associated");
    }

    #[test]
    fn snapshots_older_than_90_days_whose_volume_is_gone() {
        let snap = |id: &str, age: Duration, vol: &str| {
            resource(
                resource_types::EC2_SNAPSHOT,
                id,
                json!({"SnapshotId": id, "VolumeId": vol, "StartTime": ago(age), "State": "completed"}),
            )
        };
        let live_volume = volume("vol-live", "in-use", "gp3");
        let mut deleted_volume = volume("vol-deleted", "in-use", "gp3");
        deleted_volume.d_time = Some(now() - Duration::days(30));
        let old_orphan = snap("snap-orphan", Duration::days(91), "vol-deleted");
        let exactly = snap("snap-90", Duration::days(90), "vol-gone");
        let young = snap("snap-young", Duration::days(10), "vol-gone");
        let kept = snap("snap-kept", Duration::days(400), "vol-live");
        let recs = recommendations(
            &[
                live_volume,
                deleted_volume,
                old_orphan.clone(),
                exactly,
                young,
                kept,
            ],
            &costs(&[(&old_orphan, 1.25)]),
            now(),
        );
        assert_eq!(
            summary(&recs),
            vec![(
                RecommendationKind::OrphanedSnapshot,
                "snap-orphan",
                Some(1.25)
            )]
        );
        assert!(
            recs[0]
                .evidence
                .contains("vol-deleted, which no longer exists"),
            "{}",
            recs[0].evidence
        );
    }

    #[test]
    fn gp2_volumes_save_a_fifth() {
        let gp2 = volume("vol-gp2", "in-use", "gp2");
        let gp3 = volume("vol-gp3", "in-use", "gp3");
        let recs = recommendations(
            &[gp2.clone(), gp3.clone()],
            &costs(&[(&gp2, 10.0), (&gp3, 10.0)]),
            now(),
        );
        assert_eq!(
            summary(&recs),
            vec![(RecommendationKind::Gp2Volume, "vol-gp2", Some(2.0))]
        );
    }

    #[test]
    fn unattached_gp2_volume_is_only_recommended_for_deletion() {
        let gp2 = volume("vol-gp2", "available", "gp2");
        let recs = recommendations(std::slice::from_ref(&gp2), &costs(&[(&gp2, 10.0)]), now());
        assert_eq!(
            summary(&recs),
            vec![(RecommendationKind::UnattachedVolume, "vol-gp2", Some(10.0))]
        );
    }

    #[test]
    fn previous_generation_families_save_by_the_price_ratio() {
        let m4 = instance("i-m4", "m4.large", "running", None, &[]);
        let t2 = instance("i-t2", "t2.micro", "running", None, &[]);
        let m5 = instance("i-m5", "m5.large", "running", None, &[]);
        let stopped_c4 = instance("i-c4", "c4.large", "stopped", Some(Duration::days(2)), &[]);
        let no_cost = instance("i-r3", "r3.xlarge", "running", None, &[]);
        let recs = recommendations(
            &[
                m4.clone(),
                t2.clone(),
                m5.clone(),
                stopped_c4.clone(),
                no_cost,
            ],
            &costs(&[(&m4, 100.0), (&t2, 10.0), (&m5, 100.0), (&stopped_c4, 5.0)]),
            now(),
        );
        assert_eq!(
            summary(&recs),
            vec![
                (
                    RecommendationKind::PreviousGenerationInstance,
                    "i-m4",
                    Some(4.0)
                ),
                (
                    RecommendationKind::PreviousGenerationInstance,
                    "i-t2",
                    Some(1.0)
                ),
                (RecommendationKind::PreviousGenerationInstance, "i-r3", None),
            ]
        );
        assert!(recs[0].action.contains("m5.large"), "{}", recs[0].action);
        assert!(
            recs[0].evidence.contains("4 % of its own billed cost"),
            "{}",
            recs[0].evidence
        );
    }

    #[test]
    fn previous_generation_table() {
        assert_eq!(previous_generation("m4.large"), Some(("m5", 0.96)));
        assert_eq!(previous_generation("i2.8xlarge"), Some(("i3", 0.37)));
        assert_eq!(previous_generation("m5.large"), None);
        assert_eq!(previous_generation("t3a.nano"), None);
        assert_eq!(previous_generation(""), None);
        for (old, new, ratio) in PREVIOUS_GENERATIONS {
            assert!(ratio > 0.0 && ratio < 1.0, "{old}");
            assert_ne!(old, new);
        }
    }

    #[test]
    fn instances_stopped_more_than_14_days_pay_for_their_volumes() {
        let long = instance(
            "i-long",
            "m5.large",
            "stopped",
            Some(Duration::days(15)),
            &["vol-a", "vol-b", "vol-c"],
        );
        let exactly = instance(
            "i-14",
            "m5.large",
            "stopped",
            Some(Duration::days(14)),
            &["vol-d"],
        );
        let unknown_since = instance("i-unknown", "m5.large", "stopped", None, &["vol-e"]);
        let no_volumes = instance(
            "i-bare",
            "m5.large",
            "stopped",
            Some(Duration::days(40)),
            &[],
        );
        let a = volume("vol-a", "in-use", "gp2");
        let b = volume("vol-b", "in-use", "gp3");
        // vol-c is not in the inventory (another scope) but has a cost line of its own.
        let c_key = key(resource_types::EC2_VOLUME, "vol-c");
        let d = volume("vol-d", "in-use", "gp3");
        let mut cost_map = costs(&[(&a, 4.0), (&b, 6.0), (&d, 1.0), (&long, 0.5)]);
        cost_map.insert(c_key, 2.5);
        let recs = recommendations(
            &[long, exactly, unknown_since, no_volumes, a, b, d],
            &cost_map,
            now(),
        );
        // vol-a is gp2 but its cost is already counted by the stopped instance.
        assert_eq!(
            summary(&recs),
            vec![(
                RecommendationKind::StoppedInstanceVolumes,
                "i-long",
                Some(12.5)
            )]
        );
        assert!(
            recs[0].evidence.contains("vol-a, vol-b, vol-c"),
            "{}",
            recs[0].evidence
        );
        assert!(
            recs[0].title.contains("stopped for 15 days"),
            "{}",
            recs[0].title
        );
    }

    #[test]
    fn stopped_instance_volumes_without_cost_lines() {
        let inst = instance(
            "i-long",
            "m5.large",
            "stopped",
            Some(Duration::days(30)),
            &["vol-a", "vol-b"],
        );
        let a = volume("vol-a", "in-use", "gp3");
        let recs = recommendations(&[inst.clone(), a.clone()], &HashMap::new(), now());
        assert_eq!(
            summary(&recs),
            vec![(RecommendationKind::StoppedInstanceVolumes, "i-long", None)]
        );
        assert!(recs[0].evidence.contains("no saving is estimated"));
        let recs = recommendations(&[inst, a.clone()], &costs(&[(&a, 3.0)]), now());
        assert_eq!(recs[0].monthly_saving, Some(3.0));
        assert!(
            recs[0]
                .evidence
                .contains("1 of 2 volumes have no cost line"),
            "{}",
            recs[0].evidence
        );
    }

    #[test]
    fn idle_instances_need_14_datapoints_under_5_percent() {
        let with_metrics = |id: &str, instance_type: &str, cpu: f64, points: u32| {
            let mut r = instance(id, instance_type, "running", None, &[]);
            r.metrics =
                Some(json!({"CpuAverage14d": cpu, "CpuMax14d": 20.0, "Datapoints": points}));
            r
        };
        let idle = with_metrics("i-idle", "m4.large", 1.5, 14);
        let busy = with_metrics("i-busy", "m5.large", 5.0, 14);
        let short = with_metrics("i-short", "m5.large", 0.5, 13);
        let no_metrics = instance("i-none", "m5.large", "running", None, &[]);
        let recs = recommendations(
            &[
                idle.clone(),
                busy.clone(),
                short.clone(),
                no_metrics.clone(),
            ],
            &costs(&[
                (&idle, 70.0),
                (&busy, 70.0),
                (&short, 70.0),
                (&no_metrics, 70.0),
            ]),
            now(),
        );
        // The idle m4 is not also recommended a generation change.
        assert_eq!(
            summary(&recs),
            vec![(RecommendationKind::IdleInstance, "i-idle", Some(70.0))]
        );
        assert!(
            recs[0].evidence.contains("Average CPU 1.5 %"),
            "{}",
            recs[0].evidence
        );
    }

    #[test]
    fn missing_properties_raise_nothing() {
        let resources = vec![
            resource(resource_types::EC2_VOLUME, "vol-x", json!({})),
            resource(resource_types::EC2_ELASTIC_IP, "eip-x", json!({})),
            resource(
                resource_types::EC2_SNAPSHOT,
                "snap-x",
                json!({"VolumeId": "vol-gone"}),
            ),
            resource(resource_types::EC2_INSTANCE, "i-x", json!({})),
            resource(
                resource_types::EC2_INSTANCE,
                "i-y",
                json!({"State": "stopped", "StoppedSince": "not a time"}),
            ),
        ];
        assert!(recommendations(&resources, &HashMap::new(), now()).is_empty());
    }

    #[test]
    fn deleted_resources_raise_nothing() {
        let mut vol = volume("vol-gone", "available", "gp2");
        vol.d_time = Some(now());
        assert!(recommendations(&[vol.clone()], &costs(&[(&vol, 5.0)]), now()).is_empty());
    }

    #[test]
    fn sorted_by_saving_then_those_without_one() {
        let small = volume("vol-small", "available", "gp3");
        let big = volume("vol-big", "available", "gp3");
        let none = volume("vol-none", "available", "gp3");
        let eip = resource(
            resource_types::EC2_ELASTIC_IP,
            "eipalloc-1",
            json!({"AssociationId": null}),
        );
        let recs = recommendations(
            &[none, small.clone(), eip.clone(), big.clone()],
            &costs(&[(&small, 1.0), (&big, 50.0), (&eip, 3.6)]),
            now(),
        );
        assert_eq!(
            summary(&recs),
            vec![
                (RecommendationKind::UnattachedVolume, "vol-big", Some(50.0)),
                (
                    RecommendationKind::UnassociatedElasticIp,
                    "eipalloc-1",
                    Some(3.6)
                ),
                (RecommendationKind::UnattachedVolume, "vol-small", Some(1.0)),
                (RecommendationKind::UnattachedVolume, "vol-none", None),
            ]
        );
    }

    #[test]
    fn kinds_serialise_as_their_names() {
        for kind in [
            RecommendationKind::UnattachedVolume,
            RecommendationKind::UnassociatedElasticIp,
            RecommendationKind::OrphanedSnapshot,
            RecommendationKind::Gp2Volume,
            RecommendationKind::PreviousGenerationInstance,
            RecommendationKind::StoppedInstanceVolumes,
            RecommendationKind::IdleInstance,
        ] {
            assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.as_str()));
        }
    }
}
