//! What the cost engine answers, independent of the database behind it.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::cost::{
    AggregateQuery, CostFilter, CurrencyCode, ExchangeRate, Metric, Provider, TimeRange,
};

/// The tenant every engine call is scoped to (the authenticated customer's id).
pub type CustomerId = i64;

/// One answer row of an aggregation.
#[derive(Debug, Clone, PartialEq)]
pub struct AggregateRow {
    /// First day of the row's bucket; `None` without an interval.
    pub timestamp: Option<NaiveDate>,
    /// One value per query dimension, in the query's order (`""` where the data has none).
    pub group: Vec<String>,
    /// The account's name when the query groups by account (first account dimension).
    pub account_name: Option<String>,
    pub amount: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Aggregate {
    pub rows: Vec<AggregateRow>,
    /// Distinct groups before limit/offset.
    pub total_groups: u64,
    /// Sum over the whole range and filter (`summary.accrued_cost`).
    pub total: f64,
    /// The same over [`TimeRange::previous`] (for `summary.accrued_change`).
    pub previous_total: f64,
    /// The currency of every amount (see [`CurrencyNote`]; `USD` when there are no rows and no
    /// display currency).
    pub currency: String,
    /// Some amounts were converted from other currencies with the tenant's exchange rates.
    pub converted: bool,
    /// Amounts of the range and filter left out of every figure (see [`CurrencyNote`]).
    pub other_currencies: Vec<CurrencyAmount>,
}

/// An amount in one currency.
#[derive(Debug, Clone, PartialEq)]
pub struct CurrencyAmount {
    pub currency: String,
    pub amount: f64,
}

/// How an answer's amounts relate to currencies (docs/CURRENCY.md): money is never summed
/// across currencies without saying so.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CurrencyNote {
    /// The currency of every amount of the answer: the display currency when one is given, else
    /// the tenant's main currency (most billed cost).
    pub currency: String,
    /// Some amounts were converted from other currencies with the tenant's exchange rates.
    pub converted: bool,
    /// Amounts of the range and filter that are in none of the answer's figures: in another
    /// currency without a display currency, or without a rate to it. Sorted by currency.
    pub other_currencies: Vec<CurrencyAmount>,
}

/// The tenant's exchange rates at a glance.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RatesSummary {
    pub count: u64,
    pub first_date: Option<NaiveDate>,
    pub last_date: Option<NaiveDate>,
    /// Distinct `(from, to)` pairs, sorted.
    pub pairs: Vec<(String, String)>,
}

/// One page of the tenant's exchange rates, by date descending, then from, then to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RatesPage {
    pub total: u64,
    pub rates: Vec<ExchangeRate>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountOption {
    pub provider: Provider,
    pub account_id: String,
    pub account_name: String,
}

/// Distinct values in the tenant's data for the range and filter (`/v2/cost/filters`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilterOptions {
    pub accounts: Vec<AccountOption>,
    pub regions: Vec<String>,
    pub services: Vec<String>,
    pub tags: BTreeMap<String, Vec<String>>,
    pub cloud_providers: Vec<Provider>,
    pub cost_types: Vec<String>,
    pub usage_types: Vec<String>,
}

/// Spend of one period (`/v2/cost/spend`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpendBreakdown {
    pub total: f64,
    pub by_provider: BTreeMap<Provider, f64>,
    pub by_cost_type: BTreeMap<String, f64>,
    pub currency: CurrencyNote,
}

/// The spend of one provider's service in one currency over a range and filter, with the distinct
/// non-empty service categories its rows carry (FOCUS `ServiceCategory`, or a native export's
/// product family), for Mission Control's service categories.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceSpend {
    pub provider: Provider,
    pub service: String,
    pub currency: String,
    pub focus_categories: Vec<String>,
    pub amount: f64,
}

/// The column a budget's resources table is ordered by (then by resource id, for stable pages).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ResourceSort {
    #[default]
    Cost,
    ResourceName,
    ResourceType,
    Region,
    AccountId,
    CloudProvider,
}

/// One page of spend per resource over a range and filter (`/v1/budgets/{id}/resources`).
#[derive(Debug, Clone, PartialEq)]
pub struct ResourcesQuery {
    pub range: TimeRange,
    pub filter: CostFilter,
    pub metric: Metric,
    pub sort: ResourceSort,
    pub ascending: bool,
    pub limit: u64,
    pub offset: u64,
}

