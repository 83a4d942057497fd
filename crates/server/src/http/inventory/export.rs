//! `POST /v1/resource/export`: the inventory's Export to CSV (spec 1 §2.7), with the filters of
//! `POST /v1/resource`, every cell escaped by the spec's CSV rule (spec 1 §5).

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, SecondsFormat, Utc};
use costscope_core::inventory::MAX_RESOURCE_COUNT;

use super::dto::ResourceRequest;
use super::params::resource_query;
use super::resources::page;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

pub const COLUMNS: [&str; 9] = [
    "Resource ID",
    "Resource Type",
    "Region",
    "AWS Account",
    "First Scan Time",
    "State",
    "Deletion Time",
    "Cost",
    "Tags",
];

/// One CSV cell (spec 1 §5): control characters stripped, a cell starting with `=`, `+`, `-`
/// or `@` neutralised with a leading `'` (no spreadsheet formula), quotes doubled, and the
/// cell quoted when it holds a comma, a quote or nothing safe otherwise.
pub fn csv_cell(text: &str) -> String {
    let mut cell: String = text.chars().filter(|c| !c.is_control()).collect();
    if cell.starts_with(['=', '+', '-', '@']) {
        cell.insert(0, '\'');
    }
    if cell.contains([',', '"']) || cell.starts_with(' ') || cell.ends_with(' ') {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell
    }
}

fn time(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn line(cells: &[String]) -> String {
    let mut line = cells.join(",");
    line.push_str("\r\n");
    line
}

/// The CSV file of the resources matching the filters (up to 10000; `count` and `offset` as
/// for the list), in the list's order. Cost: billed cost over the window, empty when no line
/// item names the resource. Tags: `key=value` pairs joined by `; `.
#[utoipa::path(post, path = "/v1/resource/export", tag = "inventory", security(("bearer" = [])),
    request_body = ResourceRequest,
    responses(
        (status = 200, description = "The CSV file (attachment)", content_type = "text/csv", body = String),
        (status = 422, description = "A filter is broken (the field is named)", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn export(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<ResourceRequest>,
) -> Result<Response, ApiError> {
    let now = state.clock.now();
    let valid = resource_query(&body, now, MAX_RESOURCE_COUNT)?;
    let answer = page(&state, caller.customer_id, &valid.query, &valid.window).await?;
    let mut csv = line(&COLUMNS.map(str::to_owned));
    for resource in &answer.resources {
        let tags: Vec<String> = resource
            .tags
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        let at = |secs: i64| {
            DateTime::from_timestamp(secs, 0)
                .map(time)
                .unwrap_or_default()
        };
        let cells = [
            csv_cell(&resource.resource_id),
            csv_cell(&resource.resource_type),
            csv_cell(&resource.region),
            csv_cell(&resource.account_id),
            at(resource.c_time),
            if resource.d_time == 0 {
                "Live"
            } else {
                "Deleted"
            }
            .to_owned(),
            if resource.d_time == 0 {
                String::new()
            } else {
                at(resource.d_time)
            },
            // A number we format (never a formula): written as it is, negative or not.
            resource
                .cost
                .map(|cost| format!("{cost:.2}"))
                .unwrap_or_default(),
            csv_cell(&tags.join("; ")),
        ];
        csv.push_str(&line(&cells));
    }
    let mut response = csv.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    let disposition = format!(
        "attachment; filename=\"resources-{}.csv\"",
        now.format("%Y-%m-%d")
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&disposition)
            .map_err(|error| ApiError::Internal(anyhow::Error::new(error)))?,
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::csv_cell;

    #[test]
    fn cells_are_neutralised_stripped_and_quoted() {
        assert_eq!(csv_cell("i-0abc"), "i-0abc");
        assert_eq!(csv_cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_cell("+1"), "'+1");
        assert_eq!(csv_cell("-1"), "'-1");
        assert_eq!(csv_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_cell("line\r\nbreak\ttab"), "linebreaktab");
        assert_eq!(csv_cell("\n=1"), "'=1");
        assert_eq!(csv_cell(""), "");
    }
}
