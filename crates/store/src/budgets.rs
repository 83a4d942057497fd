//! Budgets (spec 2 §3 Budget and Alert) and their configuration change history (§3
//! Configuration history item): `budgets` and `budget_config_history`.

use chrono::{DateTime, Utc};
use costscope_core::budget::{
    AlertThreshold, Alerts, BudgetAmount, BudgetFilter, BudgetFilters, BudgetName, BudgetPeriod,
};
use serde_json::{json, Value};

use crate::StoreError;

/// Columns of `budgets` in the order [`BudgetRow`] reads them.
pub(crate) const BUDGET_COLUMNS: &str = "id, customer_id, name, amount, period, filters, alerts, \
     created_by_user_id, created_at, updated_at";

/// Columns of `budget_config_history` (as `h`, joined with `users` as `u`) in the order
/// [`BudgetConfigChangeRow`] reads them.
pub(crate) const BUDGET_CONFIG_CHANGE_COLUMNS: &str = "h.id, h.budget_id, h.field, h.old_value, \
     h.new_value, h.changed_by_user_id, u.name AS changed_by, h.changed_at";

/// A stored budget. The filters and alerts are those that were valid when written; they are
/// returned as stored (the alerts' rules depend on the amount, which an edit may change).
#[derive(Debug, Clone, PartialEq)]
pub struct Budget {
    pub id: i64,
    pub customer_id: i64,
    pub name: BudgetName,
    pub amount: BudgetAmount,
    pub period: BudgetPeriod,
    pub filters: Vec<BudgetFilter>,
    pub alerts: Vec<AlertThreshold>,
    /// The creating user; `None` once they have been deleted.
    pub created_by_user_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A new budget, validated by the domain types.
#[derive(Debug, Clone)]
pub struct NewBudget {
    pub name: BudgetName,
    pub amount: BudgetAmount,
    pub period: BudgetPeriod,
    pub filters: BudgetFilters,
    pub alerts: Alerts,
    pub now: DateTime<Utc>,
}

/// What an edit sets; `None` leaves the field as it is. A field set to its current value is
/// not a change: it is neither written nor recorded in the history.
#[derive(Debug, Clone)]
pub struct BudgetChanges {
    pub name: Option<BudgetName>,
    pub amount: Option<BudgetAmount>,
    pub period: Option<BudgetPeriod>,
    pub filters: Option<BudgetFilters>,
    pub alerts: Option<Alerts>,
    pub now: DateTime<Utc>,
}

impl BudgetChanges {
    /// No changes, made at `now`.
    pub fn at(now: DateTime<Utc>) -> Self {
        Self {
            name: None,
            amount: None,
            period: None,
            filters: None,
            alerts: None,
            now,
        }
    }
}

/// What a configuration history row records: the creation, or one changed field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BudgetConfigField {
    Created,
    Name,
    Amount,
    Period,
    Filters,
    Alerts,
}

impl BudgetConfigField {
    /// The stored name, also the spec's `fieldName` (`created` for a creation).
    pub const fn as_str(self) -> &'static str {
        match self {
            BudgetConfigField::Created => "created",
            BudgetConfigField::Name => "name",
            BudgetConfigField::Amount => "amount",
            BudgetConfigField::Period => "period",
            BudgetConfigField::Filters => "filters",
            BudgetConfigField::Alerts => "alerts",
        }
    }
}

/// One configuration history row (spec 2 §3 Configuration history item).
///
/// Values are JSON: a string for the name and period, a number for the amount, the wire lists
/// (`filterType`/`filterValues`, `thresholdType`/`thresholdValue`) for filters and alerts. A
/// creation has no old value and the whole budget (`name`, `amount`, `period`, `filters`,
/// `alerts`) as its new value.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetConfigChange {
    pub id: i64,
    pub budget_id: i64,
    pub field: BudgetConfigField,
    pub old_value: Option<Value>,
    pub new_value: Option<Value>,
    /// The changing user; `None` once they have been deleted.
    pub changed_by_user_id: Option<i64>,
    /// The changing user's current name; `None` once they have been deleted.
    pub changed_by: Option<String>,
    pub changed_at: DateTime<Utc>,
}

/// A history row to write: the field and its old and new values as JSON text.
pub(crate) struct HistoryEntry {
    pub field: BudgetConfigField,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
}

/// The columns an insert or update writes, in bind order: name, amount, period, filters, alerts.
pub(crate) struct BudgetValues {
    pub name: String,
    pub amount: f64,
    pub period: &'static str,
    pub filters: String,
    pub alerts: String,
}

fn text(value: &Value) -> String {
    value.to_string()
}

fn filters_json(filters: &[BudgetFilter]) -> Value {
    serde_json::to_value(filters).expect("budget filters serialize")
}

fn alerts_json(alerts: &[AlertThreshold]) -> Value {
    serde_json::to_value(alerts).expect("budget alerts serialize")
}

impl NewBudget {
    pub(crate) fn values(&self) -> BudgetValues {
        BudgetValues {
            name: self.name.as_str().to_owned(),
            amount: self.amount.value(),
            period: self.period.as_str(),
            filters: text(&filters_json(self.filters.as_slice())),
            alerts: text(&alerts_json(self.alerts.as_slice())),
        }
    }

