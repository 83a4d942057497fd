//! The cost API over HTTP: `costscope serve` on the loaded data dir (on its DuckDB file, or with
//! `--cost-engine` on ClickHouse), sign in, then each question timed from sending the request
//! to the last byte of the answer. The last answer of each question is kept for comparison.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde_json::{json, Value};

use crate::ingest::{EMAIL, PASSWORD};
use crate::report::Timings;
use crate::side_by_side::{Answer, Answered};
use crate::{Args, Question, GROUP1_REGIONS, GROUP2_SERVICES};

/// The questions asked of `costscope serve` on `data_dir`, whose cost engine is `cost_engine`
/// (`--cost-engine`; `None`: the data dir's DuckDB file).
pub async fn run(
    bin: &Path,
    data_dir: &Path,
    cost_engine: Option<&str>,
    args: &Args,
) -> anyhow::Result<Vec<Answered>> {
    let server = Server::start_on(bin, data_dir, cost_engine)?;
    let result = measure_all(&server.base_url, args).await;
    server.stop()?;
    result
}

async fn measure_all(base_url: &str, args: &Args) -> anyhow::Result<Vec<Answered>> {
    let client = reqwest::Client::new();
    wait_ready(&client, base_url).await?;
    let login: Value = client
        .post(format!("{base_url}/v1/auth/login"))
        .json(&json!({ "email": EMAIL, "password": PASSWORD }))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let token = login["access_token"]
        .as_str()
        .context("no access_token in the sign-in answer")?;
    let mut all = Vec::new();
    for question in Question::ALL {
        let (path, body) = request(question);
        let url = format!("{base_url}{path}");
        let send = || async {
            let response = client
                .post(&url)
                .bearer_auth(token)
                .json(&body)
                .send()
                .await?;
            let status = response.status();
            let bytes = response.bytes().await?;
            if !status.is_success() {
                bail!(
                    "{path} answered {status}: {}",
                    String::from_utf8_lossy(&bytes)
                );
            }
            anyhow::Ok(bytes)
        };
        for _ in 0..args.warmups {
            send().await?;
        }
        let mut samples = Vec::with_capacity(args.runs);
        let mut last = Default::default();
        for _ in 0..args.runs {
            let started = Instant::now();
            last = send().await?;
            samples.push(started.elapsed());
        }
        let answer: Value = serde_json::from_slice(&last)?;
        all.push(Answered {
            timings: Timings::new(samples, answer_rows(question, &answer)),
            answer: compared(question, &answer),
        });
    }
    Ok(all)
}

/// The answer as compared between engines: its whole JSON and its total (`summary.accrued_cost`
/// of an aggregation, the number of services of the filter options).
fn compared(question: Question, answer: &Value) -> Answer {
    let total = match question {
        Question::FilterOptions => answer_rows(question, answer) as f64,
        _ => answer["summary"]["accrued_cost"].as_f64().unwrap_or(f64::NAN),
    };
    Answer {
        total,
        text: answer.to_string(),
    }
}

fn request(question: Question) -> (&'static str, Value) {
    let (start, end) = question.days();
    match question {
        Question::YearByMonthService => (
            "/v2/cost/aggr",
            json!({ "start_time": start, "end_time": end, "filters": [],
                    "interval": "monthly", "group_by_dimensions": ["service"] }),
        ),
        Question::MonthByDayServiceAccount => (
            "/v2/cost/aggr",
            json!({ "start_time": start, "end_time": end, "interval": "daily",
                    "group_by_dimensions": ["service", "account"],
                    "filters": [
                        { "operator": "AND",
                          "cloud_providers": [{ "operator": "equals", "values": ["AWS"] }],
                          "regions": [{ "operator": "in", "values": GROUP1_REGIONS }] },
                        { "operator": "OR",
                          "cloud_providers": [{ "operator": "equals", "values": ["GCP"] }],
                          "services": [{ "operator": "in", "values": GROUP2_SERVICES }] } ] }),
        ),
        Question::MonthByDayFourDimensions => (
            "/v2/cost/aggr",
            json!({ "start_time": start, "end_time": end, "filters": [], "interval": "daily",
                    "group_by_dimensions": ["service", "account", "region", "cost_type"] }),
        ),
        Question::FilterOptions => (
            "/v2/cost/filters",
            json!({ "start_date": start, "end_date": end, "filters": [] }),
        ),
    }
}

/// Rows of an aggregation; for the filter options, the number of distinct services (both are
/// compared with what the raw SQL returns).
fn answer_rows(question: Question, answer: &Value) -> usize {
    let list = match question {
        Question::FilterOptions => &answer["services"],
        _ => &answer["data"],
    };
    list.as_array().map_or(0, Vec::len)
}

pub(crate) async fn wait_ready(client: &reqwest::Client, base_url: &str) -> anyhow::Result<()> {
    for _ in 0..600 {
        if let Ok(response) = client.get(format!("{base_url}/readyz")).send().await {
            if response.status().is_success() {
                return Ok(());
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("{base_url}/readyz did not answer 200 within a minute")
}

pub(crate) struct Server {
    child: Child,
    pub(crate) base_url: String,
}

impl Server {
    /// `costscope serve --addr 127.0.0.1:0`; the address comes from its first line of output.
    /// Its log goes to `serve.log` in the data dir.
    pub(crate) fn start(bin: &Path, data_dir: &Path) -> anyhow::Result<Self> {
        Self::start_on(bin, data_dir, None)
    }

    /// [`Server::start`] with `--cost-engine cost_engine` when given.
    fn start_on(bin: &Path, data_dir: &Path, cost_engine: Option<&str>) -> anyhow::Result<Self> {
        let log = std::fs::File::create(data_dir.join("serve.log"))?;
        let mut command = Command::new(bin);
        if let Some(cost_engine) = cost_engine {
            command.args(["--cost-engine", cost_engine]);
        }
        let mut child = command
            .arg("--data-dir")
            .arg(data_dir)
            .args(["--addr", "127.0.0.1:0", "serve"])
            .env_remove("COSTSCOPE_COST_ENGINE")
            .env_remove("COSTSCOPE_DATABASE_URL")
            .env_remove("COSTSCOPE_CONFIG")
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .context("starting costscope serve")?;
        let mut lines = BufReader::new(child.stdout.take().context("no stdout")?).lines();
        let mut base_url = None;
        for line in lines.by_ref() {
            if let Some(url) = line?.split("running at ").nth(1) {
                base_url = Some(url.trim().to_owned());
                break;
            }
        }
        // Keep reading so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        match base_url {
            Some(base_url) => Ok(Self { child, base_url }),
            None => {
                let _ = child.kill();
                bail!(
                    "costscope serve exited early; see {}/serve.log",
                    data_dir.display()
                )
            }
        }
    }

    /// SIGTERM and wait: DuckDB only lets one process open the cost database at a time.
    pub(crate) fn stop(mut self) -> anyhow::Result<()> {
        Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()?;
        self.child.wait()?;
        Ok(())
    }
}
