//! The two layouts of an AWS billing export in S3, and their manifests.
//!
//! * AWS Data Exports (CUR 2.0, FOCUS): `<prefix>/<export>/metadata/BILLING_PERIOD=YYYY-MM/<export>-Manifest.json`,
//!   whose `dataFiles` list the `s3://` URIs of the data under `<prefix>/<export>/data/BILLING_PERIOD=YYYY-MM/`;
//!   `executionId` changes with every delivery.
//! * The legacy Cost and Usage Report: `<prefix>/<report>/<yyyymmdd-yyyymmdd>/<report>-Manifest.json`
//!   (the latest delivery of the period), whose `reportKeys` are object keys and `assemblyId`
//!   changes with every delivery. (The same manifest inside each `<assemblyId>/` folder is a
//!   copy kept with that delivery and is not read.)

use chrono::{Datelike, NaiveDate};
use serde::Deserialize;

/// Which layout a manifest belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    DataExports,
    LegacyCur,
}

/// A manifest found in a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ManifestKey {
    pub key: String,
    pub layout: Layout,
    pub billing_period: NaiveDate,
}

/// The export's root: `prefix/export/` (or `export/` without a prefix).
pub(crate) fn export_root(prefix: &str, export_name: &str) -> String {
    let prefix = prefix.trim_matches('/');
    let export_name = export_name.trim_matches('/');
    if prefix.is_empty() {
        format!("{export_name}/")
    } else {
        format!("{prefix}/{export_name}/")
    }
}

/// Recognises a manifest of either layout among the keys under [`export_root`].
pub(crate) fn manifest_key(root: &str, export_name: &str, key: &str) -> Option<ManifestKey> {
    let rest = key.strip_prefix(root)?;
    let file_name = format!("{}-Manifest.json", export_name.trim_matches('/'));
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        ["metadata", partition, name] if *name == file_name => {
            let month = partition.strip_prefix("BILLING_PERIOD=")?;
            let billing_period =
                NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d").ok()?;
            Some(ManifestKey {
                key: key.to_owned(),
                layout: Layout::DataExports,
                billing_period,
            })
        }
        [range, name] if *name == file_name => {
            let (start, end) = range.split_once('-')?;
            let start = NaiveDate::parse_from_str(start, "%Y%m%d").ok()?;
            NaiveDate::parse_from_str(end, "%Y%m%d").ok()?;
            Some(ManifestKey {
                key: key.to_owned(),
                layout: Layout::LegacyCur,
                billing_period: start.with_day0(0)?,
            })
        }
        _ => None,
    }
}

/// What Costscope reads of a manifest: the data files and the delivery's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Manifest {
    /// Object keys in the export's bucket.
    pub data_keys: Vec<String>,
    /// `executionId` (Data Exports) or `assemblyId` (CUR).
    pub delivery_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DataExportsManifest {
    #[serde(default)]
    data_files: Vec<String>,
    #[serde(default)]
    execution_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CurManifest {
    #[serde(default)]
    report_keys: Vec<String>,
    #[serde(default)]
    assembly_id: Option<String>,
}

/// Parses a manifest; the data files it lists as keys of `bucket` (a Data Exports manifest
/// lists `s3://bucket/key` URIs; a CUR manifest lists keys).
pub(crate) fn parse_manifest(
    layout: Layout,
    bucket: &str,
    body: &[u8],
) -> Result<Manifest, String> {
    match layout {
        Layout::DataExports => {
            let manifest: DataExportsManifest =
                serde_json::from_slice(body).map_err(|err| err.to_string())?;
            let data_keys = manifest
                .data_files
                .iter()
                .map(|uri| object_key(bucket, uri))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Manifest {
                data_keys,
                delivery_id: manifest.execution_id.filter(|id| !id.is_empty()),
            })
        }
        Layout::LegacyCur => {
            let manifest: CurManifest =
                serde_json::from_slice(body).map_err(|err| err.to_string())?;
            let data_keys = manifest
                .report_keys
                .iter()
                .map(|key| object_key(bucket, key))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Manifest {
                data_keys,
                delivery_id: manifest.assembly_id.filter(|id| !id.is_empty()),
            })
        }
    }
}

