//! `costscope-bench` (`make bench`): generates FOCUS line items, then measures in one run
//! Costscope's ingest (Parquet, CSV) and cost API latency, each next to a baseline on the same
//! machine and the same rows: DuckDB's own readers and hand-written SQL run directly in DuckDB
//! and in PostgreSQL; and, side by side with DuckDB, the same files and questions on ClickHouse
//! (issue 18). Prints a table and writes docs/PERFORMANCE.md (DESIGN §9).

mod clickhouse;
mod duckdb_raw;
mod engine;
mod generate;
mod http;
mod ingest;
mod inventory;
mod memory;
mod postgres;
mod report;
mod side_by_side;
mod sync_memory;

use std::path::{Path, PathBuf};

use clap::{Parser, ValueEnum};

#[derive(Debug, Parser)]
#[command(name = "costscope-bench", about)]
pub struct Args {
    /// Data sizes (line items), comma-separated; `--rows 100000` for a quick check. Above 10M
    /// rows only Parquet is written and loaded (100M rows: 5 GB of Parquet, generated once and
    /// reused; about an hour on 2 cores)
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1000000,10000000,100000000"
    )]
    pub rows: Vec<u64>,
    /// Where the generated files and data dirs go [default: $CARGO_TARGET_DIR/bench, else /tmp/costscope-bench]
    #[arg(long)]
    pub work_dir: Option<PathBuf>,
    /// The costscope binary to measure [default: $CARGO_TARGET_DIR/debug/costscope]
    #[arg(long, env = "COSTSCOPE_BIN")]
    pub costscope_bin: Option<PathBuf>,
    /// PostgreSQL for the baseline; the bench creates and drops the schema `costscope_bench`
    #[arg(
        long,
        env = "COSTSCOPE_BENCH_POSTGRES_URL",
        default_value = "postgres://postgres@127.0.0.1:5432/test"
    )]
    pub postgres_url: String,
    /// The cost engines measured side by side [default: duckdb,clickhouse when ClickHouse
    /// answers at --clickhouse-url, else duckdb]. DuckDB always runs: ClickHouse is compared
    /// with it
    #[arg(long, value_delimiter = ',')]
    pub engines: Option<Vec<EngineKind>>,
    /// The ClickHouse server or cluster of the ClickHouse side; its database is replaced by a
    /// fresh `bench_<rows>` per size (dropped and created on every shard)
    #[arg(
        long,
        env = "COSTSCOPE_BENCH_CLICKHOUSE_URL",
        default_value = "clickhouse://default@127.0.0.1:8123/bench?cluster=costscope&shards=127.0.0.1:8123,127.0.0.1:8124",
        hide_env_values = true
    )]
    pub clickhouse_url: String,
    /// Skip the PostgreSQL baseline (always skipped above 10M rows)
    #[arg(long)]
    pub no_postgres: bool,
    /// Timed runs per query (after the warm-ups)
    #[arg(long, default_value_t = 30)]
    pub runs: usize,
    /// Untimed warm-up runs per query
    #[arg(long, default_value_t = 5)]
    pub warmups: usize,
    /// PostgreSQL queries stop after this many seconds of timed runs (at least 5 runs)
    #[arg(long, default_value_t = 60)]
    pub postgres_budget_secs: u64,
    /// Peak memory of a load: gzip FOCUS CSV files of this many rows and twice as many, each
    /// loaded by `costscope ingest` with its peak RSS read from /proc; 0 skips it
    #[arg(long, default_value_t = 1_000_000)]
    pub memory_rows: u64,
    /// `--load-memory-limit` for the memory loads [default: Costscope's own]
    #[arg(long)]
    pub load_memory_limit: Option<String>,
    /// Only the peak-memory loads (e.g. a big hand run: `--memory-only --memory-rows 2000000`)
    #[arg(long)]
    pub memory_only: bool,
    /// Only the sync memory run (issue 13): a gzip FOCUS CSV AWS Data Export delivered to moto
    /// and synced by `costscope serve`, whose peak RSS is read from /proc (`make bench-sync`)
    #[arg(long)]
    pub sync_memory: bool,
    /// The size of that delivery in MiB of gzip (`--sync-gzip-mib 64` for a quick check)
    #[arg(long, default_value_t = 1024)]
    pub sync_gzip_mib: u64,
    /// Only the inventory run (issue 14): 100k resources and 1M snapshots of one tenant, a
    /// filtered `POST /v1/resource` page over HTTP beside the same store query (also part of the
    /// default run)
    #[arg(long)]
    pub inventory: bool,
    /// Markdown report to write
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/PERFORMANCE.md"))]
    pub report: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineKind {
    #[value(name = "duckdb")]
    DuckDb,
    #[value(name = "clickhouse")]
    ClickHouse,
}

