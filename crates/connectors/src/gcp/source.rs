//! The GCP Cloud Billing export in BigQuery as a [`BillingExportSource`]: one billing month
//! (`invoice.month`) at a time, written as newline-delimited JSON in the export's own shape.

use std::path::Path;
use std::time::Duration;

use async_trait::async_trait;
use chrono::{Datelike, NaiveDate};
use tokio::io::AsyncWriteExt;

use super::bigquery::{BigQuery, Param};
use super::key::ServiceAccountKey;
use super::rows::{timestamp_text, write_row_line};
use super::token::TokenSource;
use crate::settings::GcpExportSettings;
use crate::{BillingExportSource, ExportPeriod, FetchLimits, FetchedFile, SourceError};

/// BigQuery's public endpoint (config `[cloud] bigquery_url`).
pub const DEFAULT_BIGQUERY_URL: &str = "https://bigquery.googleapis.com";

/// The export columns every standard and detailed export table has, in the order written.
const COLUMNS: &[&str] = &[
    "billing_account_id",
    "service",
    "sku",
    "usage_start_time",
    "usage_end_time",
    "project",
    "labels",
    "location",
    "export_time",
    "cost",
    "currency",
    "usage",
    "credits",
    "invoice",
    "cost_type",
];
/// Columns read when the table has them: `cost_at_list` (added to the export in 2023; older
/// tables may lack it) and `resource` (the detailed export only). A table without one answers
/// "Unrecognized name: …" and the query runs again without it.
const OPTIONAL_COLUMNS: &[&str] = &["cost_at_list", "resource"];

/// Checks that `table` is written `project.dataset.table` (a domain-scoped project
/// `example.com:project` allowed) with only the characters BigQuery allows in such names, so
/// that it can be quoted into SQL with backticks. The message says what is wrong.
pub fn validate_export_table(table: &str) -> Result<(), String> {
    let example = "my-project.billing_export.gcp_billing_export_v1_012345_ABCDEF_678901";
    let mut parts = table.rsplitn(3, '.');
    let (Some(name), Some(dataset), Some(project)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(format!(
            "The export table must be written project.dataset.table (e.g. {example}), not {table:?}"
        ));
    };
    if !valid_project(project) {
        return Err(format!(
            "The export table's project {project:?} is not a Google Cloud project id (lowercase letters, digits and hyphens)"
        ));
    }
    let plain = |s: &str, extra: &[char]| {
        !s.is_empty()
            && s.len() <= 1024
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || extra.contains(&c))
    };
    if !plain(dataset, &[]) {
        return Err(format!(
            "The export table's dataset {dataset:?} may have only letters, digits and underscores"
        ));
    }
    if !plain(name, &['-']) {
        return Err(format!(
            "The export table's name {name:?} may have only letters, digits, underscores and hyphens"
        ));
    }
    Ok(())
}

/// A project id (`my-project-123`), optionally domain-scoped (`example.com:my-project`).
fn valid_project(project: &str) -> bool {
    let (domain, id) = match project.split_once(':') {
        Some((domain, id)) => (Some(domain), id),
        None => (None, project),
    };
    let domain_ok = domain.is_none_or(|d| {
        !d.is_empty()
            && d.len() <= 253
            && d.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-')
    });
    let id_ok = (1..=63).contains(&id.len())
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.ends_with('-');
    domain_ok && id_ok
}

/// The billing export table of one GCP connection.
pub struct GcpBillingSource {
    settings: GcpExportSettings,
    bigquery: BigQuery,
}

impl std::fmt::Debug for GcpBillingSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GcpBillingSource")
            .field("settings", &self.settings)
            .field("key", self.bigquery.tokens().key())
            .finish_non_exhaustive()
    }
}

