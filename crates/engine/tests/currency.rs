//! Multi-currency answers (docs/CURRENCY.md): conversion with the tenant's rates, exact to the
//! cent against figures computed here by hand, and amounts that cannot be converted listed apart.

mod support;

use costscope_core::cost::{parse_rates_csv, CurrencyCode, Dimension, Interval, Metric};
use costscope_engine::{CostEngine, CurrencyAmount, DuckDbEngine, ResourceSort, ResourcesQuery};
use support::*;

const CUSTOMER: i64 = 1;
const OTHER: i64 = 2;

fn code(text: &str) -> CurrencyCode {
    text.parse().unwrap()
}

async fn rates(engine: &DuckDbEngine, customer: i64, csv: &str) {
    engine
        .replace_rates(customer, parse_rates_csv(csv.as_bytes()).unwrap())
        .await
        .unwrap();
}

/// 100 EUR on Jan 1 and 50 EUR on Jan 2, 30 USD on Jan 2 and 7 GBP on Jan 3.
async fn two_currency_engine() -> DuckDbEngine {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(
        &engine,
        CUSTOMER,
        vec![
            Line::new("2026-01-01", "100")
                .currency("EUR")
                .account("r-1", ""),
            Line::new("2026-01-02", "50")
                .currency("EUR")
                .account("r-1", ""),
            Line::new("2026-01-02", "30")
                .service("AmazonS3")
                .account("r-2", ""),
            Line::new("2026-01-03", "7")
                .currency("GBP")
                .account("r-3", ""),
        ],
    )
    .await;
    engine
}

#[tokio::test]
async fn converted_totals_are_exact_to_the_cent() {
    let engine = two_currency_engine().await;
    // EUR→USD 1.10 from Jan 1, 1.20 from Jan 2; GBP only as USD→GBP (inverted: 1 / 0.8).
    rates(
        &engine,
        CUSTOMER,
        "date,from,to,rate\n2026-01-01,EUR,USD,1.10\n2026-01-02,EUR,USD,1.20\n2025-12-01,USD,GBP,0.8\n",
    )
    .await;
    let usd = code("USD");
    let answer = engine
        .aggregate_in(
            CUSTOMER,
            &query(days("2026-01-01", "2026-01-31")),
            Some(&usd),
        )
        .await
        .unwrap();
    // 100 × 1.10 + 50 × 1.20 + 30 + 7 / 0.8 = 110 + 60 + 30 + 8.75 = 208.75
    assert_eq!(round(answer.total), 208.75);
    assert_eq!(answer.currency, "USD");
    assert!(answer.converted);
    assert!(answer.other_currencies.is_empty());

    let daily = engine
        .aggregate_in(
            CUSTOMER,
            &grouped(days("2026-01-01", "2026-01-03"), &[], Some(Interval::Daily)),
            Some(&usd),
        )
        .await
        .unwrap();
    let per_day: Vec<f64> = daily.rows.iter().map(|row| round(row.amount)).collect();
    assert_eq!(per_day, vec![110.0, 90.0, 8.75]);

    let spend = engine
        .spend_in(
            CUSTOMER,
            days("2026-01-01", "2026-01-02"),
            &Default::default(),
            Metric::Billed,
            Some(&usd),
        )
        .await
        .unwrap();
    // 100 EUR on day 1 at 1.10 and 50 EUR on day 2 at 1.20 → 170.00 USD, with 30 USD: 200.
    assert_eq!(round(spend.total), 200.0);
    assert_eq!(spend.currency.currency, "USD");
    assert!(spend.currency.converted);
}

#[tokio::test]
async fn without_a_display_currency_other_currencies_are_listed_not_added() {
    let engine = two_currency_engine().await;
    rates(
        &engine,
        CUSTOMER,
        "date,from,to,rate\n2026-01-01,EUR,USD,1.10\n",
    )
    .await;
    // Main currency: EUR (150 billed, against 30 USD and 7 GBP).
    let answer = engine
        .aggregate(CUSTOMER, &query(days("2026-01-01", "2026-01-31")))
        .await
        .unwrap();
    assert_eq!(answer.currency, "EUR");
    assert_eq!(answer.total, 150.0);
    assert!(!answer.converted);
    assert_eq!(
        answer.other_currencies,
        vec![
            CurrencyAmount {
                currency: "GBP".into(),
                amount: 7.0
            },
            CurrencyAmount {
                currency: "USD".into(),
                amount: 30.0
            },
        ]
    );
    let currencies = engine.data_currencies(CUSTOMER).await.unwrap();
    assert_eq!(
        currencies
            .iter()
            .map(|item| (item.currency.as_str(), item.amount))
            .collect::<Vec<_>>(),
        vec![("EUR", 150.0), ("USD", 30.0), ("GBP", 7.0)]
    );
}

