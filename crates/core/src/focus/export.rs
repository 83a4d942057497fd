//! A FOCUS export request: which days, which file format, which FOCUS version; parsed from the
//! strings the API and the CLI receive, with a message naming each bad field.

use std::fmt;

use chrono::NaiveDate;

use crate::cost::TimeRange;
use crate::FieldError;

/// The longest range one export covers (a leap year).
pub const MAX_EXPORT_DAYS: i64 = 366;

/// The FOCUS versions Costscope writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FocusVersion {
    #[default]
    V1_2,
    V1_3,
}

impl FocusVersion {
    pub const ALL: [FocusVersion; 2] = [FocusVersion::V1_2, FocusVersion::V1_3];

    pub const fn as_str(self) -> &'static str {
        match self {
            FocusVersion::V1_2 => "1.2",
            FocusVersion::V1_3 => "1.3",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|version| version.as_str() == value.trim())
    }
}

impl fmt::Display for FocusVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The file an export writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ExportFormat {
    /// UTF-8 CSV with a header row; NULL is an empty field.
    #[default]
    Csv,
    Parquet,
}

impl ExportFormat {
    pub const ALL: [ExportFormat; 2] = [ExportFormat::Csv, ExportFormat::Parquet];

    /// The name in requests and the file extension.
    pub const fn as_str(self) -> &'static str {
        match self {
            ExportFormat::Csv => "csv",
            ExportFormat::Parquet => "parquet",
        }
    }

    pub const fn content_type(self) -> &'static str {
        match self {
            ExportFormat::Csv => "text/csv; charset=utf-8",
            ExportFormat::Parquet => "application/vnd.apache.parquet",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        let value = value.trim();
        Self::ALL
            .into_iter()
            .find(|format| format.as_str().eq_ignore_ascii_case(value))
    }
}

impl fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

pub const START_REQUIRED: &str = "start is required";
pub const START_INVALID: &str = "start must be a date (YYYY-MM-DD)";
pub const END_REQUIRED: &str = "end is required";
pub const END_INVALID: &str = "end must be a date (YYYY-MM-DD)";
pub const END_BEFORE_START: &str = "end must not be before start";
pub const RANGE_TOO_LONG: &str = "An export covers at most 366 days";
pub const FORMAT_INVALID: &str = "format must be csv or parquet";
pub const VERSION_INVALID: &str = "version must be 1.2 or 1.3";

/// One export: the line items whose charge period starts on the days `first..=last` (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FocusExportRequest {
    pub first: NaiveDate,
    pub last: NaiveDate,
    pub format: ExportFormat,
    pub version: FocusVersion,
}

impl FocusExportRequest {
    /// Parses the request's fields (`None`: absent; format and version have defaults) and
    /// answers every broken rule, each naming its field.
    pub fn parse(
        start: Option<&str>,
        end: Option<&str>,
        format: Option<&str>,
        version: Option<&str>,
    ) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let first = date(start, "start", START_REQUIRED, START_INVALID, &mut errors);
        let last = date(end, "end", END_REQUIRED, END_INVALID, &mut errors);
        let format = match format.filter(|value| !value.trim().is_empty()) {
            None => Some(ExportFormat::default()),
            Some(value) => ExportFormat::parse(value),
        };
        if format.is_none() {
            errors.push(FieldError::new("format", FORMAT_INVALID));
        }
        let version = match version.filter(|value| !value.trim().is_empty()) {
            None => Some(FocusVersion::default()),
            Some(value) => FocusVersion::parse(value),
        };
        if version.is_none() {
            errors.push(FieldError::new("version", VERSION_INVALID));
        }
        if let (Some(first), Some(last)) = (first, last) {
            if last < first {
                errors.push(FieldError::new("end", END_BEFORE_START));
            } else if (last - first).num_days() + 1 > MAX_EXPORT_DAYS {
                errors.push(FieldError::new("end", RANGE_TOO_LONG));
            }
        }
        match (first, last, format, version) {
            (Some(first), Some(last), Some(format), Some(version)) if errors.is_empty() => {
                Ok(Self {
                    first,
                    last,
                    format,
                    version,
                })
            }
            _ => Err(errors),
        }
    }

    /// The whole days of the request.
    pub fn range(&self) -> TimeRange {
        TimeRange::whole_days(self.first, self.last).expect("parse keeps first <= last")
    }

    /// `focus-1.2-2026-01-01-2026-01-31.csv`.
    pub fn file_name(&self) -> String {
        format!(
            "focus-{}-{}-{}.{}",
            self.version, self.first, self.last, self.format
        )
    }
}

fn date(
    value: Option<&str>,
    field: &'static str,
    required: &'static str,
    invalid: &'static str,
    errors: &mut Vec<FieldError>,
) -> Option<NaiveDate> {
    let value = value.map(str::trim).filter(|value| !value.is_empty());
    let Some(value) = value else {
        errors.push(FieldError::new(field, required));
        return None;
    };
    let parsed = NaiveDate::parse_from_str(value, "%Y-%m-%d").ok();
    if parsed.is_none() {
        errors.push(FieldError::new(field, invalid));
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(
        start: Option<&str>,
        end: Option<&str>,
        format: Option<&str>,
        version: Option<&str>,
    ) -> Result<FocusExportRequest, Vec<FieldError>> {
        FocusExportRequest::parse(start, end, format, version)
    }

    fn messages(errors: Vec<FieldError>) -> Vec<(&'static str, &'static str)> {
        errors.into_iter().map(|e| (e.field, e.message)).collect()
    }

    #[test]
    fn defaults_to_csv_and_focus_1_2() {
        let request = parse(Some("2026-01-01"), Some("2026-01-31"), None, None).unwrap();
        assert_eq!(request.format, ExportFormat::Csv);
        assert_eq!(request.version, FocusVersion::V1_2);
        assert_eq!(request.file_name(), "focus-1.2-2026-01-01-2026-01-31.csv");
        let range = request.range();
        assert_eq!(range.start().to_rfc3339(), "2026-01-01T00:00:00+00:00");
        assert_eq!(range.end().date_naive().to_string(), "2026-01-31");
    }

    #[test]
    fn reads_parquet_and_1_3() {
        let request = parse(
            Some("2026-01-01"),
            Some("2026-01-01"),
            Some("Parquet"),
            Some("1.3"),
        )
        .unwrap();
        assert_eq!(request.format, ExportFormat::Parquet);
        assert_eq!(request.version, FocusVersion::V1_3);
        assert_eq!(
            request.file_name(),
            "focus-1.3-2026-01-01-2026-01-01.parquet"
        );
    }

    #[test]
    fn names_every_bad_field() {
        let errors = parse(None, Some("31/01/2026"), Some("xlsx"), Some("1.1")).unwrap_err();
        assert_eq!(
            messages(errors),
            [
                ("start", START_REQUIRED),
                ("end", END_INVALID),
                ("format", FORMAT_INVALID),
                ("version", VERSION_INVALID),
            ]
        );
    }

    #[test]
    fn refuses_an_end_before_the_start_and_more_than_366_days() {
        let errors = parse(Some("2026-02-01"), Some("2026-01-31"), None, None).unwrap_err();
        assert_eq!(messages(errors), [("end", END_BEFORE_START)]);
        assert!(parse(Some("2024-01-01"), Some("2024-12-31"), None, None).is_ok());
        let errors = parse(Some("2025-01-01"), Some("2026-01-02"), None, None).unwrap_err();
        assert_eq!(messages(errors), [("end", RANGE_TOO_LONG)]);
    }
}