impl GcpBillingSource {
    /// `bigquery_url`: `https://bigquery.googleapis.com` ([`DEFAULT_BIGQUERY_URL`]), or a
    /// stand-in in tests. The settings are checked by each call (a bad table name is that
    /// call's error).
    pub fn new(settings: GcpExportSettings, key: ServiceAccountKey, bigquery_url: &str) -> Self {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(15))
            .timeout(Duration::from_secs(180))
            .user_agent(concat!("costscope/", env!("CARGO_PKG_VERSION")))
            .build()
            .unwrap_or_default();
        let tokens = TokenSource::new(key, http.clone());
        Self {
            settings,
            bigquery: BigQuery::new(http, bigquery_url, tokens),
        }
    }

    /// Rows asked for per page (default 10 000).
    pub fn with_page_rows(mut self, rows: u32) -> Self {
        self.bigquery.patience.page_rows = rows.max(1);
        self
    }

    /// Tries per call on 429 / 5xx (default 5) and the first delay between them (default
    /// 1 s, doubling up to 30 s); also the pause between polls of a running job.
    pub fn with_retries(mut self, attempts: u32, first_delay: Duration) -> Self {
        self.bigquery.patience.attempts = attempts.max(1);
        self.bigquery.patience.first_delay = first_delay;
        self.bigquery.patience.poll_interval = first_delay.min(Duration::from_millis(500));
        self
    }

    /// The project query jobs run in.
    fn job_project(&self) -> &str {
        self.settings
            .billing_project_id
            .as_deref()
            .filter(|p| !p.trim().is_empty())
            .unwrap_or(&self.settings.project_id)
    }

    /// The table, checked, and the job project, checked.
    fn target(&self) -> Result<(&str, &str), SourceError> {
        let table = self.settings.table.trim();
        validate_export_table(table).map_err(SourceError::new)?;
        let project = self.job_project().trim();
        if !valid_project(project) {
            return Err(SourceError::new(format!(
                "{project:?} is not a Google Cloud project id (lowercase letters, digits and hyphens)"
            )));
        }
        Ok((table, project))
    }

    async fn months(&self) -> Result<Vec<ExportPeriod>, SourceError> {
        let (table, project) = self.target()?;
        let sql = format!(
            "SELECT invoice.month AS month, COUNT(*) AS row_count, MAX(export_time) AS last_export_time \
             FROM `{table}` WHERE invoice.month IS NOT NULL GROUP BY month ORDER BY month"
        );
        let mut cursor = self.bigquery.query(project, &sql, &[]).await?;
        let mut periods = Vec::new();
        while let Some(page) = cursor.next_page().await? {
            for row in &page.rows {
                let cell = |i: usize| -> Option<&str> { row.get("f")?.get(i)?.get("v")?.as_str() };
                let Some(month) = cell(0) else { continue };
                let Some(billing_period) = month_start(month) else {
                    tracing::warn!(month, "a billing export month that is not YYYYMM");
                    continue;
                };
                let rows = cell(1).unwrap_or("0");
                let last_export = cell(2)
                    .and_then(timestamp_text)
                    .unwrap_or_else(|| "none".to_owned());
                periods.push(ExportPeriod {
                    billing_period,
                    fingerprint: format!("{rows}:{last_export}"),
                    location: format!("{table} (invoice.month {month})"),
                    objects: Vec::new(),
                });
            }
        }
        periods.sort_by_key(|p| p.billing_period);
        Ok(periods)
    }
}

/// `202610` → 2026-10-01.
fn month_start(month: &str) -> Option<NaiveDate> {
    if month.len() != 6 || !month.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let year: i32 = month[..4].parse().ok()?;
    let month: u32 = month[4..].parse().ok()?;
    NaiveDate::from_ymd_opt(year, month, 1)
}

fn human_bytes(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= 1024 * MIB {
        format!("{:.1} GiB", bytes as f64 / (1024 * MIB) as f64)
    } else {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    }
}

/// The optional column a BigQuery "Unrecognized name: …" message names, if one of ours.
fn unrecognized_optional(message: &str, columns: &[&str]) -> Option<String> {
    let rest = message.split("Unrecognized name: ").nth(1)?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    columns
        .iter()
        .find(|c| c.eq_ignore_ascii_case(&name))
        .map(|c| (*c).to_owned())
}

#[async_trait]
impl BillingExportSource for GcpBillingSource {
    async fn check(&self) -> Result<String, SourceError> {
        let periods = self.months().await?;
        let table = self.settings.table.trim();
        Ok(match periods.len() {
            0 => format!("Found no billing months in `{table}` yet"),
            1 => format!("Found 1 billing month in `{table}`"),
            n => format!("Found {n} billing months in `{table}`"),
        })
    }

    async fn periods(&self) -> Result<Vec<ExportPeriod>, SourceError> {
        self.months().await
    }