/// The spend of one resource: one provider, account and non-empty resource id. Where its rows
/// disagree on a descriptive column the greatest non-empty value is shown (deterministic and
/// read in the same pass as the sum).
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceSpend {
    pub provider: Provider,
    pub account_id: String,
    pub account_name: String,
    pub resource_id: String,
    /// The export's resource name, else the resource id.
    pub resource_name: String,
    /// The export's resource type, else the service.
    pub resource_type: String,
    pub region: String,
    pub service: String,
    pub cost: f64,
}

/// A page of [`ResourceSpend`] with the totals of every page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResourcesPage {
    pub rows: Vec<ResourceSpend>,
    /// Resources before limit/offset.
    pub total_count: u64,
    /// Sum over every resource (all pages).
    pub resources_cost: f64,
    /// Sum over every row of the range and filter, with a resource id or not (taxes, support,
    /// credits); the same as [`CostEngine::spend`]'s total.
    pub total_cost: f64,
    pub currency: CurrencyNote,
}

/// The billed cost of inventory resources over a range (the inventory's Cost column): per id
/// that some line item's resource id equals exactly, in the tenant's main currency.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResourceCosts {
    /// Cost per asked id that a line item of the range names; ids no line item names are absent.
    pub costs: std::collections::HashMap<String, f64>,
    /// The currency of `costs`; amounts of the asked ids in other currencies are listed apart.
    pub currency: CurrencyNote,
}

/// One resource id of the cost data that the inventory does not know, with its billed cost.
#[derive(Debug, Clone, PartialEq)]
pub struct UnmatchedResource {
    pub resource_id: String,
    pub provider: Provider,
    pub account_id: String,
    /// The service of its rows (the greatest, where they disagree).
    pub service: String,
    pub cost: f64,
}

/// Spend over a range whose resource id is none of the inventory's: the largest resources and
/// the totals of all of them, in the tenant's main currency.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnmatchedSpend {
    /// The most expensive ones, largest first (ties by resource id), at most the asked limit.
    pub resources: Vec<UnmatchedResource>,
    /// How many resource ids are unmatched (all of them, not only `resources`).
    pub resource_count: u64,
    /// Their whole billed cost.
    pub total: f64,
    pub currency: CurrencyNote,
}

/// An account or project seen in the tenant's cost data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenAccount {
    pub provider: Provider,
    pub account_id: String,
    pub account_name: String,
    /// The earliest charge seen for it.
    pub first_seen: DateTime<Utc>,
}

/// How [`CostEngine::series_costs`] splits a tenant's billed cost (the anomaly scan's reads,
/// docs/ANOMALIES.md "In the product"). Amounts are never added across currencies: the
/// currency is part of every answer row.
#[derive(Debug, Clone, PartialEq)]
pub enum SeriesCostsBy {
    /// Per day and provider × account (`sub_account_id`) × service × currency; `group` is
    /// `[provider, account_id, service]`.
    Service,
    /// Per day and value × currency of one tag key (line items without the key are left out);
    /// `group` is `[value]`.
    Tag(String),
    /// One series' cost per day; `group` is `[""]`.
    Series(costscope_core::anomaly::SeriesKey),
    /// One series' cost summed over the days, by `part`; `group` is `[part]`, `day` is `None`.
    Parts {
        series: costscope_core::anomaly::SeriesKey,
        part: CostPart,
    },
}

/// What a series' cost is split into to explain an anomaly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CostPart {
    /// The usage type, else the charge description.
    UsageType,
    /// The resource id (line items without one are left out).
    Resource,
}

/// A read of [`CostEngine::series_costs`] over the charge days `first..=last`.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesCostsQuery {
    pub first: NaiveDate,
    pub last: NaiveDate,
    pub by: SeriesCostsBy,
    /// At most this many series (the largest by absolute cost over the days), for
    /// [`SeriesCostsBy::Service`] and [`SeriesCostsBy::Tag`].
    pub limit: u32,
}

/// One answer row of [`CostEngine::series_costs`].
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesCost {
    /// `None` for [`SeriesCostsBy::Parts`] (summed over the days).
    pub day: Option<NaiveDate>,
    pub group: Vec<String>,
    /// The account's name (the greatest, where rows disagree) of a service series; `""` else.
    pub account_name: String,
    pub currency: String,
    pub amount: f64,
}

/// One uploaded file to load.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    /// The name the user knows it by (upload file name), used in every message.
    pub display_name: String,
}

/// What a running load is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadPhase {
    /// Reading a file into staging.
    Reading,
    /// Checking and normalising the rows of a file read.
    Checking,
    /// Replacing the billing periods in the cost table.
    Writing,
    /// Updating the daily rollups.
    Rollups,
}

