//! Runs the local BigQuery stand-in (`costscope_connectors::testing::bigquery`) for the browser
//! end-to-end test of a GCP connection, until it is stopped.
//!
//! ```text
//! cargo run -p costscope-connectors --features test-support --example bigquery_standin -- \
//!     --port 9055 --rows rows.json --key-out /tmp/gcp-key.json [--table project.dataset.table]
//! ```
//!
//! - `--port`: where it listens on 127.0.0.1 (0 or absent: a free port). The server's
//!   `[cloud] bigquery_url` is `http://127.0.0.1:<port>`.
//! - `--rows`: the export table's rows, a JSON array of objects or newline-delimited JSON in
//!   the Cloud Billing export's shape (`billing_account_id`, `service.description`, `cost`,
//!   `credits`, `invoice.month`, `export_time`, …). Absent: an empty table.
//! - `--key-out`: where to write the service-account key file it accepts (its `token_uri`
//!   points at the stand-in); upload that file in the GCP connect wizard.
//! - `--table`: the table it holds (default `costscope-demo.billing_export.gcp_billing_export_v1_012345_ABCDEF_678901`).
//!
//! Once listening it prints one line of JSON: `{"url", "token_uri", "table", "project_id",
//! "key_file"}`.

use costscope_connectors::testing::bigquery::{BigQueryStandIn, DEFAULT_TABLE};
use serde_json::Value;

fn usage(problem: &str) -> ! {
    eprintln!(
        "{problem}\nusage: bigquery_standin [--port N] [--rows FILE] --key-out FILE [--table project.dataset.table]"
    );
    std::process::exit(2)
}

#[tokio::main]
async fn main() {
    let mut port: u16 = 0;
    let mut rows_path: Option<String> = None;
    let mut key_out: Option<String> = None;
    let mut table = DEFAULT_TABLE.to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--port" => {
                port = value()
                    .parse()
                    .unwrap_or_else(|_| usage("--port is not a port number"))
            }
            "--rows" => rows_path = Some(value()),
            "--key-out" => key_out = Some(value()),
            "--table" => table = value(),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    let key_out = key_out.unwrap_or_else(|| usage("--key-out is required"));
    let rows: Vec<Value> = match rows_path {
        None => Vec::new(),
        Some(path) => {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| usage(&format!("cannot read {path}: {e}")));
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Array(rows)) => rows,
                _ => text
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| {
                        serde_json::from_str(l)
                            .unwrap_or_else(|e| usage(&format!("{path}: a line is not JSON: {e}")))
                    })
                    .collect(),
            }
        }
    };
    let standin = BigQueryStandIn::start_on(port, &table, rows).await;
    std::fs::write(&key_out, standin.key_json())
        .unwrap_or_else(|e| usage(&format!("cannot write {key_out}: {e}")));
    println!(
        "{}",
        serde_json::json!({
            "url": standin.url(),
            "token_uri": standin.token_uri(),
            "table": standin.table(),
            "project_id": standin.project_id(),
            "key_file": key_out,
        })
    );
    let _ = tokio::signal::ctrl_c().await;
}
