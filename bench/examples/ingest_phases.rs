//! Where `costscope ingest` spends its time: the steps of a load (`costscope_ingest::stage_view`,
//! then the engine's one insert into the cost table) timed one by one on a fresh database file,
//! next to DuckDB reading the same file with every column as VARCHAR (the reader's first step).
//!
//! ```text
//! cargo run -p costscope-bench --example ingest_phases -- FILE [DIR]
//! ```

use std::path::PathBuf;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let file = PathBuf::from(
        std::env::args()
            .nth(1)
            .expect("usage: ingest_phases FILE [DIR]"),
    );
    let dir = PathBuf::from(std::env::args().nth(2).unwrap_or_else(|| "/tmp".into()));
    let path = dir.join("ingest-phases.duckdb");
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("duckdb.wal"));
    let db = duckdb::Connection::open(&path)?;
    let columns: Vec<String> = costscope_ingest::NORMALISED_COLUMNS
        .iter()
        .map(|(name, kind)| format!("{name} {kind}"))
        .collect();
    let names: Vec<&str> = costscope_ingest::NORMALISED_COLUMNS
        .iter()
        .map(|c| c.0)
        .collect();
    let names = names.join(", ");
    db.execute_batch(&format!(
        "CREATE TABLE cost_line_items (customer_id BIGINT NOT NULL, load_id VARCHAR NOT NULL, {});",
        columns.join(", ")
    ))?;
    let time = |what: &str, sql: &str| -> anyhow::Result<()> {
        let started = Instant::now();
        db.execute_batch(sql)?;
        println!("{:>8.2} s  {what}", started.elapsed().as_secs_f64());
        Ok(())
    };
    let source = file.display();
    let varchar = if source.to_string().ends_with(".parquet") {
        format!("SELECT COLUMNS(*)::VARCHAR FROM read_parquet('{source}')")
    } else {
        format!("SELECT * FROM read_csv('{source}', all_varchar = true)")
    };
    time(
        "DuckDB alone: the file into a TEMP table, every column VARCHAR",
        &format!("CREATE TEMP TABLE as_text AS {varchar}; DROP TABLE as_text;"),
    )?;
    if source.to_string().ends_with(".parquet") {
        time(
            "DuckDB alone: only the 22 FOCUS columns Costscope keeps, typed, sorted by time",
            &format!(
                "CREATE TEMP TABLE kept AS SELECT ProviderName, BillingAccountId, SubAccountId,
                     SubAccountName, ChargePeriodStart, ChargePeriodEnd, BillingPeriodStart,
                     ServiceName, ServiceCategory, RegionId, SkuMeter, ChargeCategory, ResourceId,
                     ResourceName, ResourceType, BilledCost, EffectiveCost, ListCost,
                     BillingCurrency, ConsumedQuantity, ConsumedUnit, Tags
                 FROM read_parquet('{source}') ORDER BY ChargePeriodStart; DROP TABLE kept;"
            ),
        )?;
    }
    let started = Instant::now();
    let staged = costscope_ingest::stage_view(&db, &file, "file", None, "staged_0", &|_| {})?;
    println!(
        "{:>8.2} s  costscope_ingest::stage_view (the file read, its columns checked, a TEMP view of the normalised rows): {} rows",
        started.elapsed().as_secs_f64(),
        staged.rows
    );
    time(
        "INSERT INTO the cost table from the view (read, normalise, write once), COMMIT",
        &format!(
            "BEGIN; INSERT INTO cost_line_items (customer_id, load_id, {names})
             SELECT 1, 'x', {names} FROM staged_0; COMMIT;"
        ),
    )?;
    time(
        "engine: billing-period keys and per-provider totals of the rows loaded",
        "CREATE TEMP TABLE keys AS SELECT DISTINCT provider, billing_account_id, billing_period_start
             FROM cost_line_items WHERE customer_id = 1 AND load_id = 'x';
         SELECT provider, count(*), sum(billed_cost), sum(effective_cost), sum(list_cost)
             FROM cost_line_items WHERE customer_id = 1 AND load_id = 'x' GROUP BY 1;",
    )?;
    costscope_ingest::unstage(&db, "staged_0");
    time(
        "CHECKPOINT (what closing the database writes)",
        "CHECKPOINT;",
    )?;
    drop(db);
    std::fs::remove_file(&path)?;
    Ok(())
}
