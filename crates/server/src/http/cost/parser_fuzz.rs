//! A bounded proptest of the cost request parsers (256 cases per parser, a few seconds): random
//! request JSON with signed, huge and far-future years, empty and long lists and huge numbers
//! never panics; what is refused is a 4xx; what is accepted stays inside every bound of
//! `costscope_core::cost::bounds` (and its date arithmetic cannot overflow).

use axum::response::IntoResponse;
use chrono::{TimeZone, Utc};
use costscope_core::cost::bounds::{self, GroupPage, MAX_ANSWER_ROWS};
use costscope_core::cost::{CostFilter, Interval};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

use super::aggr::{AggregatePlan, AggregateRequest};
use super::query::QueryRequest;
use super::request::{parse_filter_groups, parse_optional_range, FilterGroupDto};
use crate::http::error::ApiError;

fn date_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (1900i64..2200, 1u32..13, 1u32..29).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}")),
        (-300_000i64..300_000).prop_map(|y| format!("{y}-01-01")),
        Just("1000000000000-01-01".to_owned()),
        Just("+275760-09-13T00:00:00Z".to_owned()),
        Just("-262143-01-01".to_owned()),
        Just("262143-12-31".to_owned()),
        Just("2026-02-30".to_owned()),
        Just("".to_owned()),
        ".{0,12}",
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        Just(json!(1e300)),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(u64::MAX)),
        ".{0,8}".prop_map(Value::String),
        date_text().prop_map(Value::String),
    ]
}

fn strings(max: usize) -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::collection::vec(".{0,6}", 0..max).prop_map(|values| json!(values)),
        (0usize..3_000).prop_map(|count| json!(vec!["v"; count])),
        ".{0,6}".prop_map(Value::String),
    ]
}

fn condition() -> impl Strategy<Value = Value> {
    (
        prop_oneof![
            Just(json!("in")),
            Just(json!("equals")),
            Just(json!("not_in")),
            Just(json!("contains")),
            scalar()
        ],
        strings(8),
    )
        .prop_map(|(operator, values)| json!({"operator": operator, "values": values}))
}

fn group() -> impl Strategy<Value = Value> {
    (
        prop_oneof![Just(json!("AND")), Just(json!("or")), scalar()],
        prop::collection::vec(condition(), 0..4),
        prop::collection::vec(condition(), 0..30),
        prop::collection::vec((".{0,4}", condition()), 0..4),
    )
        .prop_map(|(operator, regions, services, tags)| {
            let tags: Vec<Value> = tags
                .into_iter()
                .map(|(key, value)| json!({"key": key, "value": value}))
                .collect();
            json!({"operator": operator, "regions": regions, "services": services, "tags": tags})
        })
}

fn filters() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(json!([])),
        prop::collection::vec(group(), 0..4).prop_map(Value::Array),
        (0usize..40).prop_map(|count| json!(vec![json!({}); count])),
    ]
}

/// A cost request body: each field present or not, with a plausible or hostile value.
fn body() -> impl Strategy<Value = Value> {
    let dimensions = prop::collection::vec(
        prop_oneof![
            Just("service".to_owned()),
            Just("account".to_owned()),
            Just("region".to_owned()),
            Just("usage_type".to_owned()),
            Just("none".to_owned()),
            ".{0,6}"
        ],
        0..60,
    );
    (
        (date_text(), date_text(), any::<bool>()),
        filters(),
        (dimensions, any::<bool>()),
        (
            prop_oneof![Just(json!("daily")), Just(json!("monthly")), scalar()],
            prop_oneof![Just(json!("cumulative")), Just(json!("weekly")), scalar()],
        ),
        (scalar(), scalar(), strings(60)),
    )
        .prop_map(
            |(
                (start, end, with_dates),
                filters,
                (dimensions, hierarchy),
                (interval, view),
                (limit, offset, inclusions),
            )| {
                let mut body = Map::new();
                if with_dates {
                    body.insert("start_time".to_owned(), json!(start));
                    body.insert("end_time".to_owned(), json!(end));
                    body.insert("start_date".to_owned(), json!(start));
                    body.insert("end_date".to_owned(), json!(end));
                }
                body.insert("filters".to_owned(), filters);
                body.insert("group_by_dimensions".to_owned(), json!(dimensions));
                body.insert("group_by".to_owned(), json!(dimensions));
                body.insert("group_by_hierarchy".to_owned(), json!(hierarchy));
                body.insert("interval".to_owned(), interval);
                body.insert("view_type".to_owned(), view);
                body.insert("limit".to_owned(), limit);
                body.insert("offset".to_owned(), offset);
                body.insert("cost_type".to_owned(), json!({ "inclusions": inclusions }));
                Value::Object(body)
            },
        )
}

