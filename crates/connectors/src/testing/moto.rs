//! moto in server mode (PyPI `moto[server]`, installed by `scripts/ensure-moto.sh`): a real
//! local AWS emulator (S3, STS, IAM, Organizations) that a test starts on a free port and that
//! stops when the handle is dropped. Helpers create buckets, objects, roles, organisations and
//! billing-export delivery layouts through moto's own API.
//!
//! moto checks neither signatures nor trust policies nor external ids: whatever role is
//! assumed, it answers credentials. The external id is checked by the connector's unit tests.

use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use aws_sdk_s3::primitives::ByteStream;
use chrono::{Months, NaiveDate};

use crate::aws::{AwsSdk, OrgAccount};
use crate::settings::AwsExportSettings;

/// The region every client of the emulator uses.
pub const MOTO_REGION: &str = "us-east-1";
/// moto's default account id.
pub const MOTO_ACCOUNT_ID: &str = "123456789012";

const INSTALL_HINT: &str = "run scripts/ensure-moto.sh";

/// A running moto server; killed on drop.
pub struct Moto {
    child: Child,
    endpoint: String,
    log: PathBuf,
    sdk: AwsSdk,
}

impl std::fmt::Debug for Moto {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Moto")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

/// `moto_server` of the venv `scripts/ensure-moto.sh` installs into.
pub fn moto_server_path() -> PathBuf {
    let venv = std::env::var_os("COSTSCOPE_MOTO_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| "/root".into()))
                .join(".cache/costscope-moto-venv")
        });
    venv.join("bin/moto_server")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("no free local port")
}

