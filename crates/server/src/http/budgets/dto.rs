//! What the budget calls send and answer (docs/API-BUDGETS.md), camelCase as spec 2 §3 writes.

use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::budget::{
    AlertBasis, AlertRequest, AlertThreshold, BudgetFilter, BudgetHealth, BudgetPeriod,
    DetailStatus, ThresholdType,
};
use costscope_core::forecast::PeriodForecast;
use costscope_core::notify::DeliveryStatus;
use costscope_store::{AlertDelivery, Budget, BudgetAlert, BudgetConfigChange, BudgetConfigField};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::budgets::standing::Standing;
use crate::http::currency::CurrencyPart;

/// A budget with where it stands now.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Budget)]
pub struct BudgetDto {
    pub id: i64,
    pub name: String,
    /// Dollars.
    pub amount: f64,
    pub period: BudgetPeriod,
    pub filters: Vec<BudgetFilter>,
    pub alerts: Vec<AlertThreshold>,
    /// Billed cost matching every filter over the current period.
    pub current_spent: f64,
    /// The same over the whole previous period.
    pub previous_spent: f64,
    /// `currentSpent / amount × 100`, unrounded (for display: the rules below compare the
    /// spend and the amount exactly, to the micro-dollar, not this quotient).
    pub percent_used: f64,
    /// Dashboard, cards and summary health: critical from 90 %, warning from 75 %.
    pub status: BudgetHealth,
    /// The detail page's reading: exceeded over 100 %, warning from 75 %.
    pub detail_status: DetailStatus,
    /// Mission Control's health: critical from 80 %, warning from 70 %.
    pub mission_control_status: BudgetHealth,
    /// 100 % used or more.
    pub exceeded: bool,
    /// How many alert thresholds the current spend has reached.
    pub triggered_alerts: usize,
    /// The alert thresholds the current spend has reached, in the order of `alerts`.
    pub reached_alerts: Vec<AlertThreshold>,
    pub period_start: NaiveDate,
    pub period_end: NaiveDate,
    /// Days left in the current period, today included.
    pub days_remaining: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The currency of `amount` and the spend figures (the display currency when chosen),
    /// whether the spend was converted and what it leaves out.
    #[serde(flatten)]
    pub currency: CurrencyPart,
    /// One line per currency left out of the current spend, and one when it was converted.
    pub warnings: Vec<String>,
    /// The notification channels its alerts go to; empty: every channel of the customer
    /// (docs/NOTIFICATIONS.md).
    pub channel_ids: Vec<i64>,
    /// The current period's forecast with the budget's filters; null without enough history
    /// (fewer than 7 known days) or when the latest charge day is before the period.
    pub forecast: Option<BudgetForecastDto>,
}

/// Where a budget's current period is forecast to end (docs/ANOMALIES.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BudgetForecast)]
pub struct BudgetForecastDto {
    /// The forecast total of the period.
    pub amount: f64,
    /// The interval that should hold the actual total 8 times in 10.
    pub low: f64,
    pub high: f64,
    /// The day the spend is forecast to reach more than the budget amount (or did); null when
    /// the forecast stays within it.
    pub exceeds_on: Option<NaiveDate>,
    /// `exceedsOn` is a forecast day (after the latest charge day), not one already past.
    pub exceeds_on_forecast: bool,
}

impl BudgetForecastDto {
    pub fn new(forecast: &PeriodForecast, budget_amount: f64) -> Self {
        let exceedance = forecast.exceeds_on(budget_amount);
        Self {
            amount: forecast.forecast,
            low: forecast.low,
            high: forecast.high,
            exceeds_on: exceedance.map(|exceedance| exceedance.day),
            exceeds_on_forecast: exceedance.is_some_and(|exceedance| exceedance.forecast),
        }
    }
}

