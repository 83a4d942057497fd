//! [`CostEngine`] on ClickHouse: each call answered by the engine's own method of the same name
//! (loads, rates, markers, the FOCUS export) or by its [`super::ClickHouseReads`].

use chrono::NaiveDate;
use costscope_core::cost::{
    AggregateQuery, CostFilter, CurrencyCode, ExchangeRate, Metric, TimeRange,
};
use costscope_core::focus::FocusExportRequest;

use super::{export, ClickHouseEngine};
use crate::{
    Aggregate, CostEngine, CurrencyAmount, CustomerId, EngineError, ExportSummary, FilterOptions,
    LoadError, LoadRequest, LoadSummary, RatesPage, RatesSummary, ResourceCosts, ResourcesPage,
    ResourcesQuery, SeenAccount, SeriesCost, SeriesCostsQuery, ServiceSpend, SpendBreakdown,
    UnmatchedSpend,
};

#[async_trait::async_trait]
impl CostEngine for ClickHouseEngine {
    async fn aggregate_in(
        &self,
        customer: CustomerId,
        query: &AggregateQuery,
        display: Option<&CurrencyCode>,
    ) -> Result<Aggregate, EngineError> {
        self.reads().aggregate_in(customer, query, display).await
    }

    async fn filter_options(
        &self,
        customer: CustomerId,
        range: Option<TimeRange>,
        filter: &CostFilter,
    ) -> Result<FilterOptions, EngineError> {
        self.reads().filter_options(customer, range, filter).await
    }

    async fn service_spend(
        &self,
        customer: CustomerId,
        range: TimeRange,
        filter: &CostFilter,
        metric: Metric,
    ) -> Result<Vec<ServiceSpend>, EngineError> {
        self.reads()
            .service_spend(customer, range, filter, metric)
            .await
    }

    async fn spend_in(
        &self,
        customer: CustomerId,
        range: TimeRange,
        filter: &CostFilter,
        metric: Metric,
        display: Option<&CurrencyCode>,
    ) -> Result<SpendBreakdown, EngineError> {
        self.reads()
            .spend_in(customer, range, filter, metric, display)
            .await
    }

    async fn accounts(&self, customer: CustomerId) -> Result<Vec<SeenAccount>, EngineError> {
        self.reads().accounts(customer).await
    }

    async fn resources_in(
        &self,
        customer: CustomerId,
        query: &ResourcesQuery,
        display: Option<&CurrencyCode>,
    ) -> Result<ResourcesPage, EngineError> {
        self.reads().resources_in(customer, query, display).await
    }

    async fn resource_costs(
        &self,
        customer: CustomerId,
        range: TimeRange,
        ids: &[String],
    ) -> Result<ResourceCosts, EngineError> {
        self.reads().resource_costs(customer, range, ids).await
    }

    async fn unmatched_resource_spend(
        &self,
        customer: CustomerId,
        range: TimeRange,
        known_ids: &[String],
        limit: u32,
    ) -> Result<UnmatchedSpend, EngineError> {
        self.reads()
            .unmatched_resource_spend(customer, range, known_ids, limit)
            .await
    }

    async fn series_costs(
        &self,
        customer: CustomerId,
        query: &SeriesCostsQuery,
    ) -> Result<Vec<SeriesCost>, EngineError> {
        self.reads().series_costs(customer, query).await
    }

    async fn data_currencies(
        &self,
        customer: CustomerId,
    ) -> Result<Vec<CurrencyAmount>, EngineError> {
        self.reads().data_currencies(customer).await
    }

    async fn replace_rates(
        &self,
        customer: CustomerId,
        rates: Vec<ExchangeRate>,
    ) -> Result<RatesSummary, EngineError> {
        ClickHouseEngine::replace_rates(self, customer, rates).await
    }

    async fn rates_summary(&self, customer: CustomerId) -> Result<RatesSummary, EngineError> {
        ClickHouseEngine::rates_summary(self, customer).await
    }

    async fn list_rates(
        &self,
        customer: CustomerId,
        limit: u64,
        offset: u64,
    ) -> Result<RatesPage, EngineError> {
        ClickHouseEngine::list_rates(self, customer, limit, offset).await
    }

    async fn clear_rates(&self, customer: CustomerId) -> Result<(), EngineError> {
        ClickHouseEngine::clear_rates(self, customer).await
    }

    async fn load(
        &self,
        customer: CustomerId,
        request: LoadRequest,
    ) -> Result<LoadSummary, LoadError> {
        ClickHouseEngine::load(self, customer, request).await
    }

    async fn committed_load(
        &self,
        load_id: &str,
    ) -> Result<Option<(CustomerId, LoadSummary)>, EngineError> {
        ClickHouseEngine::committed_load(self, load_id).await
    }

    async fn latest_charge_date(
        &self,
        customer: CustomerId,
    ) -> Result<Option<NaiveDate>, EngineError> {
        ClickHouseEngine::latest_charge_date(self, customer).await
    }

    async fn export_focus(
        &self,
        customer: CustomerId,
        request: &FocusExportRequest,
        target: &std::path::Path,
    ) -> Result<ExportSummary, EngineError> {
        export::export_focus(self, customer, request, target).await
    }
}