impl Moto {
    /// Starts moto on a free port and waits until it answers. Panics (failing the test) when
    /// moto is not installed: run `scripts/ensure-moto.sh`.
    pub fn start() -> Self {
        let server = moto_server_path();
        assert!(
            server.is_file(),
            "moto is not installed ({} not found): {INSTALL_HINT}",
            server.display()
        );
        let mut last_log = String::new();
        for _ in 0..5 {
            let port = free_port();
            let log = std::env::temp_dir()
                .join(format!("costscope-moto-{}-{port}.log", std::process::id()));
            let log_file = std::fs::File::create(&log).expect("moto log file");
            let mut child = Command::new(&server)
                .args(["-H", "127.0.0.1", "-p", &port.to_string()])
                .stdin(Stdio::null())
                .stdout(log_file.try_clone().expect("moto log file"))
                .stderr(log_file)
                .spawn()
                .unwrap_or_else(|err| {
                    panic!("{} cannot start ({err}): {INSTALL_HINT}", server.display())
                });
            let deadline = Instant::now() + Duration::from_secs(60);
            loop {
                if let Ok(Some(_)) = child.try_wait() {
                    // Exited: most likely another process took the port first.
                    last_log = std::fs::read_to_string(&log).unwrap_or_default();
                    let _ = std::fs::remove_file(&log);
                    break;
                }
                if moto_answers(port) {
                    let endpoint = format!("http://127.0.0.1:{port}");
                    let sdk = AwsSdk::for_endpoint(&endpoint, MOTO_REGION);
                    return Self {
                        child,
                        endpoint,
                        log,
                        sdk,
                    };
                }
                if Instant::now() > deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    last_log = std::fs::read_to_string(&log).unwrap_or_default();
                    let _ = std::fs::remove_file(&log);
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        panic!("moto_server did not start ({INSTALL_HINT}); its last output:\n{last_log}");
    }

    /// `http://127.0.0.1:<port>`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Costscope's identity against this emulator (static test credentials, path-style S3).
    pub fn sdk(&self) -> AwsSdk {
        self.sdk.clone()
    }

    /// Settings of an export in this emulator (region [`MOTO_REGION`]).
    pub fn export_settings(
        &self,
        role_arn: &str,
        external_id: &str,
        bucket: &str,
        prefix: &str,
        export_name: &str,
    ) -> AwsExportSettings {
        AwsExportSettings {
            role_arn: role_arn.to_owned(),
            external_id: external_id.to_owned(),
            bucket: bucket.to_owned(),
            prefix: prefix.to_owned(),
            export_name: export_name.to_owned(),
            region: MOTO_REGION.to_owned(),
        }
    }

    pub async fn create_bucket(&self, bucket: &str) {
        self.sdk
            .s3()
            .create_bucket()
            .bucket(bucket)
            .send()
            .await
            .unwrap_or_else(|err| panic!("moto: create bucket {bucket}: {err:?}"));
    }

    /// Puts an object from bytes; answers its ETag.
    pub async fn put_object(&self, bucket: &str, key: &str, body: impl Into<Vec<u8>>) -> String {
        let answer = self
            .sdk
            .s3()
            .put_object()
            .bucket(bucket)
            .key(key)
            .body(ByteStream::from(body.into()))
            .send()
            .await
            .unwrap_or_else(|err| panic!("moto: put s3://{bucket}/{key}: {err:?}"));
        answer.e_tag().unwrap_or_default().to_owned()
    }

    /// Puts an object streamed from a file; answers its ETag.
    pub async fn put_file(&self, bucket: &str, key: &str, path: &Path) -> String {
        let body = ByteStream::from_path(path)
            .await
            .unwrap_or_else(|err| panic!("moto: read {}: {err}", path.display()));
        let answer = self
            .sdk
            .s3()
            .put_object()
            .bucket(bucket)
            .key(key)
            .body(body)
            .send()
            .await
            .unwrap_or_else(|err| panic!("moto: put s3://{bucket}/{key}: {err:?}"));
        answer.e_tag().unwrap_or_default().to_owned()
    }

    pub async fn delete_object(&self, bucket: &str, key: &str) {
        self.sdk
            .s3()
            .delete_object()
            .bucket(bucket)
            .key(key)
            .send()
            .await
            .unwrap_or_else(|err| panic!("moto: delete s3://{bucket}/{key}: {err:?}"));
    }

    /// Creates an IAM role trusted by Costscope's account with `external_id` (moto stores the
    /// trust policy but does not enforce it); answers its ARN.
    pub async fn create_role(&self, name: &str, external_id: &str) -> String {
        let trust = format!(
            r#"{{"Version":"2012-10-17","Statement":[{{"Effect":"Allow","Principal":{{"AWS":"arn:aws:iam::{MOTO_ACCOUNT_ID}:root"}},"Action":"sts:AssumeRole","Condition":{{"StringEquals":{{"sts:ExternalId":"{external_id}"}}}}}}]}}"#
        );
        let answer = self
            .query(
                "iam",
                &[
                    ("Action", "CreateRole"),
                    ("Version", "2010-05-08"),
                    ("RoleName", name),
                    ("AssumeRolePolicyDocument", &trust),
                ],
            )
            .await;
        let arn = between(&answer, "<Arn>", "</Arn>")
            .unwrap_or_else(|| panic!("moto: CreateRole answered no ARN: {answer}"));
        arn.to_owned()
    }

    /// Creates the organisation of moto's account and `members` (name, email) in it; answers
    /// every account of the organisation (the management account included), by id.
    pub async fn create_organization(&self, members: &[(&str, &str)]) -> Vec<OrgAccount> {
        let client = self.sdk.organizations();
        client
            .create_organization()
            .feature_set(aws_sdk_organizations::types::OrganizationFeatureSet::All)
            .send()
            .await
            .unwrap_or_else(|err| panic!("moto: create organisation: {err:?}"));
        for (name, email) in members {
            client
                .create_account()
                .account_name(*name)
                .email(*email)
                .send()
                .await
                .unwrap_or_else(|err| panic!("moto: create account {name}: {err:?}"));
        }
        let mut accounts = Vec::new();
        let mut pages = client.list_accounts().into_paginator().send();
        while let Some(page) = pages.next().await {
            let page = page.unwrap_or_else(|err| panic!("moto: list accounts: {err:?}"));
            for account in page.accounts() {
                accounts.push(OrgAccount {
                    account_id: account.id().unwrap_or_default().to_owned(),
                    name: account.name().unwrap_or_default().to_owned(),
                });
            }
        }
        accounts.sort();
        accounts
    }

    /// The key of a data file of an AWS Data Export delivery for `month` (`YYYY-MM`).
    pub fn data_export_key(settings: &AwsExportSettings, month: &str, file_name: &str) -> String {
        format!("{}data/BILLING_PERIOD={month}/{file_name}", root(settings))
    }

    /// The key of the manifest of an AWS Data Export's `month` (`YYYY-MM`).
    pub fn data_export_manifest_key(settings: &AwsExportSettings, month: &str) -> String {
        format!(
            "{}metadata/BILLING_PERIOD={month}/{}-Manifest.json",
            root(settings),
            settings.export_name
        )
    }

    /// Delivers `month` (`YYYY-MM`) of an AWS Data Export as AWS does: the data files under
    /// `data/BILLING_PERIOD=YYYY-MM/` and then the manifest under `metadata/…` listing them,
    /// with a new execution id. Answers the manifest's key.
    pub async fn put_data_export(
        &self,
        settings: &AwsExportSettings,
        month: &str,
        files: &[(&str, &[u8])],
    ) -> String {
        let mut keys = Vec::new();
        for (name, body) in files {
            let key = Self::data_export_key(settings, month, name);
            self.put_object(&settings.bucket, &key, body.to_vec()).await;
            keys.push(key);
        }
        self.put_data_export_manifest(settings, month, &keys).await
    }

    /// Writes the manifest of an AWS Data Export's `month` listing `data_keys` (already put),
    /// with a new execution id. Answers its key.
    pub async fn put_data_export_manifest(
        &self,
        settings: &AwsExportSettings,
        month: &str,
        data_keys: &[String],
    ) -> String {
        let manifest = serde_json::json!({
            "version": "1.0",
            "exportArn": format!(
                "arn:aws:bcm-data-exports:{MOTO_REGION}:{MOTO_ACCOUNT_ID}:export/{}-{}",
                settings.export_name,
                "4f2a9c1e"
            ),
            "exportName": settings.export_name,
            "executionId": delivery_id(),
            "billingPeriod": month,
            "bucket": settings.bucket,
            "dataFiles": data_keys
                .iter()
                .map(|key| format!("s3://{}/{key}", settings.bucket))
                .collect::<Vec<_>>(),
            "columns": [
                {"name": "BilledCost", "type": "decimal"},
                {"name": "ChargePeriodStart", "type": "timestamp"}
            ],
        });
        let key = Self::data_export_manifest_key(settings, month);
        self.put_object(&settings.bucket, &key, manifest.to_string())
            .await;
        key
    }

    /// Delivers `month` (`YYYY-MM`) of a legacy Cost and Usage Report as AWS does: the files
    /// under `<yyyymmdd-yyyymmdd>/<assemblyId>/`, a copy of the manifest there, and the
    /// period's manifest `<yyyymmdd-yyyymmdd>/<report>-Manifest.json`. Answers its key.
    pub async fn put_cur_report(
        &self,
        settings: &AwsExportSettings,
        month: &str,
        files: &[(&str, &[u8])],
    ) -> String {
        let start = NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d")
            .unwrap_or_else(|err| panic!("month {month} is not YYYY-MM: {err}"));
        let end = start + Months::new(1);
        let range = format!("{}-{}", start.format("%Y%m%d"), end.format("%Y%m%d"));
        let assembly_id = delivery_id();
        let mut keys = Vec::new();
        for (name, body) in files {
            let key = format!("{}{range}/{assembly_id}/{name}", root(settings));
            self.put_object(&settings.bucket, &key, body.to_vec()).await;
            keys.push(key);
        }
        let manifest = serde_json::json!({
            "assemblyId": assembly_id,
            "account": MOTO_ACCOUNT_ID,
            "columns": [{"category": "lineItem", "name": "UnblendedCost", "type": "OptionalBigDecimal"}],
            "charset": "UTF-8",
            "compression": "GZIP",
            "contentType": "text/csv",
            "reportId": "b9d1c2e3f4a5",
            "reportName": settings.export_name,
            "billingPeriod": {
                "start": format!("{}T000000.000Z", start.format("%Y%m%d")),
                "end": format!("{}T000000.000Z", end.format("%Y%m%d")),
            },
            "bucket": settings.bucket,
            "reportKeys": keys,
            "additionalArtifactKeys": [],
        })
        .to_string();
        let copy = format!(
            "{}{range}/{assembly_id}/{}-Manifest.json",
            root(settings),
            settings.export_name
        );
        self.put_object(&settings.bucket, &copy, manifest.clone())
            .await;
        let key = format!(
            "{}{range}/{}-Manifest.json",
            root(settings),
            settings.export_name
        );
        self.put_object(&settings.bucket, &key, manifest).await;
        key
    }

    /// A query-protocol call (IAM) over plain HTTP; moto routes by the service named in the
    /// Authorization header's scope and checks no signature.
    async fn query(&self, service: &str, params: &[(&str, &str)]) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let body = params
            .iter()
            .map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let host = self.endpoint.trim_start_matches("http://");
        let request = format!(
            "POST / HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-www-form-urlencoded; charset=utf-8\r\nAuthorization: AWS4-HMAC-SHA256 Credential=testing/20260101/{MOTO_REGION}/{service}/aws4_request, SignedHeaders=host, Signature=0\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let mut stream = tokio::net::TcpStream::connect(host)
            .await
            .unwrap_or_else(|err| panic!("moto: connect {host}: {err}"));
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap();
        let answer = String::from_utf8_lossy(&answer).into_owned();
        assert!(
            answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.0 200"),
            "moto: {service} {params:?} failed: {answer}"
        );
        answer
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

fn root(settings: &AwsExportSettings) -> String {
    let prefix = settings.prefix.trim_matches('/');
    if prefix.is_empty() {
        format!("{}/", settings.export_name)
    } else {
        format!("{prefix}/{}/", settings.export_name)
    }
}

/// A fresh execution / assembly id (UUID-shaped).
fn delivery_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let mixed = (nanos as u64)
        ^ (u64::from(std::process::id()) << 32)
        ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        (mixed >> 32) as u32,
        (mixed >> 16) as u16,
        n & 0xfff,
        (mixed >> 4) & 0xfff,
        (mixed ^ n) & 0xffff_ffff_ffff
    )
}

fn form_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(&text[start..end])
}

/// Whether moto answers HTTP on `port`.
fn moto_answers(port: u16) -> bool {
    use std::io::Write;
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    if stream
        .write_all(
            b"GET /moto-api/data.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        )
        .is_err()
    {
        return false;
    }
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.")
}
