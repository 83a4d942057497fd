//! Which blobs make up which billing month's newest export run (see the module documentation
//! of `azure`): pure functions over a blob listing and the manifests read from it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::Deserialize;

use super::blob::BlobItem;
use crate::settings::{AzureExportSettings, AzureStorageAuth};
use crate::{ExportObject, SourceError};

/// A Cost Management export run's `manifest.json`, the parts Costscope reads.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    #[serde(default)]
    pub manifest_version: Option<String>,
    /// The run's data files (partitions), container-relative.
    pub blobs: Vec<ManifestBlob>,
    #[serde(default)]
    pub run_info: Option<RunInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestBlob {
    pub blob_name: String,
    #[serde(default)]
    pub byte_count: Option<u64>,
    #[serde(default)]
    pub data_row_count: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunInfo {
    #[serde(default)]
    pub run_id: Option<String>,
    #[serde(default)]
    pub submitted_time: Option<String>,
    #[serde(default)]
    pub start_date: Option<String>,
    #[serde(default)]
    pub end_date: Option<String>,
}

impl Manifest {
    pub fn parse(bytes: &[u8]) -> Result<Manifest, String> {
        let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        serde_json::from_slice(bytes).map_err(|e| e.to_string())
    }

    fn submitted(&self) -> Option<DateTime<Utc>> {
        let text = self.run_info.as_ref()?.submitted_time.as_deref()?;
        DateTime::parse_from_rfc3339(text.trim())
            .ok()
            .map(|t| t.with_timezone(&Utc))
            .or_else(|| {
                chrono::NaiveDateTime::parse_from_str(text.trim(), "%Y-%m-%dT%H:%M:%S%.f")
                    .ok()
                    .map(|t| t.and_utc())
            })
    }
}

/// The settings with names trimmed and checked.
pub(crate) fn normalise(
    mut settings: AzureExportSettings,
) -> Result<AzureExportSettings, SourceError> {
    settings.storage_account = settings.storage_account.trim().to_owned();
    settings.container = settings.container.trim().to_owned();
    settings.directory = settings.directory.trim().trim_matches('/').to_owned();
    let account = &settings.storage_account;
    if !(3..=24).contains(&account.len())
        || !account
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    {
        return Err(SourceError::new(format!(
            "The storage account name {account:?} is not valid: 3 to 24 lowercase letters and digits"
        )));
    }
    let container = &settings.container;
    let container_ok = container == "$root"
        || ((3..=63).contains(&container.len())
            && container
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !container.starts_with('-')
            && !container.ends_with('-')
            && !container.contains("--"));
    if !container_ok {
        return Err(SourceError::new(format!(
            "The container name {container:?} is not valid: 3 to 63 lowercase letters, digits and single hyphens"
        )));
    }
    if settings.directory.split('/').any(|s| s == "..") {
        return Err(SourceError::new(
            "The export directory must not contain '..'",
        ));
    }
    if let AzureStorageAuth::ServicePrincipal {
        tenant_id,
        client_id,
    } = &mut settings.auth
    {
        *tenant_id = tenant_id.trim().to_owned();
        *client_id = client_id.trim().to_owned();
    }
    Ok(settings)
}

/// One billing month and how to find its newest run.
#[derive(Debug)]
pub(crate) struct MonthPlan {
    pub(crate) billing_period: NaiveDate,
    pub(crate) choice: Choice,
}

#[derive(Debug)]
pub(crate) enum Choice {
    /// The newest run has no manifest: it is these files.
    Files(Run),
    /// The newest run has a manifest: one of these (written in the same second), to be read
    /// and chosen by [`manifest_run`].
    Manifests(Vec<BlobItem>),
}

/// The files of one run, ready to become an `ExportPeriod`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) fingerprint: String,
    /// Container-relative name of the manifest, the run folder or the single file.
    pub(crate) location: String,
    pub(crate) objects: Vec<ExportObject>,
}

struct Placed<'a> {
    blob: &'a BlobItem,
    /// Container-relative folder of the date range, `dir/export/20261001-20261031`.
    month_folder: String,
    /// Container-relative folder the blob is in.
    parent: String,
    file: &'a str,
}

/// `YYYYMMDD-YYYYMMDD` → the first day's billing month.
fn date_range(segment: &str) -> Option<NaiveDate> {
    let (start, end) = segment.split_once('-')?;
    if start.len() != 8 || end.len() != 8 {
        return None;
    }
    let start = NaiveDate::parse_from_str(start, "%Y%m%d").ok()?;
    let end = NaiveDate::parse_from_str(end, "%Y%m%d").ok()?;
    if end < start {
        return None;
    }
    start.with_day(1)
}

