//! The resource inventory (issue 14; spec 1 §2.7–§2.9, §3 Resource / Property snapshot /
//! Resource param / Standard tag; spec 2 §4 Discovery trigger): discovered resources with their
//! property snapshots and current tags, standard tags, discovery runs and dismissed savings
//! recommendations.
//!
//! [`InventoryStore`] is a second trait beside [`crate::MetadataStore`] (reached through
//! [`crate::MetadataStore::inventory`]); `sql.rs` stamps its SQL onto both backends, `query.rs`
//! turns a [`ResourceQuery`] into SQL with bound values only.

pub(crate) mod query;
pub(crate) mod rows;
pub(crate) mod sql;

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use costscope_core::inventory::{
    DiscoveredResource, PropertySnapshot, Resource, ResourceKey, ResourceParam, ResourceQuery,
    StandardTag, StandardTagInput,
};
use serde_json::Value;

use crate::StoreError;

/// One account's discovery result, written in one transaction.
#[derive(Debug, Clone, Copy)]
pub struct DiscoveryWrite<'a> {
    pub customer_id: i64,
    /// The connection (cloud account row) the account was discovered through; every resource
    /// found is recorded under it (deleting the connection deletes them).
    pub connection_id: i64,
    /// The account discovered: deletions (absent within `complete_scopes`) apply to its
    /// resources only. Each resource's own `account_id` keys it.
    pub account_id: &'a str,
    pub now: DateTime<Utc>,
    /// (region, resource_type) pairs scanned completely: only within these may a live
    /// resource that was not found be marked deleted (a failed region/service loses nothing).
    pub complete_scopes: &'a [(String, String)],
    pub resources: &'a [DiscoveredResource],
}

/// What a [`InventoryStore::record_discovery`] changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct DiscoveryDiff {
    /// First seen: a resource row and its first snapshot.
    pub created: u64,
    /// Properties or tags changed: a new snapshot.
    pub changed: u64,
    /// Seen again as it was: only `last_seen` (and metrics) updated.
    pub unchanged: u64,
    /// Live but absent within a complete scope: `d_time` set.
    pub deleted: u64,
    /// Deleted before and found again: `d_time` cleared and a new snapshot.
    pub revived: u64,
}

/// How many resources one account has of a type in a region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceTypeCount {
    pub account_id: String,
    pub region: String,
    pub resource_type: String,
    pub count: u64,
}

/// How many resources of a type were live at the end of a UTC day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceTrendPoint {
    pub date: NaiveDate,
    pub resource_type: String,
    pub live: u64,
}

/// The answer to "run discovery now" (spec 2 §4 Discovery trigger).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiscoveryRequest {
    /// A run was queued; its id.
    Queued(i64),
    /// A run of the tenant is queued or running: nothing queued.
    AlreadyRunning,
    /// The tenant has used its on-demand runs of the UTC day: nothing queued.
    LimitReached,
}

/// What started a discovery run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscoveryTrigger {
    /// `POST /v1/job`.
    OnDemand,
    /// The schedule (`[discovery] interval_hours`).
    Scheduled,
}

impl DiscoveryTrigger {
    pub const fn as_str(self) -> &'static str {
        match self {
            DiscoveryTrigger::OnDemand => "on_demand",
            DiscoveryTrigger::Scheduled => "scheduled",
        }
    }
}

/// A discovery run's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscoveryRunState {
    Queued,
    Running,
    /// Every account and region answered.
    Succeeded,
    /// Some account, region or service failed (the summary says which); the rest is recorded.
    Partial,
    Failed,
}

impl DiscoveryRunState {
    pub const fn as_str(self) -> &'static str {
        match self {
            DiscoveryRunState::Queued => "queued",
            DiscoveryRunState::Running => "running",
            DiscoveryRunState::Succeeded => "succeeded",
            DiscoveryRunState::Partial => "partial",
            DiscoveryRunState::Failed => "failed",
        }
    }
}

