//! Filter groups of the cost API (spec 1 §3 "Api filter group"): conditions inside a group are
//! ANDed; each group after the first joins the result so far with its own operator (the client
//! sends AND for the first and OR for the rest, so groups are ORed).

/// How a value list is matched. `Equals`/`In` keep rows whose value is in the list,
/// `NotEquals`/`NotIn` keep rows whose value is not (a missing value counts as not in the list).
/// The string operators are only accepted by `POST /v1/query`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchOperator {
    Equals,
    NotEquals,
    In,
    NotIn,
    Contains,
    NotContains,
    StartsWith,
    EndsWith,
    IsEmpty,
    IsNotEmpty,
}

impl MatchOperator {
    /// The operators of the `/v2/cost/*` filter groups.
    pub const fn is_list_operator(self) -> bool {
        matches!(
            self,
            MatchOperator::Equals
                | MatchOperator::NotEquals
                | MatchOperator::In
                | MatchOperator::NotIn
        )
    }

    /// Operators that compare against no value at all.
    pub const fn takes_no_value(self) -> bool {
        matches!(self, MatchOperator::IsEmpty | MatchOperator::IsNotEmpty)
    }

    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "equals" | "eq" => MatchOperator::Equals,
            "not_equals" | "not_eq" => MatchOperator::NotEquals,
            "in" => MatchOperator::In,
            "not_in" => MatchOperator::NotIn,
            "contains" => MatchOperator::Contains,
            "not_contains" => MatchOperator::NotContains,
            "starts_with" => MatchOperator::StartsWith,
            "ends_with" => MatchOperator::EndsWith,
            "is_empty" => MatchOperator::IsEmpty,
            "is_not_empty" => MatchOperator::IsNotEmpty,
            _ => return None,
        })
    }
}

/// One condition on one column: operator and values (never empty for list operators; the HTTP
/// layer skips empty ones with a warning, spec 1 §5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueCondition {
    pub operator: MatchOperator,
    pub values: Vec<String>,
}

/// A tag condition: with no `value` the key must exist; otherwise the tag's value is matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagCondition {
    pub key: String,
    pub value: Option<ValueCondition>,
}

/// How a group joins the groups before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GroupJoin {
    And,
    #[default]
    Or,
}

/// One filter group. Every listed condition must hold (AND). `cloud_providers` values are
/// provider codes (`aws`, `gcp`, `azure`), already normalised by the HTTP layer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilterGroup {
    pub join: GroupJoin,
    pub accounts: Vec<ValueCondition>,
    pub regions: Vec<ValueCondition>,
    pub services: Vec<ValueCondition>,
    pub cloud_providers: Vec<ValueCondition>,
    pub cost_types: Vec<ValueCondition>,
    pub usage_types: Vec<ValueCondition>,
    pub tags: Vec<TagCondition>,
}

impl FilterGroup {
    /// A group with no conditions matches every row.
    pub fn is_empty(&self) -> bool {
        self.accounts.is_empty()
            && self.regions.is_empty()
            && self.services.is_empty()
            && self.cloud_providers.is_empty()
            && self.cost_types.is_empty()
            && self.usage_types.is_empty()
            && self.tags.is_empty()
    }
}

/// Which rows a cost call looks at, besides the time range: the filter groups and the charge
/// type inclusions (`cost_type.inclusions`; `None` or empty means every charge type).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CostFilter {
    pub groups: Vec<FilterGroup>,
    pub cost_type_inclusions: Option<Vec<String>>,
}

impl CostFilter {
    /// The filter with empty groups dropped (they would match everything and, ORed, make every
    /// other group pointless; spec 1 §5 drops empty filters).
    pub fn without_empty_groups(mut self) -> Self {
        self.groups.retain(|group| !group.is_empty());
        self
    }
}