fn is_manifest(file: &str) -> bool {
    file.eq_ignore_ascii_case("manifest.json")
}

/// A data file of an export: CSV, gzip CSV or Parquet (`.snappy.parquet` too).
pub(crate) fn is_data_file(file: &str) -> bool {
    let lower = file.to_ascii_lowercase();
    lower.ends_with(".csv") || lower.ends_with(".gz") || lower.ends_with(".parquet")
}

fn parent_of(name: &str) -> &str {
    match name.rfind('/') {
        Some(at) => &name[..at],
        None => "",
    }
}

fn newest<'a, I: IntoIterator<Item = &'a BlobItem>>(blobs: I) -> Option<DateTime<Utc>> {
    blobs.into_iter().filter_map(|b| b.last_modified).max()
}

/// Groups the listing of `directory` into billing months and picks each month's newest run.
/// `location` names the directory in the refusal of a directory holding two exports.
pub(crate) fn plan(
    directory: &str,
    blobs: &[BlobItem],
    location: &str,
) -> Result<Vec<MonthPlan>, SourceError> {
    let prefix = if directory.is_empty() {
        String::new()
    } else {
        format!("{directory}/")
    };
    let mut roots: BTreeSet<String> = BTreeSet::new();
    let mut months: BTreeMap<NaiveDate, Vec<Placed<'_>>> = BTreeMap::new();
    for blob in blobs {
        let Some(relative) = blob.name.strip_prefix(&prefix) else {
            continue;
        };
        let segments: Vec<&str> = relative.split('/').collect();
        if segments.len() < 2 {
            continue;
        }
        let Some((index, month)) = segments[..segments.len() - 1]
            .iter()
            .enumerate()
            .find_map(|(i, s)| date_range(s).map(|m| (i, m)))
        else {
            continue;
        };
        let root = format!("{prefix}{}", segments[..index].join("/"));
        let root = root.trim_end_matches('/').to_owned();
        let month_folder = if root.is_empty() {
            segments[index].to_owned()
        } else {
            format!("{root}/{}", segments[index])
        };
        roots.insert(root);
        let file = segments[segments.len() - 1];
        months.entry(month).or_default().push(Placed {
            blob,
            month_folder,
            parent: parent_of(&blob.name).to_owned(),
            file,
        });
    }
    if roots.len() > 1 {
        let names: Vec<String> = roots
            .iter()
            .map(|r| {
                if r.is_empty() {
                    "(the container's top)".to_owned()
                } else {
                    r.clone()
                }
            })
            .collect();
        return Err(SourceError::new(format!(
            "Found more than one export under {location}: {}. Set the directory to one export's folder, or loading them all would count costs twice",
            names.join(", ")
        )));
    }

    let mut out = Vec::new();
    for (billing_period, placed) in months {
        let manifests: Vec<&Placed<'_>> = placed.iter().filter(|p| is_manifest(p.file)).collect();
        let manifest_folders: Vec<&str> = manifests.iter().map(|p| p.parent.as_str()).collect();
        let inside_a_manifest_run = |p: &Placed<'_>| {
            manifest_folders
                .iter()
                .any(|f| p.parent == *f || p.parent.starts_with(&format!("{f}/")))
        };
        // Runs without a manifest: a run folder below the date range, or one file directly in it.
        let mut loose: BTreeMap<String, Vec<&BlobItem>> = BTreeMap::new();
        for p in placed.iter() {
            if is_manifest(p.file) || !is_data_file(p.file) || inside_a_manifest_run(p) {
                continue;
            }
            let key = if p.parent == p.month_folder {
                p.blob.name.clone()
            } else {
                p.parent.clone()
            };
            loose.entry(key).or_default().push(p.blob);
        }
        let best_loose = loose
            .iter()
            .max_by(|a, b| {
                newest(a.1.iter().copied())
                    .cmp(&newest(b.1.iter().copied()))
                    .then_with(|| a.0.cmp(b.0))
            })
            .map(|(key, files)| (key, files, newest(files.iter().copied())));
        let best_manifest_time = newest(manifests.iter().map(|p| p.blob));

        let manifest_wins = match (&best_loose, manifests.is_empty()) {
            (_, true) => false,
            (None, false) => true,
            (Some((_, _, loose_time)), false) => best_manifest_time >= *loose_time,
        };
        let choice = if manifest_wins {
            let tied: Vec<BlobItem> = manifests
                .iter()
                .filter(|p| p.blob.last_modified == best_manifest_time)
                .map(|p| p.blob.clone())
                .collect();
            Choice::Manifests(tied)
        } else if let Some((key, files, _)) = best_loose {
            let mut files: Vec<&BlobItem> = files.clone();
            files.sort_by(|a, b| a.name.cmp(&b.name));
            let newest_file = files
                .iter()
                .max_by(|a, b| {
                    a.last_modified
                        .cmp(&b.last_modified)
                        .then_with(|| a.name.cmp(&b.name))
                })
                .copied()
                .expect("a run has a file");
            Choice::Files(Run {
                fingerprint: format!(
                    "{} etag {} files {}",
                    newest_file.name,
                    newest_file.etag,
                    files.len()
                ),
                location: key.clone(),
                objects: files
                    .iter()
                    .map(|b| ExportObject {
                        key: b.name.clone(),
                        bytes: b.bytes,
                    })
                    .collect(),
            })
        } else {
            continue;
        };
        out.push(MonthPlan {
            billing_period,
            choice,
        });
    }
    Ok(out)
}

