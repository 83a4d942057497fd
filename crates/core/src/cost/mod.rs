//! The vocabulary of cost questions: providers, dimensions, intervals, metrics, filter groups and
//! time ranges. The HTTP layer parses requests into these types and the cost engine turns them
//! into SQL; neither invents its own.

pub mod bounds;
pub mod compare;
mod currency;
mod dimension;
mod filter;
mod provider;
mod query;
mod service_category;
mod time_range;

pub use currency::{
    parse_rates_csv, CurrencyCode, ExchangeRate, InvalidCurrencyCode, Rate, RatesFileError,
    MAX_RATES_FILE_BYTES, MAX_RATE_ROWS, RATE_SCALE,
};
pub use dimension::{Dimension, MAX_GROUP_BY_DIMENSIONS};
pub use filter::{CostFilter, FilterGroup, GroupJoin, MatchOperator, TagCondition, ValueCondition};
pub use provider::Provider;
pub use query::{AggregateQuery, Interval, Metric};
pub use service_category::{service_key, ServiceCategory};
pub use time_range::TimeRange;
