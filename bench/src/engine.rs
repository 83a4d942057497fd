//! The same questions asked of a Costscope cost engine in-process (no HTTP), DuckDB's or
//! ClickHouse's through the one `CostEngine` trait: HTTP minus this is what the server adds (routing, auth,
//! JSON); this minus raw DuckDB is what the engine's SQL adds over the hand-written SQL. The
//! last answer of each question is kept, so that the two engines' answers can be compared.

use std::time::Instant;

use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::cost::bounds::{self, GroupPage};
use costscope_core::cost::{
    AggregateQuery, CostFilter, Dimension, FilterGroup, GroupJoin, Interval, MatchOperator, Metric,
    TimeRange, ValueCondition,
};
use costscope_engine::{Aggregate, CostEngine, CustomerId, EngineError, FilterOptions};

use crate::report::Timings;
use crate::side_by_side::{Answer, Answered};
use crate::{Args, Question, GROUP1_REGIONS, GROUP2_SERVICES};

/// An engine's answer to one question.
enum Reply {
    Aggregate(Aggregate),
    Options(FilterOptions),
}

impl Reply {
    /// The answer's row count (what the report shows) and what is compared between engines.
    /// Made after the timed calls: formatting is no part of the engine's time.
    fn compared(&self) -> (usize, Answer) {
        match self {
            Reply::Aggregate(answer) => (
                answer.rows.len(),
                Answer {
                    total: answer.total,
                    text: format!("{answer:?}"),
                },
            ),
            Reply::Options(options) => (
                options.services.len(),
                Answer {
                    total: options.services.len() as f64,
                    text: format!("{options:?}"),
                },
            ),
        }
    }
}

async fn ask(
    engine: &dyn CostEngine,
    customer: CustomerId,
    question: Question,
) -> Result<Reply, EngineError> {
    let range = range(question);
    let filter = filter(question);
    Ok(match question {
        Question::FilterOptions => Reply::Options(
            engine
                .filter_options(customer, Some(range), &filter)
                .await?,
        ),
        _ => Reply::Aggregate(
            engine
                .aggregate(customer, &aggregate(question, range, &filter))
                .await?,
        ),
    })
}

/// Every question, warm-up runs first, then the timed ones.
pub async fn run(
    engine: &dyn CostEngine,
    customer: CustomerId,
    args: &Args,
) -> anyhow::Result<Vec<Answered>> {
    let mut all = Vec::new();
    for question in Question::ALL {
        for _ in 0..args.warmups {
            ask(engine, customer, question).await?;
        }
        let mut samples = Vec::with_capacity(args.runs);
        let mut last = None;
        for _ in 0..args.runs {
            let started = Instant::now();
            let reply = ask(engine, customer, question).await?;
            samples.push(started.elapsed());
            last = Some(reply);
        }
        let reply = last.ok_or_else(|| anyhow::anyhow!("--runs must be at least 1"))?;
        let (rows, answer) = reply.compared();
        all.push(Answered {
            timings: Timings::new(samples, rows),
            answer,
        });
    }
    Ok(all)
}

/// The closed range of whole days of `question`, from its first to its last millisecond.
pub fn range(question: Question) -> TimeRange {
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