/// The newest of manifests written in the same second (by `runInfo.submittedTime`, then
/// name), with its data files resolved against the listing.
pub(crate) fn manifest_run(read: Vec<(BlobItem, Manifest)>, listing: &[BlobItem]) -> Run {
    let (blob, manifest) = read
        .into_iter()
        .max_by(|a, b| {
            a.1.submitted()
                .cmp(&b.1.submitted())
                .then_with(|| a.0.name.cmp(&b.0.name))
        })
        .expect("at least one manifest");
    let by_name: HashMap<&str, &BlobItem> = listing.iter().map(|b| (b.name.as_str(), b)).collect();
    let folder = parent_of(&blob.name);
    let objects = manifest
        .blobs
        .iter()
        .map(|entry| {
            let name = entry.blob_name.trim().trim_start_matches('/');
            if let Some(found) = by_name.get(name) {
                return ExportObject {
                    key: found.name.clone(),
                    bytes: found.bytes.or(entry.byte_count),
                };
            }
            let file = name.rsplit('/').next().unwrap_or(name).trim();
            let beside = if folder.is_empty() {
                file.to_owned()
            } else {
                format!("{folder}/{file}")
            };
            match by_name.get(beside.as_str()) {
                Some(found) => ExportObject {
                    key: found.name.clone(),
                    bytes: found.bytes.or(entry.byte_count),
                },
                None => ExportObject {
                    key: name.to_owned(),
                    bytes: entry.byte_count,
                },
            }
        })
        .collect();
    let run_id = manifest
        .run_info
        .as_ref()
        .and_then(|r| r.run_id.clone())
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| blob.name.clone());
    Run {
        fingerprint: format!("run {run_id} manifest etag {}", blob.etag),
        location: blob.name.clone(),
        objects,
    }
}