/// `s3://bucket/key` or a plain key, as a key of `bucket`.
fn object_key(bucket: &str, uri: &str) -> Result<String, String> {
    let Some(rest) = uri.strip_prefix("s3://") else {
        return Ok(uri.trim_start_matches('/').to_owned());
    };
    let (uri_bucket, key) = rest
        .split_once('/')
        .ok_or_else(|| format!("data file {uri} names no object"))?;
    if uri_bucket != bucket {
        return Err(format!(
            "data file {uri} is in bucket {uri_bucket}, not in the export's bucket {bucket}"
        ));
    }
    Ok(key.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_root_with_and_without_prefix() {
        assert_eq!(export_root("exports", "focus"), "exports/focus/");
        assert_eq!(export_root("/a/b/", "focus"), "a/b/focus/");
        assert_eq!(export_root("", "focus"), "focus/");
    }

    #[test]
    fn recognises_both_layouts_and_nothing_else() {
        let root = "p/focus/";
        let key = "p/focus/metadata/BILLING_PERIOD=2026-10/focus-Manifest.json";
        assert_eq!(
            manifest_key(root, "focus", key),
            Some(ManifestKey {
                key: key.into(),
                layout: Layout::DataExports,
                billing_period: NaiveDate::from_ymd_opt(2026, 10, 1).unwrap(),
            })
        );
        let key = "p/focus/20261001-20261101/focus-Manifest.json";
        assert_eq!(
            manifest_key(root, "focus", key).map(|m| (m.layout, m.billing_period)),
            Some((
                Layout::LegacyCur,
                NaiveDate::from_ymd_opt(2026, 10, 1).unwrap()
            ))
        );
        for other in [
            "p/focus/20261001-20261101/0f6c/focus-Manifest.json",
            "p/focus/data/BILLING_PERIOD=2026-10/focus-00001.csv.gz",
            "p/focus/metadata/BILLING_PERIOD=2026-13/focus-Manifest.json",
            "p/focus/metadata/BILLING_PERIOD=2026-10/other-Manifest.json",
            "p/other/metadata/BILLING_PERIOD=2026-10/focus-Manifest.json",
            "p/focus/2026-10/focus-Manifest.json",
        ] {
            assert_eq!(manifest_key(root, "focus", other), None, "{other}");
        }
    }

    #[test]
    fn reads_a_data_exports_manifest() {
        let body = br#"{
            "version": "1.0",
            "exportArn": "arn:aws:bcm-data-exports:us-east-1:123456789012:export/focus-1a2b",
            "exportName": "focus",
            "executionId": "7c1e4d8a-0b7e-4a39-9d3e-2f5b6c8d9e0f",
            "billingPeriod": "2026-10",
            "bucket": "costscope-exports",
            "dataFiles": [
                "s3://costscope-exports/p/focus/data/BILLING_PERIOD=2026-10/focus-00001.csv.gz",
                "s3://costscope-exports/p/focus/data/BILLING_PERIOD=2026-10/focus-00002.csv.gz"
            ],
            "columns": [{"name": "BilledCost", "type": "decimal"}]
        }"#;
        let manifest = parse_manifest(Layout::DataExports, "costscope-exports", body).unwrap();
        assert_eq!(
            manifest.data_keys,
            [
                "p/focus/data/BILLING_PERIOD=2026-10/focus-00001.csv.gz",
                "p/focus/data/BILLING_PERIOD=2026-10/focus-00002.csv.gz"
            ]
        );
        assert_eq!(
            manifest.delivery_id.as_deref(),
            Some("7c1e4d8a-0b7e-4a39-9d3e-2f5b6c8d9e0f")
        );
        let err = parse_manifest(
            Layout::DataExports,
            "other-bucket",
            br#"{"dataFiles": ["s3://costscope-exports/a.csv.gz"]}"#,
        )
        .unwrap_err();
        assert!(
            err.contains("not in the export's bucket other-bucket"),
            "{err}"
        );
    }

    #[test]
    fn reads_a_cur_manifest() {
        let body = br#"{
            "assemblyId": "0f6c3d2e-1111-2222-3333-444455556666",
            "account": "123456789012",
            "reportName": "cur",
            "billingPeriod": {"start": "20261001T000000.000Z", "end": "20261101T000000.000Z"},
            "bucket": "costscope-exports",
            "reportKeys": ["p/cur/20261001-20261101/0f6c3d2e-1111-2222-3333-444455556666/cur-00001.csv.gz"],
            "compression": "GZIP",
            "contentType": "text/csv"
        }"#;
        let manifest = parse_manifest(Layout::LegacyCur, "costscope-exports", body).unwrap();
        assert_eq!(
            manifest.data_keys,
            ["p/cur/20261001-20261101/0f6c3d2e-1111-2222-3333-444455556666/cur-00001.csv.gz"]
        );
        assert_eq!(
            manifest.delivery_id.as_deref(),
            Some("0f6c3d2e-1111-2222-3333-444455556666")
        );
        assert!(parse_manifest(Layout::LegacyCur, "b", b"not json").is_err());
    }
}