/// The questions timed over HTTP and, as hand-written SQL, in DuckDB and PostgreSQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// `/v2/cost/aggr`: a year by month × service.
    YearByMonthService,
    /// `/v2/cost/aggr`: a month by day × service × account, two filter groups ORed.
    MonthByDayServiceAccount,
    /// `/v2/cost/aggr`: a month by day × service × account × region × cost type, unfiltered.
    MonthByDayFourDimensions,
    /// `/v2/cost/filters` for a month.
    FilterOptions,
}

impl Question {
    pub const ALL: [Question; 4] = [
        Question::YearByMonthService,
        Question::MonthByDayServiceAccount,
        Question::MonthByDayFourDimensions,
        Question::FilterOptions,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Question::YearByMonthService => "aggr: year by month × service",
            Question::MonthByDayServiceAccount => {
                "aggr: month by day × service × account, 2 filter groups"
            }
            Question::MonthByDayFourDimensions => {
                "aggr: month by day × service × account × region × cost type"
            }
            Question::FilterOptions => "filters: one month",
        }
    }

    /// Closed range of whole days (inside the generated 13 months).
    pub fn days(self) -> (&'static str, &'static str) {
        match self {
            Question::YearByMonthService => ("2025-11-01", "2026-10-31"),
            _ => ("2026-10-01", "2026-10-31"),
        }
    }

    pub fn is_aggregation(self) -> bool {
        self != Question::FilterOptions
    }
}

/// Filter group 1: AWS in these regions; group 2 (ORed): GCP for these services.
pub const GROUP1_REGIONS: [&str; 2] = ["us-east-1", "eu-west-1"];
pub const GROUP2_SERVICES: [&str; 3] = ["Compute Engine", "BigQuery", "Cloud Storage"];

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let target_dir = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from);
    let work_dir = args.work_dir.clone().unwrap_or_else(|| match &target_dir {
        Some(dir) => dir.join("bench"),
        None => std::env::temp_dir().join("costscope-bench"),
    });
    let bin = args.costscope_bin.clone().unwrap_or_else(|| {
        target_dir
            .unwrap_or_else(|| PathBuf::from("target"))
            .join("debug/costscope")
    });
    anyhow::ensure!(
        bin.exists(),
        "{} is missing: cargo build -p costscope-server --bin costscope",
        bin.display()
    );
    let runtime = tokio::runtime::Runtime::new()?;
    if args.sync_memory {
        let run = sync_memory::run(
            &runtime,
            &bin,
            &work_dir,
            args.sync_gzip_mib,
            args.load_memory_limit.as_deref(),
        )?;
        println!("{}", sync_memory::report(&run)?);
        return Ok(());
    }
    if args.inventory {
        let result = inventory::run(&runtime, &bin, &work_dir, &args)?;
        eprintln!("{}", inventory::section(&result));
        inventory::write(&args.report, &result)?;
        eprintln!("wrote {}", args.report.display());
        return Ok(());
    }
    let with_clickhouse = runtime.block_on(clickhouse_wanted(&args))?;
    let mut results = Vec::new();
    let sizes: &[u64] = if args.memory_only { &[] } else { &args.rows };
    for &rows in sizes {
        let step = |what: &str| eprintln!("[{rows} rows] {what}");
        let load_before = report::load_average();
        step("generating FOCUS Parquet and CSV (reused when present)");
        let dataset = generate::ensure(&work_dir, rows)?;
        let size_dir = work_dir.join(format!("run-{rows}"));
        step("ingest: costscope ingest of each file (by month above 10M rows); DuckDB's copy and floors");
        let ingest = ingest::run(&bin, &dataset, &size_dir)?;
        let data_dir = &ingest.parquet.load.data_dir;
        step("cost API over HTTP");
        let http = runtime.block_on(http::run(&bin, data_dir, None, &args))?;
        step("the same questions asked of the cost engine in-process");
        let duckdb_engine = costscope_engine::DuckDbEngine::open(&ingest.cost_database())?;
        let engine = runtime.block_on(engine::run(
            &duckdb_engine,
            ingest.customer_id,
            &args,
        ))?;
        drop(duckdb_engine);
        step("the same questions directly in DuckDB");
        let raw = duckdb_raw::run(&ingest, &args)?;
        step("the same SQL in DuckDB on a narrow copy of the line items");
        let narrow = duckdb_raw::run_on_narrow_copy(&ingest, &args, &size_dir)?;
        let postgres = if args.no_postgres || rows > generate::CSV_MAX_ROWS {
            None
        } else {
            step("the same rows and questions in PostgreSQL");
            Some(runtime.block_on(postgres::run(&ingest, &args, &size_dir))?)
        };
        let clickhouse = if with_clickhouse {
            step("ClickHouse: a fresh database, the same Parquet file(s) loaded, the same questions in-process and over HTTP");
            Some(runtime.block_on(clickhouse_side(&bin, &ingest, &size_dir, rows, &args))?)
        } else {
            None
        };
        let result = report::SizeResult {
            rows_in_range: side_by_side::rows_in_ranges(&dataset.parquet)?,
            dataset,
            ingest,
            http,
            engine,
            raw,
            narrow,
            postgres,
            clickhouse,
            load_before,
            load_after: report::load_average(),
        };
        report::print(&result);
        results.push(result);
        // Written after each size, so that a long run stopped later keeps what it measured.
        report::write(&args, &results, &[])?;
    }
    let memory = if args.memory_rows == 0 {
        Vec::new()
    } else {
        let loads = memory::run(
            &bin,
            &work_dir,
            args.memory_rows,
            args.load_memory_limit.as_deref(),
        )?;
        eprintln!("{}", report::memory_section(&loads));
        loads
    };
    report::write(&args, &results, &memory)?;
    if !args.memory_only {
        eprintln!(
            "[inventory] {} resources, a filtered page over HTTP and in the store",
            inventory::RESOURCES
        );
        let result = inventory::run(&runtime, &bin, &work_dir, &args)?;
        eprintln!("{}", inventory::section(&result));
        inventory::write(&args.report, &result)?;
    }
    eprintln!("wrote {}", args.report.display());
    let differences: Vec<String> = results.iter().flat_map(side_by_side::differences).collect();
    anyhow::ensure!(
        differences.is_empty(),
        "DuckDB and ClickHouse answered differently:\n{}",
        differences.join("\n")
    );
    Ok(())
}

