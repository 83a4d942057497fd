//! Request bodies → a validated [`ResourceQuery`] through core's parsing
//! (`costscope_core::inventory::query`): every broken field is named in one 422.

use chrono::{DateTime, Utc};
use costscope_core::cost::TimeRange;
use costscope_core::inventory::query::{
    messages, parse_account_ids, parse_count, parse_created_before, parse_offset,
    parse_param_conditions, parse_regions, parse_resource_ids, parse_resource_types, parse_search,
    parse_tag_conditions, parse_window,
};
use costscope_core::inventory::{ResourceOrder, ResourceQuery, ResourceState};
use costscope_core::FieldError;

use super::dto::{CostPeriod, ResourceRequest};
use crate::http::error::ApiError;

/// 2100-12-31T23:59:59Z: the latest window bound accepted.
pub const LATEST_TIME: i64 = 4_133_980_799;

/// A valid inventory request: the query and the window that is also the cost period.
#[derive(Debug, Clone)]
pub struct ValidRequest {
    pub query: ResourceQuery,
    pub window: Window,
}

/// The time-duration picker's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

impl Window {
    /// From `start_time` / `end_time` (UNIX seconds): default the last 30 days, at most 900 days
    /// back.
    pub fn parse(
        start_time: Option<i64>,
        end_time: Option<i64>,
        now: DateTime<Utc>,
    ) -> Result<Self, FieldError> {
        // Times outside 1970–2100 are refused like every cost call's days (no date arithmetic
        // at the edges of the calendar).
        if start_time.is_some_and(|secs| !(0..=LATEST_TIME).contains(&secs)) {
            return Err(FieldError::new("start_time", messages::START_TIME));
        }
        if end_time.is_some_and(|secs| !(0..=LATEST_TIME).contains(&secs)) {
            return Err(FieldError::new("end_time", messages::END_TIME));
        }
        let (start, end) = parse_window(start_time, end_time, now)?;
        Ok(Self { start, end })
    }

    pub fn range(&self) -> TimeRange {
        TimeRange::new(self.start, self.end).expect("a parsed window starts before it ends")
    }

    pub fn period(&self) -> CostPeriod {
        CostPeriod {
            start_time: self.start.timestamp(),
            end_time: self.end.timestamp(),
        }
    }
}

/// Keeps the value, or records the error.
fn check<T>(errors: &mut Vec<FieldError>, result: Result<T, FieldError>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) => {
            errors.push(error);
            None
        }
    }
}

/// The body of `POST /v1/resource` (and its export) as a query; `count` defaults to
/// `default_count` (200 for a page, the most for the export).
pub fn resource_query(
    body: &ResourceRequest,
    now: DateTime<Utc>,
    default_count: u32,
) -> Result<ValidRequest, ApiError> {
    let mut errors = Vec::new();
    let account_ids = check(&mut errors, parse_account_ids(&body.account_ids));
    let regions = check(&mut errors, parse_regions(&body.regions));
    let resource_types = check(&mut errors, parse_resource_types(&body.resource_types));
    let d_time = check(&mut errors, body.d_time.unwrap_or_default().parse());
    let created_before = check(
        &mut errors,
        parse_created_before(body.c_time.and_then(|c| c.lt)),
    );
    let window = check(
        &mut errors,
        Window::parse(body.start_time, body.end_time, now),
    );
    let resource_ids = check(&mut errors, parse_resource_ids(&body.resource_ids));
    let search = check(&mut errors, parse_search(body.search.as_deref()));
    let params = check(&mut errors, parse_param_conditions(&body.resource_params));
    let tags = check(&mut errors, parse_tag_conditions(&body.tag));
    let count = check(
        &mut errors,
        match body.count {
            None => Ok(default_count),
            some => parse_count(some),
        },
    );
    let offset = check(&mut errors, parse_offset(body.offset));
    let order_by = check(&mut errors, ResourceOrder::parse(body.order_by.as_deref()));
    match (
        account_ids,
        regions,
        resource_types,
        d_time,
        created_before,
        window,
        resource_ids,
        search,
        params,
        tags,
        count,
        offset,
        order_by,
    ) {
        (
            Some(account_ids),
            Some(regions),
            Some(resource_types),
            Some((state, deleted_before)),
            Some(created_before),
            Some(window),
            Some(resource_ids),
            Some(search),
            Some(params),
            Some(tags),
            Some(count),
            Some(offset),
            Some(order_by),
        ) if errors.is_empty() => Ok(ValidRequest {
            query: ResourceQuery {
                account_ids,
                regions,
                resource_types,
                state,
                deleted_before,
                created_before,
                window_start: Some(window.start),
                window_end: Some(window.end),
                resource_ids,
                search,
                params,
                tags,
                not_tagged: body.not_tagged,
                count,
                offset,
                order_by,
                order_desc: body.order_desc.unwrap_or(true),
            },
            window,
        }),
        _ => Err(ApiError::Validation(errors)),
    }
}

/// A query of every resource of `account_ids` in `state` (the counts of the stats).
pub fn all_of(account_ids: Vec<String>, state: ResourceState) -> ResourceQuery {
    ResourceQuery {
        account_ids,
        state,
        count: 1,
        order_desc: true,
        ..ResourceQuery::default()
    }
}

/// `account_ids` of a body, or the 422 naming it.
pub fn account_ids(items: &[String]) -> Result<Vec<String>, ApiError> {
    parse_account_ids(items).map_err(ApiError::from)
}
