//! The demo data set: realistic native billing exports of a made-up company, written to files
//! and loaded through the normal readers (so the demo exercises the real load path).
//!
//! Deterministic: the bytes depend only on `today`, and every row's values only on its own
//! date, so a demo regenerated a day later agrees with the earlier one on the days both cover.
//! Thirteen months of daily rows: from the first day of the month twelve months before
//! `today`'s month up to `today` inclusive.

pub mod anomalies;
mod aws;
mod azure;
mod gcp;
mod rng;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use chrono::{Datelike, Months, NaiveDate};

/// AWS CUR 2.0 (Data Exports) CSV: accounts 111111111111, 222222222222, 333333333333.
pub const AWS_FILE: &str = "demo-aws-cur2.csv";
/// GCP Cloud Billing detailed export as newline-delimited JSON: two projects.
pub const GCP_FILE: &str = "demo-gcp-billing.json";
/// Azure cost details (Microsoft Customer Agreement) CSV: one subscription.
pub const AZURE_FILE: &str = "demo-azure-cost-details.csv";

/// The first day the demo covers for `today`.
pub fn first_day(today: NaiveDate) -> NaiveDate {
    let month_start = today.with_day(1).expect("day 1 exists");
    month_start
        .checked_sub_months(Months::new(12))
        .expect("a date twelve months back exists")
}

/// Writes the three exports into `dir` (created if missing) and answers their paths.
pub fn write_demo_files(dir: &Path, today: NaiveDate) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let days = DemoDays::new(today);
    let files = [
        (
            AWS_FILE,
            aws::write as fn(&mut dyn Write, &DemoDays) -> io::Result<()>,
        ),
        (GCP_FILE, gcp::write),
        (AZURE_FILE, azure::write),
    ];
    let mut paths = Vec::with_capacity(files.len());
    for (name, write) in files {
        let path = dir.join(name);
        let mut out = BufWriter::new(File::create(&path)?);
        write(&mut out, &days)?;
        out.flush()?;
        paths.push(path);
    }
    Ok(paths)
}

/// The covered days and months.
pub(crate) struct DemoDays {
    pub today: NaiveDate,
    pub first: NaiveDate,
}

impl DemoDays {
    fn new(today: NaiveDate) -> Self {
        Self {
            today,
            first: first_day(today),
        }
    }

    #[cfg(test)]
    pub fn days(&self) -> impl Iterator<Item = NaiveDate> + '_ {
        self.first.iter_days().take_while(|day| *day <= self.today)
    }

    /// First days of the covered months, oldest first.
    pub fn months(&self) -> impl Iterator<Item = NaiveDate> + '_ {
        (0..13).map(|n| {
            self.first
                .checked_add_months(Months::new(n))
                .expect("month exists")
        })
    }

    /// Months that ended before `today` (taxes and fees are billed for those).
    pub fn closed_months(&self) -> impl Iterator<Item = NaiveDate> + '_ {
        let current = self.today.with_day(1).expect("day 1 exists");
        self.months().filter(move |month| *month < current)
    }
}

pub(crate) fn next_month(month_start: NaiveDate) -> NaiveDate {
    month_start
        .checked_add_months(Months::new(1))
        .expect("month exists")
}

/// A day's number, stable across runs (seeds the per-row random numbers).
pub(crate) fn day_key(day: NaiveDate) -> u64 {
    u64::try_from(day.num_days_from_ce()).unwrap_or(0)
}

/// Business systems run harder on weekdays.
pub(crate) fn weekday_factor(day: NaiveDate, weekend_share: f64) -> f64 {
    match day.weekday() {
        chrono::Weekday::Sat | chrono::Weekday::Sun => weekend_share,
        _ => 1.0,
    }
}

/// Gentle growth: about 18 % a year, anchored on a fixed date so that values never depend on
/// which day the demo was generated.
pub(crate) fn growth(day: NaiveDate) -> f64 {
    let anchor = NaiveDate::from_ymd_opt(2024, 1, 1).expect("valid date");
    let years = (day - anchor).num_days() as f64 / 365.0;
    1.18_f64.powf(years)
}

/// A CSV cell, quoted when it has to be.
pub(crate) fn csv(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_owned()
    }
}

/// A JSON string literal.
pub(crate) fn json_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `{"k":"v",…}` from pairs.
pub(crate) fn json_object(pairs: &[(&str, &str)]) -> String {
    let fields: Vec<String> = pairs
        .iter()
        .map(|(key, value)| format!("{}:{}", json_string(key), json_string(value)))
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// A money amount with `decimals` places, without a negative zero.
pub(crate) fn amount(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        format!("{:.decimals$}", 0.0)
    } else {
        text
    }
}

#[cfg(test)]
mod tests;
