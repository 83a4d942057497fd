//! The same questions asked of Costscope's cost engine in-process (`DuckDbEngine`, no HTTP):
//! HTTP minus this is what the server adds (routing, auth, JSON); this minus raw DuckDB is what
//! the engine's SQL adds over the hand-written SQL.

use std::time::Instant;

use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::cost::bounds::{self, GroupPage};
use costscope_core::cost::{
    AggregateQuery, CostFilter, Dimension, FilterGroup, GroupJoin, Interval, MatchOperator, Metric,
    TimeRange, ValueCondition,
};
use costscope_engine::{CostEngine, DuckDbEngine};

use crate::ingest::IngestResult;
use crate::report::Timings;
use crate::{Args, Question, GROUP1_REGIONS, GROUP2_SERVICES};

pub async fn run(ingest: &IngestResult, args: &Args) -> anyhow::Result<Vec<Timings>> {
    let engine = DuckDbEngine::open(&ingest.cost_database())?;
    let customer = ingest.customer_id;
    let mut all = Vec::new();
    for question in Question::ALL {
        let range = range(question);
        let filter = filter(question);
        let answer = || async {
            anyhow::Ok(match question {
                Question::FilterOptions => {
                    let options = engine
                        .filter_options(customer, Some(range), &filter)
                        .await?;
                    options.services.len()
                }
                _ => engine
                    .aggregate(customer, &aggregate(question, range, &filter))
                    .await?
                    .rows
                    .len(),
            })
        };
        for _ in 0..args.warmups {
            answer().await?;
        }
        let (mut samples, mut rows) = (Vec::with_capacity(args.runs), 0);
        for _ in 0..args.runs {
            let started = Instant::now();
            rows = answer().await?;
            samples.push(started.elapsed());
        }
        all.push(Timings::new(samples, rows));
    }
    Ok(all)
}

fn range(question: Question) -> TimeRange {
    let (first, last) = question.days();
    let at = |day: &str, h, m, s, ms| -> DateTime<Utc> {
        let date = NaiveDate::parse_from_str(day, "%Y-%m-%d").expect("a date");
        date.and_hms_milli_opt(h, m, s, ms)
            .expect("a time")
            .and_utc()
    };
    TimeRange::new(at(first, 0, 0, 0, 0), at(last, 23, 59, 59, 999)).expect("a range")
}

fn filter(question: Question) -> CostFilter {
    if question != Question::MonthByDayServiceAccount {
        return CostFilter::default();
    }
    let is = |operator, values: &[&str]| ValueCondition {
        operator,
        values: values.iter().map(|v| (*v).to_owned()).collect(),
    };
    CostFilter {
        groups: vec![
            FilterGroup {
                join: GroupJoin::And,
                cloud_providers: vec![is(MatchOperator::Equals, &["aws"])],
                regions: vec![is(MatchOperator::In, &GROUP1_REGIONS)],
                ..FilterGroup::default()
            },
            FilterGroup {
                join: GroupJoin::Or,
                cloud_providers: vec![is(MatchOperator::Equals, &["gcp"])],
                services: vec![is(MatchOperator::In, &GROUP2_SERVICES)],
                ..FilterGroup::default()
            },
        ],
        cost_type_inclusions: None,
    }
}

fn aggregate(question: Question, range: TimeRange, filter: &CostFilter) -> AggregateQuery {
    let (dimensions, interval) = match question {
        Question::YearByMonthService => (vec![Dimension::Service], Interval::Monthly),
        Question::MonthByDayFourDimensions => (
            vec![
                Dimension::Service,
                Dimension::Account,
                Dimension::Region,
                Dimension::CostType,
            ],
            Interval::Daily,
        ),
        _ => (
            vec![Dimension::Service, Dimension::Account],
            Interval::Daily,
        ),
    };
    // The page of groups `/v2/cost/aggr` asks for when the request names no limit.
    let page = GroupPage::new(None, bounds::bucket_count(&range, Some(interval)));
    AggregateQuery {
        range,
        filter: filter.clone(),
        dimensions,
        interval: Some(interval),
        cumulative: false,
        metric: Metric::Billed,
        limit: Some(page.limit),
        offset: 0,
        ascending: false,
    }
}