#[tokio::test]
async fn a_currency_without_a_rate_is_left_out_and_a_later_rate_covers_earlier_days() {
    let engine = two_currency_engine().await;
    // Only a rate dated after every charge: the earliest one after is used.
    rates(
        &engine,
        CUSTOMER,
        "date,from,to,rate\n2026-06-01,EUR,USD,2\n",
    )
    .await;
    let usd = code("USD");
    let answer = engine
        .aggregate_in(
            CUSTOMER,
            &grouped(
                days("2026-01-01", "2026-01-31"),
                &[Dimension::Service],
                None,
            ),
            Some(&usd),
        )
        .await
        .unwrap();
    assert_eq!(round(answer.total), 330.0); // 150 × 2 + 30
    assert_eq!(
        answer.other_currencies,
        vec![CurrencyAmount {
            currency: "GBP".into(),
            amount: 7.0
        }]
    );
    let resources = engine
        .resources_in(
            CUSTOMER,
            &ResourcesQuery {
                range: days("2026-01-01", "2026-01-31"),
                filter: Default::default(),
                metric: Metric::Billed,
                sort: ResourceSort::Cost,
                ascending: false,
                limit: 10,
                offset: 0,
            },
            Some(&usd),
        )
        .await
        .unwrap();
    assert_eq!(resources.rows.len(), 2);
    assert_eq!(resources.rows[0].account_id, "r-1");
    assert_eq!(round(resources.rows[0].cost), 300.0);
    assert_eq!(round(resources.total_cost), 330.0);
    assert_eq!(resources.currency.other_currencies.len(), 1);
    assert!(resources.currency.converted);
}

#[tokio::test]
async fn another_tenants_rates_never_convert_mine() {
    let engine = two_currency_engine().await;
    rates(
        &engine,
        OTHER,
        "date,from,to,rate\n2026-01-01,EUR,USD,1.10\n",
    )
    .await;
    let usd = code("USD");
    let answer = engine
        .aggregate_in(
            CUSTOMER,
            &query(days("2026-01-01", "2026-01-31")),
            Some(&usd),
        )
        .await
        .unwrap();
    assert_eq!(answer.total, 30.0);
    assert!(!answer.converted);
    assert_eq!(answer.other_currencies.len(), 2);
    assert_eq!(engine.rates_summary(CUSTOMER).await.unwrap().count, 0);
    assert_eq!(engine.rates_summary(OTHER).await.unwrap().count, 1);
}

#[tokio::test]
async fn a_single_currency_tenant_is_converted_only_to_another_display_currency() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(
        &engine,
        CUSTOMER,
        vec![Line::new("2026-01-01", "10"), Line::new("2026-01-05", "20")],
    )
    .await;
    let range = days("2026-01-01", "2026-01-31");
    let plain = engine.aggregate(CUSTOMER, &query(range)).await.unwrap();
    assert_eq!((plain.total, plain.currency.as_str()), (30.0, "USD"));
    assert!(!plain.converted && plain.other_currencies.is_empty());
    let same = engine
        .aggregate_in(CUSTOMER, &query(range), Some(&code("USD")))
        .await
        .unwrap();
    assert_eq!(same, plain);
    let eur = code("EUR");
    let unconvertible = engine
        .aggregate_in(CUSTOMER, &query(range), Some(&eur))
        .await
        .unwrap();
    assert_eq!(
        (unconvertible.total, unconvertible.currency.as_str()),
        (0.0, "EUR")
    );
    assert_eq!(unconvertible.other_currencies[0].amount, 30.0);
    rates(
        &engine,
        CUSTOMER,
        "date,from,to,rate\n2026-01-01,USD,EUR,0.5\n2026-01-04,USD,EUR,0.25\n",
    )
    .await;
    let converted = engine
        .aggregate_in(CUSTOMER, &query(range), Some(&eur))
        .await
        .unwrap();
    assert_eq!(round(converted.total), 10.0); // 10 × 0.5 + 20 × 0.25
    assert!(converted.converted);
    let spend = engine
        .spend_in(
            CUSTOMER,
            range,
            &Default::default(),
            Metric::Billed,
            Some(&eur),
        )
        .await
        .unwrap();
    assert_eq!(round(spend.total), 10.0);
    assert_eq!(spend.currency.currency, "EUR");
}

#[tokio::test]
async fn rates_are_replaced_listed_and_cleared() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    rates(
        &engine,
        CUSTOMER,
        "date,from,to,rate\n2026-01-01,EUR,USD,1.10\n2026-01-02,EUR,USD,1.2\n2026-01-02,GBP,USD,1.25\n",
    )
    .await;
    let summary = engine.rates_summary(CUSTOMER).await.unwrap();
    assert_eq!(summary.count, 3);
    assert_eq!(summary.first_date, Some(date("2026-01-01")));
    assert_eq!(summary.last_date, Some(date("2026-01-02")));
    assert_eq!(
        summary.pairs,
        vec![("EUR".into(), "USD".into()), ("GBP".into(), "USD".into())]
    );
    let page = engine.list_rates(CUSTOMER, 2, 0).await.unwrap();
    assert_eq!(page.total, 3);
    let listed: Vec<(String, String, String)> = page
        .rates
        .iter()
        .map(|rate| {
            (
                rate.date.to_string(),
                rate.from.to_string(),
                rate.rate.as_str().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        vec![
            ("2026-01-02".into(), "EUR".into(), "1.2".into()),
            ("2026-01-02".into(), "GBP".into(), "1.25".into()),
        ]
    );
    rates(
        &engine,
        CUSTOMER,
        "date,from,to,rate\n2026-02-01,JPY,USD,0.0067\n",
    )
    .await;
    let page = engine.list_rates(CUSTOMER, 10, 0).await.unwrap();
    assert_eq!(page.total, 1);
    assert_eq!(page.rates[0].rate.as_str(), "0.0067");
    engine.clear_rates(CUSTOMER).await.unwrap();
    assert_eq!(
        engine.rates_summary(CUSTOMER).await.unwrap(),
        Default::default()
    );
}
