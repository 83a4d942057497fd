//! `GET /v1/budgets/{id}/resources`: the budget's spend per resource over a range, paged.

use axum::extract::{Path, Query, State};
use axum::Json;
use costscope_core::budget::{ResourcesQuery as ResourcesInput, ResourcesRequest, SortDirection};
use costscope_core::cost::Metric;
use costscope_core::FieldError;
use costscope_engine::{ResourceSort, ResourceSpend, ResourcesQuery};

use super::dto::{BudgetResource, BudgetResourcesResponse, ResourcesPagination, ResourcesParams};
use super::find_budget;
use crate::budgets::filter::cost_filter;
use crate::budgets::standing::days;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::AuthUser;
use crate::state::AppState;

pub const SORT_FIELD_MESSAGE: &str =
    "Sort field must be one of cost, resourceName, resourceType, region, accountId, cloudProvider";

fn parse_sort(text: Option<&str>) -> Result<ResourceSort, FieldError> {
    Ok(match text.map(str::trim).unwrap_or_default() {
        "" | "cost" => ResourceSort::Cost,
        "resourceName" => ResourceSort::ResourceName,
        "resourceType" => ResourceSort::ResourceType,
        "region" => ResourceSort::Region,
        "accountId" => ResourceSort::AccountId,
        "cloudProvider" => ResourceSort::CloudProvider,
        _ => {
            return Err(FieldError {
                field: "sortBy",
                message: SORT_FIELD_MESSAGE,
            })
        }
    })
}

/// A number as sent; text that is not one reads as 0, which each rule then refuses with its
/// own message.
fn number(text: Option<&str>) -> Option<i64> {
    text.map(|text| text.trim().parse().unwrap_or(0))
}

impl From<ResourceSpend> for BudgetResource {
    fn from(row: ResourceSpend) -> Self {
        Self {
            cloud_provider: row.provider.display_name().to_owned(),
            account_id: row.account_id,
            account_name: row.account_name,
            resource_id: row.resource_id,
            resource_name: row.resource_name,
            resource_type: row.resource_type,
            region: row.region,
            service: row.service,
            cost: row.cost,
        }
    }
}

#[utoipa::path(get, path = "/v1/budgets/{id}/resources", tag = "budgets", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Budget id"), ResourcesParams),
    responses(
        (status = 200, body = BudgetResourcesResponse),
        (status = 404, description = "No budget found.", body = ErrorBody),
        (status = 422, description = "Spec 2 §5 Resources request rules", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, budget_id))]
pub async fn resources(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(budget_id): Path<i64>,
    Query(params): Query<ResourcesParams>,
) -> Result<Json<BudgetResourcesResponse>, ApiError> {
    let budget = find_budget(&state, &caller, budget_id).await?;
    let budget_id_text = budget.id.to_string();
    let request = ResourcesRequest::parse(
        ResourcesInput {
            budget_id: &budget_id_text,
            start_date: params.start_date.as_deref(),
            end_date: params.end_date.as_deref(),
            page: number(params.page.as_deref()),
            page_size: number(params.size.as_deref()),
            sort_direction: params.sort_direction.as_deref(),
        },
        state.clock.now().date_naive(),
    )?;
    let sort = parse_sort(params.sort_by.as_deref())?;
    let query = ResourcesQuery {
        range: days(request.range.start(), request.range.end()),
        filter: cost_filter(&budget.filters),
        metric: Metric::Billed,
        sort,
        ascending: request.sort_direction == SortDirection::Asc,
        limit: request.page_size,
        offset: request.offset(),
    };
    let display = crate::http::currency::display_currency(&state, caller.customer_id).await?;
    let page = state
        .engine
        .resources_in(caller.customer_id, &query, display.as_ref())
        .await?;
    let currency = crate::http::currency::CurrencyPart::from_note(&page.currency);
    let resources: Vec<BudgetResource> = page.rows.into_iter().map(Into::into).collect();
    Ok(Json(BudgetResourcesResponse {
        budget_id: budget.id,
        budget_name: budget.name.as_str().to_owned(),
        count: resources.len(),
        resources,
        pagination: ResourcesPagination {
            page: request.page,
            size: request.page_size,
            total_pages: page.total_count.div_ceil(request.page_size),
            total_count: page.total_count,
        },
        total_items: page.total_count,
        currency,
        total: page.total_count,
        resources_cost: page.resources_cost,
        total_cost: page.total_cost,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_fields_are_the_documented_names() {
        assert_eq!(parse_sort(None).unwrap(), ResourceSort::Cost);
        assert_eq!(parse_sort(Some("region")).unwrap(), ResourceSort::Region);
        assert_eq!(
            parse_sort(Some("name")).unwrap_err().message,
            SORT_FIELD_MESSAGE
        );
    }

    #[test]
    fn text_that_is_not_a_number_reads_as_zero() {
        assert_eq!(number(Some("abc")), Some(0));
        assert_eq!(number(Some(" 3 ")), Some(3));
        assert_eq!(number(None), None);
    }
}