/// The local file name of the `index`th object: its own name (so its extension stays), made
/// safe, numbered so that two runs' `part_0_0001.csv` cannot collide.
pub(crate) fn local_name(index: usize, key: &str) -> String {
    let file = key.rsplit('/').next().unwrap_or(key);
    let safe: String = file
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    let safe = if safe.is_empty() { "export.csv" } else { safe };
    format!("{:04}_{safe}", index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(name: &str, second: u32, etag: &str) -> BlobItem {
        BlobItem {
            name: name.into(),
            last_modified: Some(
                NaiveDate::from_ymd_opt(2026, 11, 2)
                    .unwrap()
                    .and_hms_opt(6, 0, second)
                    .unwrap()
                    .and_utc(),
            ),
            etag: etag.into(),
            bytes: Some(100),
        }
    }

    fn manifest(run: &str, submitted: &str, names: &[&str]) -> Manifest {
        Manifest::parse(
            serde_json::json!({
                "manifestVersion": "2024-04-01",
                "runInfo": {"runId": run, "submittedTime": submitted,
                            "startDate": "2026-10-01T00:00:00", "endDate": "2026-10-31T00:00:00Z"},
                "blobs": names.iter().map(|n| serde_json::json!({"blobName": n, "byteCount": 100})).collect::<Vec<_>>()
            })
            .to_string()
            .as_bytes(),
        )
        .unwrap()
    }

    #[test]
    fn months_come_from_the_date_range_folder_oldest_first() {
        let blobs = vec![
            blob(
                "d/focus/20261101-20261130/202611020600/r2/manifest.json",
                1,
                "m2",
            ),
            blob(
                "d/focus/20261101-20261130/202611020600/r2/part_0_0001.csv.gz",
                1,
                "p2",
            ),
            blob(
                "d/focus/20261001-20261031/202610310600/r1/manifest.json",
                0,
                "m1",
            ),
            blob(
                "d/focus/20261001-20261031/202610310600/r1/part_0_0001.csv.gz",
                0,
                "p1",
            ),
            blob("d/focus/readme.txt", 0, "x"),
        ];
        let plan = plan("d", &blobs, "loc").unwrap();
        let months: Vec<String> = plan.iter().map(|m| m.billing_period.to_string()).collect();
        assert_eq!(months, ["2026-10-01", "2026-11-01"]);
        assert!(
            matches!(&plan[0].choice, Choice::Manifests(m) if m.len() == 1 && m[0].etag == "m1")
        );
    }

    #[test]
    fn manifests_of_the_same_second_are_told_apart_by_submitted_time() {
        let blobs = vec![
            blob("e/20261001-20261031/a/manifest.json", 5, "ma"),
            blob("e/20261001-20261031/a/part_0_0001.csv", 5, "pa"),
            blob("e/20261001-20261031/b/manifest.json", 5, "mb"),
            blob("e/20261001-20261031/b/part_0_0001.csv", 5, "pb"),
        ];
        let plan = plan("", &blobs, "loc").unwrap();
        let Choice::Manifests(tied) = &plan[0].choice else {
            panic!("expected manifests")
        };
        assert_eq!(tied.len(), 2);
        let read = vec![
            (
                tied[0].clone(),
                manifest(
                    "run-a",
                    "2026-11-02T06:00:05.2000000Z",
                    &["e/20261001-20261031/a/part_0_0001.csv"],
                ),
            ),
            (
                tied[1].clone(),
                manifest(
                    "run-b",
                    "2026-11-02T06:00:05.9000000Z",
                    &["e/20261001-20261031/b/part_0_0001.csv"],
                ),
            ),
        ];
        let run = manifest_run(read, &blobs);
        assert_eq!(run.fingerprint, "run run-b manifest etag mb");
        assert_eq!(run.objects[0].key, "e/20261001-20261031/b/part_0_0001.csv");
    }

    #[test]
    fn a_manifest_blob_name_not_in_the_container_is_looked_for_beside_the_manifest() {
        let blobs = vec![
            blob("x/e/20261001-20261031/r/manifest.json", 1, "m"),
            blob("x/e/20261001-20261031/r/part0.csv", 1, "p"),
        ];
        let run = manifest_run(
            vec![(
                blobs[0].clone(),
                manifest(
                    "r",
                    "2026-11-02T06:00:01Z",
                    &[" folder/sample/ 0000/part0.csv"],
                ),
            )],
            &blobs,
        );
        assert_eq!(run.objects[0].key, "x/e/20261001-20261031/r/part0.csv");
        assert_eq!(run.objects[0].bytes, Some(100));
    }

    #[test]
    fn without_a_manifest_the_newest_file_or_run_folder_wins() {
        let blobs = vec![
            blob("d/e/20261001-20261031/e_aaa.csv", 1, "a"),
            blob("d/e/20261001-20261031/e_bbb.csv", 9, "b"),
            blob("d/e/20261001-20261031/e_ccc.csv", 4, "c"),
            blob("d/e/20261101-20261130/run1/part1.csv", 1, "r1a"),
            blob("d/e/20261101-20261130/run1/part2.csv", 1, "r1b"),
            blob("d/e/20261101-20261130/run2/part1.csv", 7, "r2a"),
            blob("d/e/20261101-20261130/run2/part2.csv", 8, "r2b"),
            blob("d/e/20261101-20261130/run2/_SUCCESS", 9, "s"),
        ];
        let plan = plan("d", &blobs, "loc").unwrap();
        let Choice::Files(october) = &plan[0].choice else {
            panic!()
        };
        assert_eq!(
            october.fingerprint,
            "d/e/20261001-20261031/e_bbb.csv etag b files 1"
        );
        assert_eq!(october.objects.len(), 1);
        let Choice::Files(november) = &plan[1].choice else {
            panic!()
        };
        assert_eq!(november.location, "d/e/20261101-20261130/run2");
        assert_eq!(
            november
                .objects
                .iter()
                .map(|o| o.key.as_str())
                .collect::<Vec<_>>(),
            [
                "d/e/20261101-20261130/run2/part1.csv",
                "d/e/20261101-20261130/run2/part2.csv"
            ]
        );
        assert_eq!(
            november.fingerprint,
            "d/e/20261101-20261130/run2/part2.csv etag r2b files 2"
        );
    }

    #[test]
    fn a_newer_manifest_run_beats_older_loose_files_and_the_reverse() {
        let older_files = vec![
            blob("e/20261001-20261031/e_old.csv", 1, "o"),
            blob("e/20261001-20261031/r/manifest.json", 5, "m"),
            blob("e/20261001-20261031/r/part_0_0001.csv", 5, "p"),
        ];
        let plan1 = plan("e", &older_files, "loc");
        // "e" is the directory here, so the export root is "e" itself.
        let plan1 = plan1.unwrap();
        assert!(matches!(plan1[0].choice, Choice::Manifests(_)));
        let newer_files = vec![
            blob("e/20261001-20261031/e_new.csv", 9, "n"),
            blob("e/20261001-20261031/r/manifest.json", 5, "m"),
            blob("e/20261001-20261031/r/part_0_0001.csv", 5, "p"),
        ];
        let plan2 = plan("e", &newer_files, "loc").unwrap();
        assert!(
            matches!(&plan2[0].choice, Choice::Files(r) if r.location == "e/20261001-20261031/e_new.csv")
        );
    }

    #[test]
    fn two_exports_under_one_directory_are_refused() {
        let blobs = vec![
            blob("d/actual/20261001-20261031/a.csv", 1, "a"),
            blob("d/amortized/20261001-20261031/b.csv", 1, "b"),
        ];
        let error = plan("d", &blobs, "https://a/c/d").unwrap_err();
        assert!(
            error.message.contains("d/actual, d/amortized"),
            "{}",
            error.message
        );
        assert!(error.message.contains("https://a/c/d"), "{}", error.message);
    }

    #[test]
    fn nothing_delivered_is_no_month() {
        assert!(plan("d", &[], "loc").unwrap().is_empty());
        let only_other = vec![
            blob("d/e/notes.txt", 1, "n"),
            blob("d/e/20261001-20261031/x.json", 1, "j"),
        ];
        assert!(plan("d", &only_other, "loc").unwrap().is_empty());
    }

    #[test]
    fn local_names_keep_the_extension() {
        assert_eq!(
            local_name(0, "a/b/part_0_0001.csv.gz"),
            "0001_part_0_0001.csv.gz"
        );
        assert_eq!(
            local_name(11, "a/b/c d?.snappy.parquet"),
            "0012_c_d_.snappy.parquet"
        );
        assert_eq!(local_name(0, "a/..csv"), "0001_csv");
    }

    #[test]
    fn the_documented_manifest_example_parses() {
        let text = r#"{
  "manifestVersion": "2024-04-01", "byteCount": 8032, "blobCount": 1, "dataRowCount": 36,
  "exportConfig": {"exportName": "sample", "type": "ActualCost", "timeFrame": "MonthToDate", "granularity": null},
  "deliveryConfig": {"partitionData": true, "dataOverwriteBehavior": "OverwritePreviousReport", "fileFormat": "Csv", "compressionMode": "None", "rootFolderPath": "folder"},
  "runInfo": {"executionType": "OnDemand", "submittedTime": "2025-03-21T21:04:06.5234447Z", "runId": "bbac73f1-9a05-4de6-84ab-c72b568a03b4", "startDate": "2025-03-01T00:00:00", "endDate": "2025-03-21T00:00:00Z"},
  "blobs": [{"blobName": "folder/sample/20250301-20250331/bbac73f1/part0.csv", "byteCount": 8032, "dataRowCount": 36}]
}"#;
        let manifest = Manifest::parse(format!("\u{feff}{text}").as_bytes()).unwrap();
        assert_eq!(manifest.blobs[0].byte_count, Some(8032));
        assert_eq!(
            manifest.submitted().unwrap().to_rfc3339(),
            "2025-03-21T21:04:06.523444700+00:00"
        );
        assert!(Manifest::parse(b"{\"files\": []}").is_err());
    }
}