/// A run the job must now carry out (already marked running).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscoveryClaim {
    pub run_id: i64,
    pub customer_id: i64,
    pub trigger: DiscoveryTrigger,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscoveryFinish {
    pub now: DateTime<Utc>,
    /// [`DiscoveryRunState::Succeeded`], [`DiscoveryRunState::Partial`] or
    /// [`DiscoveryRunState::Failed`].
    pub state: DiscoveryRunState,
    /// Per account: its diff and per-region failures (the job's own shape).
    pub summary: Value,
}

/// A discovery run as `GET /v1/job` lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscoveryRun {
    pub id: i64,
    pub customer_id: i64,
    pub trigger: DiscoveryTrigger,
    pub state: DiscoveryRunState,
    pub requested_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    /// `None` until the run ends.
    pub summary: Option<Value>,
}

/// The resources discovery found, their history and tags; standard tags; discovery runs;
/// dismissed recommendations. Every call on tenant data takes the customer id and only ever
/// sees that customer's rows.
#[async_trait]
pub trait InventoryStore: Send + Sync {
    /// Records one account's discovery in one transaction: a new resource gets its row and
    /// first snapshot (`c_time = m_time = now`); one whose properties or tags differ from its
    /// latest snapshot (canonical JSON compared) gets a new snapshot and `m_time = now`; one
    /// seen as it was only gets `last_seen` (and metrics, ARN, connection) updated; a live one
    /// of `account_id` absent within `complete_scopes` gets `d_time = now`; a deleted one found
    /// again has `d_time` cleared and gets a new snapshot. A resource listed twice counts once
    /// (the last listing wins).
    async fn record_discovery(
        &self,
        write: DiscoveryWrite<'_>,
    ) -> Result<DiscoveryDiff, StoreError>;