    /// The 'created' history row: the whole budget as its new value.
    pub(crate) fn created_entry(&self) -> HistoryEntry {
        let snapshot = json!({
            "name": self.name.as_str(),
            "amount": self.amount.value(),
            "period": self.period.as_str(),
            "filters": filters_json(self.filters.as_slice()),
            "alerts": alerts_json(self.alerts.as_slice()),
        });
        HistoryEntry {
            field: BudgetConfigField::Created,
            old_value: None,
            new_value: Some(text(&snapshot)),
        }
    }
}

/// The budget's columns after `changes`, and one history entry per field that really changes.
pub(crate) fn apply_changes(
    current: &Budget,
    changes: &BudgetChanges,
) -> (BudgetValues, Vec<HistoryEntry>) {
    let mut entries = Vec::new();
    let mut record = |field, old: Value, new: Value| {
        entries.push(HistoryEntry {
            field,
            old_value: Some(text(&old)),
            new_value: Some(text(&new)),
        });
    };

    let mut name = current.name.clone();
    if let Some(new) = changes.name.as_ref().filter(|new| **new != current.name) {
        record(
            BudgetConfigField::Name,
            json!(current.name.as_str()),
            json!(new.as_str()),
        );
        name = new.clone();
    }
    let mut amount = current.amount;
    if let Some(new) = changes.amount.filter(|new| *new != current.amount) {
        record(
            BudgetConfigField::Amount,
            json!(current.amount.value()),
            json!(new.value()),
        );
        amount = new;
    }
    let mut period = current.period;
    if let Some(new) = changes.period.filter(|new| *new != current.period) {
        record(
            BudgetConfigField::Period,
            json!(current.period.as_str()),
            json!(new.as_str()),
        );
        period = new;
    }
    let mut filters = current.filters.as_slice();
    if let Some(new) = changes
        .filters
        .as_ref()
        .filter(|new| new.as_slice() != current.filters.as_slice())
    {
        record(
            BudgetConfigField::Filters,
            filters_json(&current.filters),
            filters_json(new.as_slice()),
        );
        filters = new.as_slice();
    }
    let mut alerts = current.alerts.as_slice();
    if let Some(new) = changes
        .alerts
        .as_ref()
        .filter(|new| new.as_slice() != current.alerts.as_slice())
    {
        record(
            BudgetConfigField::Alerts,
            alerts_json(&current.alerts),
            alerts_json(new.as_slice()),
        );
        alerts = new.as_slice();
    }

    let values = BudgetValues {
        name: name.as_str().to_owned(),
        amount: amount.value(),
        period: period.as_str(),
        filters: text(&filters_json(filters)),
        alerts: text(&alerts_json(alerts)),
    };
    (values, entries)
}

fn corrupt(column: &str, err: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(format!("{column}: {err}"))
}

#[derive(sqlx::FromRow)]
pub(crate) struct BudgetRow {
    id: i64,
    customer_id: i64,
    name: String,
    amount: f64,
    period: String,
    filters: String,
    alerts: String,
    created_by_user_id: Option<i64>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

impl TryFrom<BudgetRow> for Budget {
    type Error = StoreError;

    fn try_from(row: BudgetRow) -> Result<Self, Self::Error> {
        let period = match row.period.as_str() {
            "Monthly" => BudgetPeriod::Monthly,
            "Quarterly" => BudgetPeriod::Quarterly,
            "Yearly" => BudgetPeriod::Yearly,
            other => return Err(corrupt("budgets.period", format!("{other:?}"))),
        };
        Ok(Budget {
            id: row.id,
            customer_id: row.customer_id,
            name: BudgetName::parse(&row.name).map_err(|e| corrupt("budgets.name", e.message))?,
            amount: BudgetAmount::parse(row.amount)
                .map_err(|e| corrupt("budgets.amount", e.message))?,
            period,
            filters: serde_json::from_str(&row.filters)
                .map_err(|e| corrupt("budgets.filters", e))?,
            alerts: serde_json::from_str(&row.alerts).map_err(|e| corrupt("budgets.alerts", e))?,
            created_by_user_id: row.created_by_user_id,
            created_at: row.created_at,
            updated_at: row.updated_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct BudgetConfigChangeRow {
    id: i64,
    budget_id: i64,
    field: String,
    old_value: Option<String>,
    new_value: Option<String>,
    changed_by_user_id: Option<i64>,
    changed_by: Option<String>,
    changed_at: DateTime<Utc>,
}

fn json_value(column: &str, text: Option<String>) -> Result<Option<Value>, StoreError> {
    text.map(|text| serde_json::from_str(&text).map_err(|e| corrupt(column, e)))
        .transpose()
}

impl TryFrom<BudgetConfigChangeRow> for BudgetConfigChange {
    type Error = StoreError;

    fn try_from(row: BudgetConfigChangeRow) -> Result<Self, Self::Error> {
        let field = match row.field.as_str() {
            "created" => BudgetConfigField::Created,
            "name" => BudgetConfigField::Name,
            "amount" => BudgetConfigField::Amount,
            "period" => BudgetConfigField::Period,
            "filters" => BudgetConfigField::Filters,
            "alerts" => BudgetConfigField::Alerts,
            other => return Err(corrupt("budget_config_history.field", format!("{other:?}"))),
        };
        Ok(BudgetConfigChange {
            id: row.id,
            budget_id: row.budget_id,
            field,
            old_value: json_value("budget_config_history.old_value", row.old_value)?,
            new_value: json_value("budget_config_history.new_value", row.new_value)?,
            changed_by_user_id: row.changed_by_user_id,
            changed_by: row.changed_by,
            changed_at: row.changed_at,
        })
    }
}