impl BudgetDto {
    /// `display`: whether the customer chose a display currency.
    pub fn new(budget: Budget, standing: &Standing, display: bool) -> Self {
        let currency = CurrencyPart::from_note(&standing.current.currency);
        let reached_alerts = standing.current.reached_alerts(&budget);
        Self {
            warnings: currency.warnings(display),
            currency,
            id: budget.id,
            triggered_alerts: reached_alerts.len(),
            reached_alerts,
            name: budget.name.as_str().to_owned(),
            amount: budget.amount.value(),
            period: budget.period,
            filters: budget.filters,
            alerts: budget.alerts,
            current_spent: standing.current.spent,
            previous_spent: standing.previous_spent,
            percent_used: standing.current.percent_used,
            status: standing.current.health(),
            detail_status: standing.current.detail_status(),
            mission_control_status: standing.current.mission_control_health(),
            exceeded: standing.current.exceeded(),
            period_start: standing.current.period_start,
            period_end: standing.current.period_end,
            days_remaining: standing.days_remaining,
            created_at: budget.created_at,
            updated_at: budget.updated_at,
            channel_ids: Vec::new(),
            forecast: None,
        }
    }

    /// With the current period's forecast.
    pub fn with_forecast(mut self, forecast: Option<&PeriodForecast>) -> Self {
        self.forecast = forecast.map(|forecast| BudgetForecastDto::new(forecast, self.amount));
        self
    }

    /// With the channels it names.
    pub fn with_channels(mut self, channel_ids: Vec<i64>) -> Self {
        self.channel_ids = channel_ids;
        self
    }
}

/// The body of a create or an edit (an edit replaces all five fields). Fields are optional here
/// so that a missing one gets its spec message rather than a parse error.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetRequest {
    #[schema(required = true)]
    pub name: Option<String>,
    /// Dollars, over 0.
    #[schema(required = true)]
    pub amount: Option<f64>,
    /// `Monthly` (default), `Quarterly` or `Yearly`.
    pub period: Option<String>,
    #[serde(default)]
    pub filters: Vec<BudgetFilter>,
    #[serde(default)]
    pub alerts: Vec<AlertRequest>,
    /// The customer's notification channels its alerts go to (empty: every channel). Left
    /// out of an edit, the budget keeps the channels it has.
    pub channel_ids: Option<Vec<i64>>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetSummary {
    pub total_budgets: usize,
    pub healthy_budgets: usize,
    pub warning_budgets: usize,
    pub critical_budgets: usize,
    /// Budgets with at least one alert threshold reached now.
    pub alerts_budgets: usize,
}

/// One day of a budget's spend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetHistoryItem {
    pub date: NaiveDate,
    pub amount_spent: f64,
    pub budget_amount: f64,
    /// The currency of both amounts (the display currency when chosen).
    pub currency: String,
}

/// A threshold crossing, recorded once per period.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetAlertHistoryItem {
    pub id: i64,
    pub triggered_at: DateTime<Utc>,
    /// The UTC day of `triggeredAt`.
    pub date: NaiveDate,
    pub threshold_type: ThresholdType,
    pub threshold_value: f64,
    /// Spend when the threshold was found reached.
    pub spent_amount: f64,
    pub spend_percentage: f64,
    /// First day of the budget period it was reached in.
    pub period_start: NaiveDate,
    /// What reached the threshold: the spend (`Actual`) or the forecast total (`Forecasted`).
    pub basis: AlertBasis,
    /// How the alert went out: one entry per channel, or the e-mail to the owners and admins
    /// of a customer without channels (once tried).
    pub deliveries: Vec<AlertDeliveryDto>,
}

/// One way an alert went out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BudgetAlertDelivery)]
pub struct AlertDeliveryDto {
    /// The channel's name ([`OWNERS_AND_ADMINS`] for the e-mail of a customer without
    /// channels).
    pub channel_name: String,
    pub status: DeliveryStatus,
    /// Why its latest attempt failed.
    pub error: Option<String>,
}

/// How the alert history names the e-mail to the owners and admins of a customer without
/// channels.
pub const OWNERS_AND_ADMINS: &str = "Owners and admins (e-mail)";