    /// One page of the inventory. `count` 0 means [`DEFAULT_RESOURCE_COUNT`]; more than
    /// [`MAX_RESOURCE_COUNT`] is cut to it. Ties of the order are broken by the key (account,
    /// region, type, id, in the order's direction), so pages are stable.
    ///
    /// [`DEFAULT_RESOURCE_COUNT`]: costscope_core::inventory::DEFAULT_RESOURCE_COUNT
    /// [`MAX_RESOURCE_COUNT`]: costscope_core::inventory::MAX_RESOURCE_COUNT
    async fn list_resources(
        &self,
        customer_id: i64,
        query: &ResourceQuery,
    ) -> Result<Vec<Resource>, StoreError>;
    /// How many resources match the query's filters (its count and offset are ignored).
    async fn count_matching_resources(
        &self,
        customer_id: i64,
        query: &ResourceQuery,
    ) -> Result<u64, StoreError>;
    async fn get_resource(
        &self,
        customer_id: i64,
        key: &ResourceKey,
    ) -> Result<Option<Resource>, StoreError>;
    /// The resource's snapshots: the `count` newest, newest first, or the `count` oldest,
    /// oldest first. Empty when the resource is not the customer's.
    async fn resource_snapshots(
        &self,
        customer_id: i64,
        key: &ResourceKey,
        count: u32,
        newest_first: bool,
    ) -> Result<Vec<PropertySnapshot>, StoreError>;
    /// Resources per account, region and type (live ones only unless `include_deleted`), by
    /// account, region and type. Empty `account_ids` means every account.
    async fn resource_type_counts(
        &self,
        customer_id: i64,
        account_ids: &[String],
        include_deleted: bool,
    ) -> Result<Vec<ResourceTypeCount>, StoreError>;
    /// The searchable property paths of each type: the flat paths (objects joined with `.`,
    /// lists as `[]`) of the latest properties of the 50 most recently changed live resources
    /// of the type, each path once, by type then path. Empty `resource_types` means every type
    /// the customer has live resources of.
    async fn resource_params(
        &self,
        customer_id: i64,
        resource_types: &[String],
    ) -> Result<Vec<(String, ResourceParam)>, StoreError>;
    /// Resources live at the end of each UTC day from `from` to `to` (both included), per
    /// type, by date then type. Days and types with no live resource are left out. Empty
    /// `account_ids` means every account.
    async fn resource_trend(
        &self,
        customer_id: i64,
        account_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<ResourceTrendPoint>, StoreError>;
    /// Every id and ARN of the customer's resources, deleted ones included (they were billed
    /// while they lived): what line items' resource ids are matched against.
    async fn resource_identifiers(&self, customer_id: i64) -> Result<Vec<String>, StoreError>;
    /// Every live resource of these types (empty: of every type), by key (for findings).
    async fn live_resources(
        &self,
        customer_id: i64,
        resource_types: &[String],
    ) -> Result<Vec<Resource>, StoreError>;

    /// The customer's standard tags, oldest first.
    async fn list_standard_tags(&self, customer_id: i64) -> Result<Vec<StandardTag>, StoreError>;
    /// [`StoreError::Conflict`] when the customer has a standard tag with this key
    /// (case-sensitive, as AWS tag keys are).
    async fn create_standard_tag(
        &self,
        customer_id: i64,
        tag: &StandardTagInput,
    ) -> Result<StandardTag, StoreError>;
    /// `None` when not the customer's; [`StoreError::Conflict`] when another of its standard
    /// tags has the new key.
    async fn update_standard_tag(
        &self,
        customer_id: i64,
        id: i64,
        tag: &StandardTagInput,
    ) -> Result<Option<StandardTag>, StoreError>;
    /// `false` when not the customer's.
    async fn delete_standard_tag(&self, customer_id: i64, id: i64) -> Result<bool, StoreError>;

    /// "Run discovery now", in one atomic step: [`DiscoveryRequest::AlreadyRunning`] when a run
    /// of the customer is queued or running, [`DiscoveryRequest::LimitReached`] when
    /// `daily_limit` on-demand runs were requested since the start of `now`'s UTC day, else
    /// a queued on-demand run. Two concurrent requests never queue two runs.
    async fn request_discovery(
        &self,
        customer_id: i64,
        now: DateTime<Utc>,
        daily_limit: u32,
    ) -> Result<DiscoveryRequest, StoreError>;
    /// Claims up to `limit` runs and marks them running, atomically (on several servers each
    /// is claimed once): queued on-demand runs first (oldest first), then a new scheduled run
    /// for each customer with an AWS connection, no queued or running run, and no run that
    /// finished less than `interval` ago (never ran: due). A zero `interval` schedules nothing.
    async fn claim_due_discoveries(
        &self,
        now: DateTime<Utc>,
        interval: Duration,
        limit: usize,
    ) -> Result<Vec<DiscoveryClaim>, StoreError>;
    /// Records how a running run ended (no effect on a run that is not running).
    async fn finish_discovery(
        &self,
        run_id: i64,
        finished: DiscoveryFinish,
    ) -> Result<(), StoreError>;
    /// Runs left running by a stopped server (started before `started_before`) fail, their
    /// summary `{"error": INTERRUPTED_DISCOVERY}`, so the tenant can run discovery again.
    /// Answers how many.
    async fn fail_interrupted_discoveries(
        &self,
        now: DateTime<Utc>,
        started_before: DateTime<Utc>,
    ) -> Result<u64, StoreError>;
    /// The customer's latest runs, newest first.
    async fn list_discovery_runs(
        &self,
        customer_id: i64,
        limit: u32,
    ) -> Result<Vec<DiscoveryRun>, StoreError>;

    /// Remembers that `user_id` dismissed a recommendation (again: no change).
    async fn dismiss_recommendation(
        &self,
        customer_id: i64,
        recommendation_id: &str,
        user_id: i64,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// `false` when it was not dismissed.
    async fn restore_recommendation(
        &self,
        customer_id: i64,
        recommendation_id: &str,
    ) -> Result<bool, StoreError>;
    /// The ids of the customer's dismissed recommendations, sorted.
    async fn dismissed_recommendations(&self, customer_id: i64) -> Result<Vec<String>, StoreError>;
}

/// The summary a run interrupted by a stopped server ends with.
pub const INTERRUPTED_DISCOVERY: &str = "The server stopped while discovery was running";

/// Canonical JSON text: object keys sorted at every level (whatever map serde_json was built
/// with), so equal content gives equal text.
pub(crate) fn canonical_json(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let ordered: BTreeMap<&String, Value> =
                    map.iter().map(|(k, v)| (k, sorted(v))).collect();
                Value::Object(ordered.into_iter().map(|(k, v)| (k.clone(), v)).collect())
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(value).to_string()
}

/// The tags as stored (a BTreeMap serialises sorted).
pub(crate) fn tags_json(tags: &BTreeMap<String, String>) -> String {
    serde_json::to_string(tags).unwrap_or_else(|_| "{}".to_owned())
}

/// Live resources at the end of each day from `from` to `to`, per type, from each resource's
/// (type, c_time, d_time).
pub(crate) fn trend_points(
    rows: impl IntoIterator<Item = (String, DateTime<Utc>, Option<DateTime<Utc>>)>,
    from: NaiveDate,
    to: NaiveDate,
) -> Vec<ResourceTrendPoint> {
    if to < from {
        return Vec::new();
    }
    let days = usize::try_from((to - from).num_days()).unwrap_or(0) + 1;
    // Per type, a difference array over the days: a resource is live at the end of day D
    // when c_time < D+1 00:00 (D >= date(c_time)) and d_time >= D+1 00:00
    // (D <= date(d_time) - 1).
    let mut deltas: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for (resource_type, c_time, d_time) in rows {
        let first = c_time.date_naive().max(from);
        let last = match d_time {
            Some(d_time) => match d_time.date_naive().pred_opt() {
                Some(day) => day.min(to),
                None => continue,
            },
            None => to,
        };
        if last < first {
            continue;
        }
        let start = usize::try_from((first - from).num_days()).unwrap_or(0);
        let end = usize::try_from((last - from).num_days()).unwrap_or(0) + 1;
        let delta = deltas
            .entry(resource_type)
            .or_insert_with(|| vec![0; days + 1]);
        delta[start] += 1;
        delta[end] -= 1;
    }
    let mut points = Vec::new();
    let mut running: Vec<(String, i64)> = deltas.keys().map(|k| (k.clone(), 0)).collect();
    for day in 0..days {
        let date = from + Duration::days(i64::try_from(day).unwrap_or(0));
        for (resource_type, live) in running.iter_mut() {
            *live += deltas[resource_type.as_str()][day];
            if *live > 0 {
                points.push(ResourceTrendPoint {
                    date,
                    resource_type: resource_type.clone(),
                    live: u64::try_from(*live).unwrap_or(0),
                });
            }
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use serde_json::json;

    #[test]
    fn canonical_json_sorts_keys_at_every_level() {
        let a = json!({"b": 1, "a": {"d": [ {"z": 1, "y": 2} ], "c": null}});
        assert_eq!(
            canonical_json(&a),
            r#"{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}"#
        );
    }

    #[test]
    fn trend_counts_resources_live_at_the_end_of_each_day() {
        let t = |d: u32, h: u32| Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap();
        let day = |d: u32| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
        let rows = vec![
            ("A".to_owned(), t(1, 10), None),
            ("A".to_owned(), t(2, 10), Some(t(3, 0))),
            ("B".to_owned(), t(3, 23), Some(t(3, 23))),
        ];
        let points = trend_points(rows, day(1), day(3));
        let got: Vec<_> = points
            .iter()
            .map(|p| {
                (
                    p.date.format("%d").to_string(),
                    p.resource_type.as_str(),
                    p.live,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("01".to_owned(), "A", 1),
                ("02".to_owned(), "A", 2),
                ("03".to_owned(), "A", 1),
            ]
        );
    }
}