    async fn fetch(
        &self,
        period: &ExportPeriod,
        dir: &Path,
        limits: FetchLimits,
    ) -> Result<Vec<FetchedFile>, SourceError> {
        let (table, project) = self.target()?;
        let date = period.billing_period;
        let month = format!("{:04}{:02}", date.year(), date.month());
        let mut optional: Vec<&str> = OPTIONAL_COLUMNS.to_vec();
        let mut cursor = loop {
            let columns: Vec<&str> = COLUMNS.iter().chain(optional.iter()).copied().collect();
            let sql = format!(
                "SELECT {} FROM `{table}` WHERE invoice.month = @month",
                columns.join(", ")
            );
            let params = [Param {
                name: "month",
                kind: "STRING",
                value: &month,
            }];
            match self.bigquery.query(project, &sql, &params).await {
                Ok(cursor) => break cursor,
                Err(error) => match unrecognized_optional(&error.message, &optional) {
                    Some(missing) => {
                        tracing::info!(column = %missing, table, "export table without an optional column");
                        optional.retain(|c| *c != missing);
                    }
                    None => return Err(error),
                },
            }
        };
        let file_name = format!("gcp-billing-{month}.jsonl");
        let path = dir.join(&file_name);
        let written = async {
            let file = tokio::fs::File::create(&path).await.map_err(|error| {
                SourceError::new(format!("Could not write {}: {error}", path.display()))
            })?;
            let mut out = tokio::io::BufWriter::new(file);
            let mut bytes: u64 = 0;
            let mut rows: u64 = 0;
            let fields = cursor.schema.fields.clone();
            let mut buffer = Vec::new();
            while let Some(page) = cursor.next_page().await? {
                buffer.clear();
                for row in &page.rows {
                    write_row_line(&fields, row, &mut buffer).map_err(|error| {
                        SourceError::new(format!(
                            "BigQuery answered a row of {table} that cannot be read: {error}"
                        ))
                    })?;
                }
                rows += page.rows.len() as u64;
                bytes += buffer.len() as u64;
                if bytes > limits.max_bytes {
                    return Err(SourceError::new(format!(
                        "The billing export in {table} for invoice month {month} is larger than the limit of {}",
                        human_bytes(limits.max_bytes)
                    )));
                }
                out.write_all(&buffer).await.map_err(|error| {
                    SourceError::new(format!("Could not write {}: {error}", path.display()))
                })?;
                drop(page);
            }
            out.flush().await.map_err(|error| {
                SourceError::new(format!("Could not write {}: {error}", path.display()))
            })?;
            Ok::<_, SourceError>((bytes, rows))
        }
        .await;
        match written {
            Ok((_, 0)) => {
                let _ = tokio::fs::remove_file(&path).await;
                Ok(Vec::new())
            }
            Ok((bytes, _)) => Ok(vec![FetchedFile {
                name: format!("{table} (invoice.month {month})"),
                path,
                bytes,
            }]),
            Err(error) => {
                let _ = tokio::fs::remove_file(&path).await;
                Err(error)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_checked_strictly() {
        assert!(validate_export_table("my-project.billing.gcp_billing_export_v1_0123").is_ok());
        assert!(validate_export_table("example.com:my-project.billing.t").is_ok());
        for bad in [
            "billing.table",
            "my-project.billing.t`; DROP TABLE x; --",
            "My-Project.billing.t",
            "my-project.bill ing.t",
            "my-project..t",
            "my-project.billing.",
            "1project.billing.t",
        ] {
            assert!(validate_export_table(bad).is_err(), "{bad} passed");
        }
    }

    #[test]
    fn unrecognized_optional_columns_are_found() {
        assert_eq!(
            unrecognized_optional("Unrecognized name: resource at [1:200]", OPTIONAL_COLUMNS)
                .as_deref(),
            Some("resource")
        );
        assert_eq!(
            unrecognized_optional("Unrecognized name: cost at [1:9]", OPTIONAL_COLUMNS),
            None
        );
    }

    #[test]
    fn months_are_first_days() {
        assert_eq!(month_start("202610"), NaiveDate::from_ymd_opt(2026, 10, 1));
        assert_eq!(month_start("202613"), None);
        assert_eq!(month_start("2026-10"), None);
    }
}