/// Whether the ClickHouse side runs: as `--engines` says (refusing ClickHouse without DuckDB,
/// and a ClickHouse that does not answer), else when ClickHouse answers.
async fn clickhouse_wanted(args: &Args) -> anyhow::Result<bool> {
    let answers = clickhouse::answers(&args.clickhouse_url).await;
    match &args.engines {
        Some(engines) => {
            anyhow::ensure!(
                engines.contains(&EngineKind::DuckDb),
                "--engines must include duckdb: ClickHouse is measured beside it"
            );
            let wanted = engines.contains(&EngineKind::ClickHouse);
            if wanted && answers.is_none() {
                anyhow::bail!(
                    "--engines clickhouse: no ClickHouse answers at --clickhouse-url (run `make ensure-clickhouse`)"
                );
            }
            Ok(wanted)
        }
        None => {
            match &answers {
                Some(version) => eprintln!("ClickHouse {version} answers: measuring DuckDB and ClickHouse"),
                None => eprintln!("no ClickHouse answers at --clickhouse-url: measuring DuckDB only"),
            }
            Ok(answers.is_some())
        }
    }
}

/// The ClickHouse side of one size: the DuckDB side's Parquet file(s) loaded for the same
/// customer into `bench_<rows>`, then the same questions in-process and, when the binary has
/// `--cost-engine`, over HTTP from a server on the same data dir (metadata) reading ClickHouse.
async fn clickhouse_side(
    bin: &Path,
    ingest: &ingest::IngestResult,
    size_dir: &Path,
    rows: u64,
    args: &Args,
) -> anyhow::Result<side_by_side::ClickHouseRun> {
    let url = clickhouse::url_for(&args.clickhouse_url, rows)?;
    let customer = ingest.customer_id;
    let (engine, load) = clickhouse::load(
        &url,
        customer,
        &ingest.parquet_files,
        &size_dir.join("clickhouse-spill"),
    )
    .await?;
    eprintln!(
        "[{rows} rows] ClickHouse loaded {} rows in {:.1} s",
        load.rows,
        load.wall.as_secs_f64()
    );
    let in_process = engine::run(&engine, customer, args).await?;
    let http = if has_cost_engine_setting(bin)? {
        side_by_side::HttpSide::Measured(
            http::run(bin, &ingest.parquet.load.data_dir, Some(&url), args).await?,
        )
    } else {
        side_by_side::HttpSide::NotRun(format!(
            "{} has no `--cost-engine` setting",
            bin.display()
        ))
    };
    Ok(side_by_side::ClickHouseRun {
        load,
        engine: in_process,
        http,
    })
}

/// Whether `costscope --help` lists `--cost-engine`.
fn has_cost_engine_setting(bin: &Path) -> anyhow::Result<bool> {
    let help = std::process::Command::new(bin).arg("--help").output()?;
    Ok(String::from_utf8_lossy(&help.stdout).contains("--cost-engine"))
}
