//! The baseline a typical stack would give: the same rows in a PostgreSQL table with proper
//! types (exported from Costscope's cost table, so every value is the one Costscope stored),
//! an index on (customer_id, charge_period_start), ANALYZE, and the same hand-written SQL.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use sqlx::{Connection, Executor, PgConnection};

use crate::duckdb_raw::{cost_table, sql, Dialect};
use crate::ingest::IngestResult;
use crate::report::Timings;
use crate::{Args, Question};

const SCHEMA: &str = "costscope_bench";

#[derive(Debug)]
pub struct PostgresResult {
    pub version: String,
    /// `COPY … FROM STDIN (FORMAT csv)` of the rows.
    pub copy: Duration,
    pub rows: u64,
    /// CREATE INDEX and ANALYZE.
    pub index_and_analyze: Duration,
    pub table_bytes: i64,
    pub queries: Vec<Timings>,
}

pub async fn run(ingest: &IngestResult, args: &Args, dir: &Path) -> anyhow::Result<PostgresResult> {
    let csv = dir.join("postgres.csv");
    let columns = export(&ingest.cost_database(), &csv)?;
    let mut pg = PgConnection::connect(&args.postgres_url)
        .await
        .with_context(|| format!("connecting to {}", args.postgres_url))?;
    let version: String = sqlx::query_scalar("SHOW server_version")
        .fetch_one(&mut pg)
        .await?;
    let definitions: Vec<String> = columns
        .iter()
        .map(|(name, duckdb_type)| format!("{name} {}", postgres_type(duckdb_type)))
        .collect();
    pg.execute(
        format!(
            "DROP SCHEMA IF EXISTS {SCHEMA} CASCADE; CREATE SCHEMA {SCHEMA};
             CREATE TABLE {SCHEMA}.cost ({})",
            definitions.join(", ")
        )
        .as_str(),
    )
    .await?;

    let started = Instant::now();
    let mut copy = pg
        .copy_in_raw(&format!("COPY {SCHEMA}.cost FROM STDIN (FORMAT csv)"))
        .await?;
    copy.read_from(tokio::fs::File::open(&csv).await?).await?;
    let rows = copy.finish().await?;
    let copy_time = started.elapsed();
    std::fs::remove_file(&csv)?;

    let started = Instant::now();
    pg.execute(
        format!(
            "CREATE INDEX ON {SCHEMA}.cost (customer_id, charge_period_start);
             ANALYZE {SCHEMA}.cost"
        )
        .as_str(),
    )
    .await?;
    let index_and_analyze = started.elapsed();
    let table_bytes: i64 =
        sqlx::query_scalar(&format!("SELECT pg_total_relation_size('{SCHEMA}.cost')"))
            .fetch_one(&mut pg)
            .await?;

    let table = format!("{SCHEMA}.cost");
    let budget = Duration::from_secs(args.postgres_budget_secs);
    let mut queries = Vec::new();
    for question in Question::ALL {
        let statements = sql(question, &table, ingest.customer_id, Dialect::Postgres);
        for _ in 0..args.warmups.min(2) {
            answer(&mut pg, &statements).await?;
        }
        let (mut samples, mut rows) = (Vec::new(), 0);
        let begun = Instant::now();
        while samples.len() < args.runs && (samples.len() < 5 || begun.elapsed() < budget) {
            let started = Instant::now();
            rows = answer(&mut pg, &statements).await?;
            samples.push(started.elapsed());
        }
        queries.push(Timings::new(samples, rows));
    }
    pg.execute(format!("DROP SCHEMA {SCHEMA} CASCADE").as_str())
        .await?;
    pg.close().await?;
    Ok(PostgresResult {
        version,
        copy: copy_time,
        rows,
        index_and_analyze,
        table_bytes,
        queries,
    })
}

/// Every statement's rows fetched; the first one's count is the answer size.
async fn answer(pg: &mut PgConnection, statements: &[String]) -> anyhow::Result<usize> {
    let mut first = None;
    for statement in statements {
        let rows = sqlx::query(statement).fetch_all(&mut *pg).await?;
        first.get_or_insert(rows.len());
    }
    Ok(first.unwrap_or(0))
}

/// Writes Costscope's cost rows as CSV (maps as JSON objects); returns the columns and their
/// DuckDB types.
fn export(database: &Path, csv: &Path) -> anyhow::Result<Vec<(String, String)>> {
    let config = duckdb::Config::default().access_mode(duckdb::AccessMode::ReadOnly)?;
    let db = duckdb::Connection::open_with_flags(database, config)?;
    let table = cost_table(&db)?;
    let columns = db
        .prepare(
            "SELECT column_name, data_type FROM information_schema.columns
             WHERE table_name = ? AND table_schema = 'main' ORDER BY ordinal_position",
        )?
        .query_map([&table], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<Vec<(String, String)>, _>>()?;
    let select: Vec<String> = columns
        .iter()
        .map(|(name, duckdb_type)| match duckdb_type.starts_with("MAP") {
            true => format!("to_json({name}) AS {name}"),
            false => name.clone(),
        })
        .collect();
    db.execute_batch(&format!(
        "COPY (SELECT {} FROM {table}) TO '{}' (FORMAT csv, HEADER false)",
        select.join(", "),
        csv.display()
    ))?;
    Ok(columns)
}

fn postgres_type(duckdb_type: &str) -> String {
    match duckdb_type {
        "VARCHAR" => "text".into(),
        "BIGINT" => "bigint".into(),
        "INTEGER" => "integer".into(),
        "DOUBLE" => "double precision".into(),
        "DATE" => "date".into(),
        "TIMESTAMP" => "timestamp".into(),
        "TIMESTAMP WITH TIME ZONE" => "timestamptz".into(),
        "BOOLEAN" => "boolean".into(),
        t if t.starts_with("DECIMAL") => t.replace("DECIMAL", "numeric"),
        t if t.starts_with("MAP") || t == "JSON" => "jsonb".into(),
        other => other.to_lowercase(),
    }
}