/// A refusal is a 4xx.
fn assert_client_error(error: ApiError) -> Result<(), TestCaseError> {
    let status = error.into_response().status();
    prop_assert!(status.is_client_error(), "answered {status}");
    Ok(())
}

/// An accepted plan stays inside every bound, and its date arithmetic holds.
fn assert_bounded(plan: &AggregatePlan) -> Result<(), TestCaseError> {
    let query = &plan.query;
    prop_assert!(bounds::check_range(&query.range, "start_time", "end_time").is_ok());
    let previous = query.range.previous();
    prop_assert!(previous.end() < query.range.start());
    prop_assert!(query.dimensions.len() <= 4);
    assert_filter_bounded(&query.filter)?;
    let interval = query
        .interval
        .or(query.cumulative.then_some(Interval::Daily));
    let page = GroupPage::new(query.limit, bounds::bucket_count(&query.range, interval));
    prop_assert!(u64::from(page.limit) * page.buckets.max(1) <= MAX_ANSWER_ROWS);
    Ok(())
}

fn assert_filter_bounded(filter: &CostFilter) -> Result<(), TestCaseError> {
    let mut count = bounds::FilterValueCount::default();
    prop_assert!(count.add_groups(&filter.groups).is_ok());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn aggregate_requests_never_panic_and_refuse_with_a_4xx(body in body()) {
        // A body serde refuses is the extractor's 422, not the parser's concern.
        if let Ok(request) = serde_json::from_value::<AggregateRequest>(body) {
            match request.into_plan() {
                Ok(plan) => assert_bounded(&plan)?,
                Err(error) => assert_client_error(error)?,
            }
        }
    }

    #[test]
    fn advanced_queries_never_panic_and_refuse_with_a_4xx(body in body()) {
        let now = Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap();
        if let Ok(request) = serde_json::from_value::<QueryRequest>(body) {
            match request.into_plan(now) {
                Ok(plan) => assert_bounded(&plan.aggregate)?,
                Err(error) => assert_client_error(error)?,
            }
        }
    }

    #[test]
    fn filter_option_requests_never_panic_and_refuse_with_a_4xx(body in body()) {
        let text = |name: &str| body.get(name).and_then(Value::as_str).map(str::to_owned);
        let range = parse_optional_range(
            ("start_date", text("start_date").as_deref()),
            ("end_date", text("end_date").as_deref()),
        );
        match range {
            Ok(Some(range)) => {
                prop_assert!(bounds::check_range(&range, "start_date", "end_date").is_ok());
            }
            Ok(None) => {}
            Err(error) => assert_client_error(error)?,
        }
        let groups = serde_json::from_value::<Option<Vec<FilterGroupDto>>>(body["filters"].clone());
        if let Ok(groups) = groups {
            let mut warnings = Vec::new();
            match parse_filter_groups(groups, &mut warnings) {
                Ok(groups) => assert_filter_bounded(&CostFilter { groups, cost_type_inclusions: None })?,
                Err(error) => assert_client_error(error)?,
            }
        }
    }
}
