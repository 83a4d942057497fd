//! What the findings, savings and tag-compliance calls send and answer. Kinds, categories and
//! severities are core's snake_case names; money is in `currency` (the tenant's main
//! currency), per 30 days for savings.

use costscope_core::inventory::findings::{Finding, FindingCategory, FindingKind, Severity};
use costscope_core::inventory::savings::{Recommendation, RecommendationKind};
use costscope_core::inventory::standard_tags::TagViolationKind;
use costscope_core::inventory::ResourceKey;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::http::currency::CurrencyAmountDto;
use crate::http::inventory::dto::CostPeriod;

/// The resource a finding or recommendation is about (the inventory's key: open it with
/// `POST /v1/resource/property`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ResourceRefDto {
    pub resource_id: String,
    pub resource_type: String,
    pub region: String,
    pub account_id: String,
}

impl From<ResourceKey> for ResourceRefDto {
    fn from(key: ResourceKey) -> Self {
        Self {
            resource_id: key.resource_id,
            resource_type: key.resource_type,
            region: key.region,
            account_id: key.account_id,
        }
    }
}

/// `GET /v1/findings?category=iam|compliance` (none: both).
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FindingsParams {
    /// `iam` or `compliance`; absent means both.
    pub category: Option<String>,
}

/// One IAM or compliance finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FindingDto {
    /// Stable across discovery runs.
    pub id: String,
    pub kind: FindingKind,
    pub category: FindingCategory,
    pub severity: Severity,
    pub title: String,
    pub evidence: String,
    pub resource: ResourceRefDto,
}

impl From<Finding> for FindingDto {
    fn from(finding: Finding) -> Self {
        Self {
            id: finding.id,
            kind: finding.kind,
            category: finding.category,
            severity: finding.severity,
            title: finding.title,
            evidence: finding.evidence,
            resource: finding.resource.into(),
        }
    }
}

/// One savings recommendation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecommendationDto {
    /// Stable across discovery runs; the `{id}` of the dismiss calls.
    pub id: String,
    pub kind: RecommendationKind,
    pub title: String,
    pub evidence: String,
    /// How to act.
    pub action: String,
    /// Per 30 days in `currency`, from the resource's own billed cost; null when no line item
    /// names the resource (the evidence says so).
    pub monthly_saving: Option<f64>,
    pub currency: String,
    /// Dismissed by someone of the tenant (left out of `total_monthly_saving`).
    pub dismissed: bool,
    pub resource: ResourceRefDto,
}

impl RecommendationDto {
    pub fn new(recommendation: Recommendation, currency: &str, dismissed: bool) -> Self {
        Self {
            id: recommendation.id,
            kind: recommendation.kind,
            title: recommendation.title,
            evidence: recommendation.evidence,
            action: recommendation.action,
            monthly_saving: recommendation.monthly_saving,
            currency: currency.to_owned(),
            dismissed,
            resource: recommendation.resource.into(),
        }
    }
}

/// `GET /v1/savings`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SavingsResponse {
    /// Largest saving first; dismissed ones included (flagged).
    pub recommendations: Vec<RecommendationDto>,
    /// The sum of the savings of the recommendations not dismissed.
    pub total_monthly_saving: f64,
    pub currency: String,
    /// The 30 days whose billed cost the savings come from.
    pub cost_period: CostPeriod,
    /// Billed cost of these resources in other currencies, left out of every saving.
    pub other_currencies: Vec<CurrencyAmountDto>,
}

/// `GET /v1/tags/compliance?months=&limit=`.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ComplianceParams {
    /// Calendar months of the untagged-spend series, the current one included: 1 to 24,
    /// default 6.
    pub months: Option<String>,
    /// The most violations listed: 1 to 1000, default 200.
    pub limit: Option<String>,
}

/// One resource breaking one standard tag, with its billed cost of the last 30 days.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TagViolationDto {
    pub standard_tag_id: i64,
    pub key: String,
    pub kind: TagViolationKind,
    /// The value it carries (`invalid_value` only).
    pub value: Option<String>,
    /// Null when no line item names the resource.
    pub cost: Option<f64>,
    pub resource: ResourceRefDto,
}

/// One calendar month of spend and the part of it no tag accounts for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct UntaggedMonthDto {
    /// `YYYY-MM`.
    pub month: String,
    /// Every billed cost of the month (all charge types).
    pub total_cost: f64,
    /// Cost of inventory resources that carry no tag at all (their current tags).
    pub untagged_cost: f64,
    /// Cost of line items naming a resource the inventory does not know (its tags unknown).
    pub not_in_inventory_cost: f64,
    /// `(untagged_cost + not_in_inventory_cost) / total_cost`; null when the month has no spend.
    pub untagged_share: Option<f64>,
}

/// `GET /v1/tags/compliance`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TagComplianceResponse {
    /// Live taggable resources breaking a standard tag, most costly first (those without a cost
    /// last), at most `limit`.
    pub violations: Vec<TagViolationDto>,
    /// All violations, not only those listed.
    pub total_violations: u64,
    /// The billed cost of the last 30 days of the resources with at least one violation.
    pub violations_cost: f64,
    /// The 30 days of `cost` and `violations_cost`.
    pub cost_period: CostPeriod,
    /// Oldest month first.
    pub untagged_by_month: Vec<UntaggedMonthDto>,
    pub currency: String,
    /// Amounts in other currencies, left out of every figure.
    pub other_currencies: Vec<CurrencyAmountDto>,
}