impl LoadPhase {
    pub const fn as_str(self) -> &'static str {
        match self {
            LoadPhase::Reading => "reading",
            LoadPhase::Checking => "checking",
            LoadPhase::Writing => "writing",
            LoadPhase::Rollups => "rollups",
        }
    }
}

/// Progress of a load, for the CLI's progress bar and the job status. Sent when the phase or
/// the file changes and, while a file is read, at most every half second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadProgress {
    pub phase: LoadPhase,
    /// The file being read or checked (0-based) of `files`, by the name the user knows it by.
    pub file_index: usize,
    pub files: usize,
    pub file_name: String,
    /// Data rows read from the files so far (a file's rows count once it is read whole).
    pub rows_read: u64,
    /// Bytes of the files read so far, as stored (compressed for a `.gz` file), of `bytes_total`.
    pub bytes_read: u64,
    pub bytes_total: u64,
}

pub type ProgressFn = Arc<dyn Fn(LoadProgress) + Send + Sync>;

/// A whole upload: one file, or the parts of one export sent together.
#[derive(Clone)]
pub struct LoadRequest {
    /// Recorded on every row (which load put it there).
    pub load_id: String,
    pub files: Vec<SourceFile>,
    /// `None`: detect each file's format from its header.
    pub format: Option<costscope_core::normalised::Format>,
    pub progress: Option<ProgressFn>,
}

impl std::fmt::Debug for LoadRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadRequest")
            .field("load_id", &self.load_id)
            .field("files", &self.files)
            .field("format", &self.format)
            .finish_non_exhaustive()
    }
}

