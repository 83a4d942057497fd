//! A budget's parts and rules (spec 2 §3 Budget and Alert, §4 Budget health, §5 Budget,
//! Spending date range and Resources request). Each part parses into a type that is valid by
//! construction; errors are [`FieldError`](crate::FieldError)s carrying the spec's message.

mod alerts;
mod amount;
mod filters;
mod health;
mod name;
mod period;
mod range;
mod usage;

pub use alerts::{
    AlertBasis, AlertRequest, AlertThreshold, Alerts, ThresholdType, BASIS_MESSAGE, MAX_ALERTS,
    MAX_PERCENTAGE, MIN_ABSOLUTE, MIN_PERCENTAGE,
};
pub use amount::BudgetAmount;
pub use filters::{
    BudgetFilter, BudgetFilterType, BudgetFilters, MAX_FILTERS, MAX_FILTER_ENTRIES,
    MAX_FILTER_VALUES, MAX_FILTER_VALUE_CHARS, MAX_TAG_KEYS,
};
pub use health::{
    dashboard_health, detail_status, is_exceeded, mission_control_health, BudgetHealth,
    DetailStatus, DASHBOARD_CRITICAL_PERCENT, DASHBOARD_WARNING_PERCENT, EXCEEDED_PERCENT,
    MISSION_CONTROL_CRITICAL_PERCENT, MISSION_CONTROL_WARNING_PERCENT,
};
pub use name::{BudgetName, MAX_NAME_CHARS, MIN_NAME_CHARS};
pub use period::BudgetPeriod;
pub use range::{
    ResourcesQuery, ResourcesRequest, SortDirection, SpendingRange, DEFAULT_PAGE_SIZE,
    MAX_PAGE_SIZE, MAX_RANGE_DAYS, MIN_PAGE_SIZE,
};
pub use usage::{micros, Usage};
