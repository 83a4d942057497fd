//! `POST /v2/cost/filters` and `GET /v1/cost/filter-parameters`: the values present in the
//! tenant's cost data, to fill filter pickers.

use std::collections::{BTreeMap, BTreeSet};

use axum::extract::State;
use axum::Json;
use costscope_core::cost::CostFilter;
use costscope_engine::FilterOptions;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::request::{parse_filter_groups, parse_optional_range, FilterGroupDto};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct FilterOptionsRequest {
    /// RFC 3339 or `YYYY-MM-DD`; both dates absent → all data.
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    pub filters: Option<Vec<FilterGroupDto>>,
}

/// Sorted, distinct, non-empty values of the rows in range that match the filters.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, ToSchema)]
pub struct FilterOptionsResponse {
    /// Account / project / subscription ids.
    pub accounts: Vec<String>,
    /// Account id → name, for accounts that have a name.
    pub account_names: BTreeMap<String, String>,
    /// Provider code (`aws`, `gcp`, `azure`) → account ids.
    pub accounts_by_provider: BTreeMap<String, Vec<String>>,
    pub regions: Vec<String>,
    pub services: Vec<String>,
    /// Tag key → values.
    pub tags: BTreeMap<String, Vec<String>>,
    /// Provider codes.
    pub cloud_providers: Vec<String>,
    pub cost_type: Vec<String>,
    pub usage_types: Vec<String>,
    pub warnings: Vec<String>,
}

/// The same lists over all the tenant's data, camel-cased for the budget wizard.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FilterParametersResponse {
    pub accounts: Vec<String>,
    pub account_names: BTreeMap<String, String>,
    pub tags: BTreeMap<String, Vec<String>>,
    pub cloud_providers: Vec<String>,
    pub regions: Vec<String>,
    pub services: Vec<String>,
    pub cost_types: Vec<String>,
}

/// Sorted, distinct, non-blank.
fn clean(values: impl IntoIterator<Item = String>) -> Vec<String> {
    values
        .into_iter()
        .filter(|value| !value.trim().is_empty())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

impl FilterOptionsResponse {
    fn new(options: FilterOptions, warnings: Vec<String>) -> Self {
        let mut account_names = BTreeMap::new();
        let mut accounts_by_provider: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut accounts = Vec::new();
        for account in options.accounts {
            if account.account_id.trim().is_empty() {
                continue;
            }
            if !account.account_name.trim().is_empty() {
                account_names.insert(account.account_id.clone(), account.account_name);
            }
            accounts_by_provider
                .entry(account.provider.code().to_owned())
                .or_default()
                .push(account.account_id.clone());
            accounts.push(account.account_id);
        }
        for ids in accounts_by_provider.values_mut() {
            *ids = clean(std::mem::take(ids));
        }
        Self {
            accounts: clean(accounts),
            account_names,
            accounts_by_provider,
            regions: clean(options.regions),
            services: clean(options.services),
            tags: options
                .tags
                .into_iter()
                .filter(|(key, _)| !key.trim().is_empty())
                .map(|(key, values)| (key, clean(values)))
                .collect(),
            cloud_providers: clean(
                options
                    .cloud_providers
                    .into_iter()
                    .map(|provider| provider.code().to_owned()),
            ),
            cost_type: clean(options.cost_types),
            usage_types: clean(options.usage_types),
            warnings,
        }
    }
}

#[utoipa::path(post, path = "/v2/cost/filters", tag = "cost", security(("bearer" = [])),
    request_body = FilterOptionsRequest,
    responses(
        (status = 200, body = FilterOptionsResponse),
        (status = 400, description = "Unparsable or reversed dates", body = ErrorBody),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 422, description = "Unsupported filter operator", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn filter_options(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<FilterOptionsRequest>,
) -> Result<Json<FilterOptionsResponse>, ApiError> {
    let range = parse_optional_range(
        ("start_date", body.start_date.as_deref()),
        ("end_date", body.end_date.as_deref()),
    )?;
    let mut warnings = Vec::new();
    let filter = CostFilter {
        groups: parse_filter_groups(body.filters, &mut warnings)?,
        cost_type_inclusions: None,
    };
    let options = state
        .engine
        .filter_options(caller.customer_id, range, &filter)
        .await?;
    Ok(Json(FilterOptionsResponse::new(options, warnings)))
}

#[utoipa::path(get, path = "/v1/cost/filter-parameters", tag = "cost", security(("bearer" = [])),
    responses(
        (status = 200, body = FilterParametersResponse),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn filter_parameters(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<FilterParametersResponse>, ApiError> {
    let options = state
        .engine
        .filter_options(caller.customer_id, None, &CostFilter::default())
        .await?;
    let options = FilterOptionsResponse::new(options, Vec::new());
    Ok(Json(FilterParametersResponse {
        accounts: options.accounts,
        account_names: options.account_names,
        tags: options.tags,
        cloud_providers: options.cloud_providers,
        regions: options.regions,
        services: options.services,
        cost_types: options.cost_type,
    }))
}