impl From<AlertDelivery> for AlertDeliveryDto {
    fn from(delivery: AlertDelivery) -> Self {
        Self {
            channel_name: delivery
                .channel_name
                .unwrap_or_else(|| OWNERS_AND_ADMINS.to_owned()),
            status: delivery.status,
            error: delivery.error,
        }
    }
}

impl From<BudgetAlert> for BudgetAlertHistoryItem {
    fn from(alert: BudgetAlert) -> Self {
        Self {
            id: alert.id,
            triggered_at: alert.triggered_at,
            date: alert.triggered_at.date_naive(),
            threshold_type: alert.threshold.threshold_type,
            threshold_value: alert.threshold.value,
            spent_amount: alert.spent_amount,
            spend_percentage: alert.spend_percentage,
            period_start: alert.period_start,
            basis: alert.threshold.basis,
            deliveries: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ConfigChangeType {
    Created,
    Updated,
}

/// One configuration change: the creation, or one changed field of an edit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetConfigHistoryItem {
    pub id: i64,
    pub changed_at: DateTime<Utc>,
    /// The changing user's name; null once they have been deleted (shown as "System").
    pub changed_by: Option<String>,
    pub change_type: ConfigChangeType,
    /// `name`, `amount`, `period`, `filters` or `alerts`; null for a creation.
    pub field_name: Option<String>,
    pub old_value: Option<Value>,
    /// For a creation, the whole budget.
    pub new_value: Option<Value>,
}

impl From<BudgetConfigChange> for BudgetConfigHistoryItem {
    fn from(change: BudgetConfigChange) -> Self {
        let created = change.field == BudgetConfigField::Created;
        Self {
            id: change.id,
            changed_at: change.changed_at,
            changed_by: change.changed_by,
            change_type: if created {
                ConfigChangeType::Created
            } else {
                ConfigChangeType::Updated
            },
            field_name: (!created).then(|| change.field.as_str().to_owned()),
            old_value: change.old_value,
            new_value: change.new_value,
        }
    }
}

/// `startDate` and `endDate`, `YYYY-MM-DD` (spec 2 §5 "Spending date range").
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DateRangeParams {
    pub start_date: Option<String>,
    pub end_date: Option<String>,
}

/// The resources table's query (spec 2 §5 "Resources request").
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ResourcesParams {
    #[param(required = true)]
    pub start_date: Option<String>,
    #[param(required = true)]
    pub end_date: Option<String>,
    /// From 1 (default 1).
    #[param(value_type = Option<i64>)]
    pub page: Option<String>,
    /// 1 to 1000 (default 10).
    #[param(value_type = Option<i64>)]
    pub size: Option<String>,
    /// `cost` (default), `resourceName`, `resourceType`, `region`, `accountId`, `cloudProvider`.
    pub sort_by: Option<String>,
    /// `asc` or `desc` (default).
    pub sort_direction: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetResource {
    /// `AWS`, `GCP` or `Azure`.
    pub cloud_provider: String,
    pub account_id: String,
    pub account_name: String,
    pub resource_id: String,
    /// The export's resource name, else the resource id.
    pub resource_name: String,
    /// The resource type, else the service.
    pub resource_type: String,
    pub region: String,
    pub service: String,
    pub cost: f64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesPagination {
    pub page: u64,
    pub size: u64,
    pub total_pages: u64,
    pub total_count: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetResourcesResponse {
    pub budget_id: i64,
    pub budget_name: String,
    pub resources: Vec<BudgetResource>,
    pub pagination: ResourcesPagination,
    /// Rows on this page.
    pub count: usize,
    /// Resources over all pages (also `total`).
    pub total_items: u64,
    pub total: u64,
    /// Cost of every resource row, all pages.
    pub resources_cost: f64,
    /// The budget's whole spend in the range, with rows that have no resource.
    pub total_cost: f64,
    /// The currency of every cost (the display currency when chosen), as in every cost answer.
    #[serde(flatten)]
    pub currency: CurrencyPart,
}
