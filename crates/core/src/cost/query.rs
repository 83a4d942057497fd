use super::{CostFilter, Dimension, TimeRange};

/// Time buckets of an aggregation; each answer row carries its bucket's first day.
/// Weeks start on Monday (ISO), months on the 1st; the first bucket starts no earlier than the
/// range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interval {
    Daily,
    Weekly,
    Monthly,
}

/// Which cost column is summed. Billed is the invoice's unblended cost and the default;
/// effective is amortised (commitments spread over usage); list is the public price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    #[default]
    Billed,
    Effective,
    List,
}

impl Metric {
    /// Accepts the names the API documents (`billed`, `unblended`, `effective`, `amortized`,
    /// `amortised`, `list`).
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "billed" | "unblended" => Metric::Billed,
            "effective" | "amortized" | "amortised" => Metric::Effective,
            "list" => Metric::List,
            _ => return None,
        })
    }
}

/// One `/v2/cost/aggr` question.
#[derive(Debug, Clone, PartialEq)]
pub struct AggregateQuery {
    pub range: TimeRange,
    pub filter: CostFilter,
    /// 0 to [`super::MAX_GROUP_BY_DIMENSIONS`] distinct dimensions; the first is the primary.
    pub dimensions: Vec<Dimension>,
    /// `None`: one row per group over the whole range, without `timestamp`.
    pub interval: Option<Interval>,
    /// Running totals per group over the buckets (the Cumulative view).
    pub cumulative: bool,
    pub metric: Metric,
    /// Paging over groups ranked by their total amount (descending unless `ascending`).
    pub limit: Option<u32>,
    pub offset: u32,
    pub ascending: bool,
}
