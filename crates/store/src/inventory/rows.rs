//! Rows of the inventory tables and their conversions.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use costscope_core::inventory::{PropertySnapshot, Resource, ResourceKey, StandardTag};
use serde_json::Value;

use super::{DiscoveryRun, DiscoveryRunState, DiscoveryTrigger};
use crate::StoreError;

/// The columns [`ResourceRow`] reads, from `resources r`.
pub(crate) const RESOURCE_COLUMNS: &str = "r.id, r.connection_id, r.account_id, r.region, \
     r.resource_type, r.resource_id, r.arn, r.c_time, r.m_time, r.d_time, r.last_seen, \
     r.properties, r.tags, r.metrics";

#[derive(sqlx::FromRow)]
pub(crate) struct ResourceRow {
    pub id: i64,
    pub connection_id: i64,
    pub account_id: String,
    pub region: String,
    pub resource_type: String,
    pub resource_id: String,
    pub arn: Option<String>,
    pub c_time: DateTime<Utc>,
    pub m_time: DateTime<Utc>,
    pub d_time: Option<DateTime<Utc>>,
    pub last_seen: DateTime<Utc>,
    pub properties: String,
    pub tags: String,
    pub metrics: Option<String>,
}

pub(crate) fn parse_json(text: &str, what: &str, id: i64) -> Result<Value, StoreError> {
    serde_json::from_str(text).map_err(|err| StoreError::Corrupt(format!("{what} of {id}: {err}")))
}

pub(crate) fn parse_tags(
    text: &str,
    what: &str,
    id: i64,
) -> Result<BTreeMap<String, String>, StoreError> {
    serde_json::from_str(text).map_err(|err| StoreError::Corrupt(format!("{what} of {id}: {err}")))
}

impl TryFrom<ResourceRow> for Resource {
    type Error = StoreError;

    fn try_from(row: ResourceRow) -> Result<Self, Self::Error> {
        Ok(Resource {
            properties: parse_json(&row.properties, "resources.properties", row.id)?,
            tags: parse_tags(&row.tags, "resources.tags", row.id)?,
            metrics: row
                .metrics
                .as_deref()
                .map(|text| parse_json(text, "resources.metrics", row.id))
                .transpose()?,
            key: ResourceKey {
                account_id: row.account_id,
                region: row.region,
                resource_type: row.resource_type,
                resource_id: row.resource_id,
            },
            arn: row.arn,
            connection_id: row.connection_id,
            c_time: row.c_time,
            m_time: row.m_time,
            d_time: row.d_time,
            last_seen: row.last_seen,
        })
    }
}

pub(crate) fn resources(rows: Vec<ResourceRow>) -> Result<Vec<Resource>, StoreError> {
    rows.into_iter().map(TryInto::try_into).collect()
}

/// What `record_discovery` compares a sighting with.
#[derive(sqlx::FromRow)]
pub(crate) struct KnownResourceRow {
    pub id: i64,
    pub region: String,
    pub resource_type: String,
    pub resource_id: String,
    pub d_time: Option<DateTime<Utc>>,
    pub properties: String,
    pub tags: String,
}

#[derive(sqlx::FromRow)]
pub(crate) struct SnapshotRow {
    pub id: i64,
    pub c_time: DateTime<Utc>,
    pub properties: String,
    pub tags: String,
}

impl TryFrom<SnapshotRow> for PropertySnapshot {
    type Error = StoreError;

    fn try_from(row: SnapshotRow) -> Result<Self, Self::Error> {
        Ok(PropertySnapshot {
            c_time: row.c_time,
            properties: parse_json(&row.properties, "resource_snapshots.properties", row.id)?,
            tags: parse_tags(&row.tags, "resource_snapshots.tags", row.id)?,
        })
    }
}

pub(crate) const STANDARD_TAG_COLUMNS: &str = "id, key, tag_values";

#[derive(sqlx::FromRow)]
pub(crate) struct StandardTagRow {
    pub id: i64,
    pub key: String,
    pub tag_values: String,
}

impl TryFrom<StandardTagRow> for StandardTag {
    type Error = StoreError;

    fn try_from(row: StandardTagRow) -> Result<Self, Self::Error> {
        let values: Vec<String> = serde_json::from_str(&row.tag_values).map_err(|err| {
            StoreError::Corrupt(format!("standard_tags.tag_values of {}: {err}", row.id))
        })?;
        Ok(StandardTag {
            id: row.id,
            key: row.key,
            values,
        })
    }
}

pub(crate) const DISCOVERY_RUN_COLUMNS: &str =
    "id, customer_id, run_trigger, state, requested_at, started_at, finished_at, summary";

#[derive(sqlx::FromRow)]
pub(crate) struct DiscoveryRunRow {
    pub id: i64,
    pub customer_id: i64,
    pub run_trigger: String,
    pub state: String,
    pub requested_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    pub summary: Option<String>,
}

pub(crate) fn trigger_from(text: &str, id: i64) -> Result<DiscoveryTrigger, StoreError> {
    match text {
        "on_demand" => Ok(DiscoveryTrigger::OnDemand),
        "scheduled" => Ok(DiscoveryTrigger::Scheduled),
        other => Err(StoreError::Corrupt(format!(
            "discovery run {id}: unknown trigger {other:?}"
        ))),
    }
}

impl TryFrom<DiscoveryRunRow> for DiscoveryRun {
    type Error = StoreError;

    fn try_from(row: DiscoveryRunRow) -> Result<Self, Self::Error> {
        let state = match row.state.as_str() {
            "queued" => DiscoveryRunState::Queued,
            "running" => DiscoveryRunState::Running,
            "succeeded" => DiscoveryRunState::Succeeded,
            "partial" => DiscoveryRunState::Partial,
            "failed" => DiscoveryRunState::Failed,
            other => {
                return Err(StoreError::Corrupt(format!(
                    "discovery run {}: unknown state {other:?}",
                    row.id
                )))
            }
        };
        Ok(DiscoveryRun {
            trigger: trigger_from(&row.run_trigger, row.id)?,
            summary: row
                .summary
                .as_deref()
                .map(|text| parse_json(text, "discovery_runs.summary", row.id))
                .transpose()?,
            id: row.id,
            customer_id: row.customer_id,
            state,
            requested_at: row.requested_at,
            started_at: row.started_at,
            finished_at: row.finished_at,
        })
    }
}