/// A billing period of one provider's billing account: the unit an upload replaces.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct BillingPeriodKey {
    pub provider: Provider,
    pub billing_account_id: String,
    pub billing_period_start: NaiveDate,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ProviderTotals {
    pub provider: Provider,
    pub rows: u64,
    pub billed_cost: f64,
    pub effective_cost: f64,
    pub list_cost: f64,
    pub currency: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FileSummary {
    pub name: String,
    pub format: costscope_core::normalised::Format,
    pub rows: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LoadSummary {
    pub rows: u64,
    /// Rows of earlier loads that this one replaced.
    pub replaced_rows: u64,
    pub files: Vec<FileSummary>,
    pub billing_periods: Vec<BillingPeriodKey>,
    pub totals: Vec<ProviderTotals>,
}

/// What a FOCUS export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportSummary {
    /// Line items written.
    pub rows: u64,
}

/// Why a load was refused or failed. Nothing of a refused upload is stored.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file is bad: the message names the file, row and column (spec wording where any).
    #[error(transparent)]
    Invalid(#[from] costscope_core::normalised::IngestError),
    #[error("cost engine error: {0}")]
    Engine(String),
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// Another process (a running `costscope serve`) holds the cost database.
    #[error("{0}")]
    Locked(String),
    #[error("cost engine error: {0}")]
    Database(String),
    /// A read ran past the time limit and was cancelled (its DuckDB query interrupted).
    #[error("The cost query took longer than {seconds} s and was cancelled; narrow the range or the filters, or try again later")]
    TimedOut {
        seconds: u64,
        /// How long a caller should wait before trying again.
        retry_after_seconds: u64,
    },
    /// Every read slot stayed taken for the whole time limit; nothing ran.
    #[error("The cost engine is busy with other queries; try again in a few seconds")]
    Busy { retry_after_seconds: u64 },
}

/// The columnar store of normalised cost line items (DESIGN §4). Every call is scoped to one
/// customer; no call can see another customer's rows.
#[async_trait::async_trait]
pub trait CostEngine: Send + Sync + std::fmt::Debug {
    /// [`CostEngine::aggregate_in`] without a display currency.
    async fn aggregate(
        &self,
        customer: CustomerId,
        query: &AggregateQuery,
    ) -> Result<Aggregate, EngineError> {
        self.aggregate_in(customer, query, None).await
    }

    /// The aggregation in `display` (converted with the tenant's rates), or without one in the
    /// tenant's main currency; amounts in no figure are in `other_currencies`.
    async fn aggregate_in(
        &self,
        customer: CustomerId,
        query: &AggregateQuery,
        display: Option<&CurrencyCode>,
    ) -> Result<Aggregate, EngineError>;

    async fn filter_options(
        &self,
        customer: CustomerId,
        range: Option<TimeRange>,
        filter: &CostFilter,
    ) -> Result<FilterOptions, EngineError>;

    /// [`CostEngine::spend_in`] without a display currency.
    async fn spend(
        &self,
        customer: CustomerId,
        range: TimeRange,
        filter: &CostFilter,
        metric: Metric,
    ) -> Result<SpendBreakdown, EngineError> {
        self.spend_in(customer, range, filter, metric, None).await
    }

    /// Spend per provider, service and currency with the service categories of its rows, from
    /// the line items.
    async fn service_spend(
        &self,
        customer: CustomerId,
        range: TimeRange,
        filter: &CostFilter,
        metric: Metric,
    ) -> Result<Vec<ServiceSpend>, EngineError>;

    /// Spend in `display` or the tenant's main currency (see [`CurrencyNote`]).
    async fn spend_in(
        &self,
        customer: CustomerId,
        range: TimeRange,
        filter: &CostFilter,
        metric: Metric,
        display: Option<&CurrencyCode>,
    ) -> Result<SpendBreakdown, EngineError>;

    async fn accounts(&self, customer: CustomerId) -> Result<Vec<SeenAccount>, EngineError>;

    /// [`CostEngine::resources_in`] without a display currency.
    async fn resources(
        &self,
        customer: CustomerId,
        query: &ResourcesQuery,
    ) -> Result<ResourcesPage, EngineError> {
        self.resources_in(customer, query, None).await
    }

    /// Spend per resource for the range and filter, one page in the query's order, in `display`
    /// or the tenant's main currency (see [`CurrencyNote`]).
    async fn resources_in(
        &self,
        customer: CustomerId,
        query: &ResourcesQuery,
        display: Option<&CurrencyCode>,
    ) -> Result<ResourcesPage, EngineError>;

    /// Billed cost over `range` of each of `ids` that a line item's resource id equals exactly
    /// (the server asks with both the inventory's resource ids and ARNs), in the tenant's main
    /// currency (another currency's amounts are left out and listed in the note).
    async fn resource_costs(
        &self,
        customer: CustomerId,
        range: TimeRange,
        ids: &[String],
    ) -> Result<ResourceCosts, EngineError>;

    /// Billed cost over `range` of the resource ids that are none of `known_ids` (the
    /// inventory's resource ids and ARNs): the `limit` largest and the totals of all of them.
    async fn unmatched_resource_spend(
        &self,
        customer: CustomerId,
        range: TimeRange,
        known_ids: &[String],
        limit: u32,
    ) -> Result<UnmatchedSpend, EngineError>;

    /// Billed cost of the days `first..=last` per series (or one series' parts) and currency,
    /// for the anomaly scan: rows by group, then day.
    async fn series_costs(
        &self,
        customer: CustomerId,
        query: &SeriesCostsQuery,
    ) -> Result<Vec<SeriesCost>, EngineError>;

    /// Billed cost per currency over all of the tenant's data, largest first.
    async fn data_currencies(
        &self,
        customer: CustomerId,
    ) -> Result<Vec<CurrencyAmount>, EngineError>;

    /// Replaces all of the tenant's exchange rates with `rates`, in one transaction.
    async fn replace_rates(
        &self,
        customer: CustomerId,
        rates: Vec<ExchangeRate>,
    ) -> Result<RatesSummary, EngineError>;

    async fn rates_summary(&self, customer: CustomerId) -> Result<RatesSummary, EngineError>;

    async fn list_rates(
        &self,
        customer: CustomerId,
        limit: u64,
        offset: u64,
    ) -> Result<RatesPage, EngineError>;

    /// Deletes all of the tenant's exchange rates.
    async fn clear_rates(&self, customer: CustomerId) -> Result<(), EngineError>;

    /// Loads an upload, replacing for each provider + billing account + billing period it
    /// contains whatever was loaded before, in one transaction. Runs on a blocking thread.
    async fn load(
        &self,
        customer: CustomerId,
        request: LoadRequest,
    ) -> Result<LoadSummary, LoadError>;

    /// What the engine holds of load `load_id`, from the marker its commit wrote: the customer
    /// it was for and its summary, `None` when it never committed. Read at server start-up to
    /// record the outcome of a load that a crash left recorded as running.
    async fn committed_load(
        &self,
        load_id: &str,
    ) -> Result<Option<(CustomerId, LoadSummary)>, EngineError>;

    /// Whether the customer has any cost rows (the demo uses it to decide whether to load).
    async fn latest_charge_date(
        &self,
        customer: CustomerId,
    ) -> Result<Option<NaiveDate>, EngineError>;

    /// Writes the customer's line items of the request's days to `target` as a FOCUS dataset
    /// (the request's version and file format), streaming; `target` is replaced.
    async fn export_focus(
        &self,
        customer: CustomerId,
        request: &costscope_core::focus::FocusExportRequest,
        target: &std::path::Path,
    ) -> Result<ExportSummary, EngineError>;
}
