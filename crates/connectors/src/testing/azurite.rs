//! Azurite, the Azure Storage emulator (npm `azurite`, installed into
//! `~/.cache/costscope-azurite` by `scripts/ensure-azurite.sh`), started on a free port for a
//! test and killed when dropped; plus a small stand-in of the Microsoft identity platform's
//! token endpoint for the service-principal path.
//!
//! Blobs are created through the Blob REST API with an account SAS signed with the emulator's
//! well-known development key. [`Azurite::start_https_oauth`] runs Azurite over HTTPS with a
//! certificate made for the test (openssl) and `--oauth basic`, where it accepts bearer tokens
//! (it checks their issuer, audience and lifetime, not their signature) — what
//! [`IdentityPlatform`] hands out.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use sha2::Sha256;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The emulator's development account.
pub const DEV_ACCOUNT: &str = "devstoreaccount1";
/// Its well-known key (published with the emulator; not a secret).
pub const DEV_ACCOUNT_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A running Azurite blob service.
pub struct Azurite {
    child: tokio::process::Child,
    location: tempfile::TempDir,
    port: u16,
    https: bool,
    certificate_pem: Option<String>,
    http: reqwest::Client,
    admin_sas: String,
}

impl std::fmt::Debug for Azurite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Azurite")
            .field("endpoint", &self.blob_endpoint())
            .finish()
    }
}

/// Where `scripts/ensure-azurite.sh` installs Azurite.
pub fn azurite_dir() -> PathBuf {
    match std::env::var_os("COSTSCOPE_AZURITE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => {
            let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
            Path::new(&home).join(".cache/costscope-azurite")
        }
    }
}

impl Azurite {
    /// Azurite over plain HTTP (SAS and shared key only). Panics, saying to run
    /// `scripts/ensure-azurite.sh`, when Azurite is not installed.
    pub async fn start() -> Azurite {
        Self::launch(false).await
    }

    /// Azurite over HTTPS with a certificate made for this test and `--oauth basic`: it then
    /// also accepts bearer tokens such as [`IdentityPlatform`]'s. Use [`Azurite::http_client`]
    /// (which trusts the certificate) to talk to it.
    pub async fn start_https_oauth() -> Azurite {
        Self::launch(true).await
    }

    async fn launch(https: bool) -> Azurite {
        let bin = azurite_dir().join("node_modules/.bin/azurite-blob");
        if !bin.exists() {
            panic!(
                "Azurite is not installed ({} is missing): run scripts/ensure-azurite.sh",
                bin.display()
            );
        }
        let location = tempfile::tempdir().expect("temp dir for Azurite");
        let mut certificate_pem = None;
        let mut tls_args: Vec<String> = Vec::new();
        if https {
            let (cert, key, ca) = make_certificate(location.path());
            certificate_pem = Some(std::fs::read_to_string(&ca).expect("read the test CA"));
            tls_args = vec![
                "--cert".into(),
                cert.display().to_string(),
                "--key".into(),
                key.display().to_string(),
                "--oauth".into(),
                "basic".into(),
            ];
        }
        let mut http = reqwest::Client::builder().timeout(Duration::from_secs(60));
        if let Some(pem) = &certificate_pem {
            http = http.add_root_certificate(
                reqwest::Certificate::from_pem(pem.as_bytes()).expect("the test CA is PEM"),
            );
        }
        let http = http.build().expect("HTTP client");
        let admin_sas = account_sas(
            DEV_ACCOUNT,
            DEV_ACCOUNT_KEY,
            "rwdlacup",
            Utc::now() + chrono::Duration::days(1),
        );

        let mut last_error = String::new();
        for _ in 0..3 {
            let port = free_port();
            let data = location.path().join(format!("data-{port}"));
            std::fs::create_dir_all(&data).expect("Azurite data dir");
            let log_path = location.path().join(format!("azurite-{port}.log"));
            let log = std::fs::File::create(&log_path).expect("Azurite log file");
            let mut command = tokio::process::Command::new(&bin);
            command
                .arg("--blobHost")
                .arg("127.0.0.1")
                .arg("--blobPort")
                .arg(port.to_string())
                .arg("--location")
                .arg(&data)
                .arg("--skipApiVersionCheck")
                .arg("--loose")
                .arg("--silent")
                .args(&tls_args)
                .stdin(Stdio::null())
                .stdout(Stdio::from(log.try_clone().expect("log file")))
                .stderr(Stdio::from(log))
                .kill_on_drop(true);
            let mut child = command
                .spawn()
                .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
            let scheme = if https { "https" } else { "http" };
            let url = format!("{scheme}://127.0.0.1:{port}/{DEV_ACCOUNT}?comp=list&{admin_sas}");
            let started = Instant::now();
            let mut up = false;
            while started.elapsed() < Duration::from_secs(60) {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                if http.get(&url).send().await.is_ok() {
                    up = true;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            if !up {
                let _ = child.start_kill();
                let _ = child.wait().await;
                last_error = std::fs::read_to_string(&log_path).unwrap_or_default();
                continue;
            }
            return Azurite {
                child,
                location,
                port,
                https,
                certificate_pem,
                http,
                admin_sas,
            };
        }
        panic!("Azurite did not start (tried 3 ports): {last_error}");
    }

    /// The folder Azurite keeps its data and log in (removed on drop).
    pub fn location(&self) -> &Path {
        self.location.path()
    }

    /// `http(s)://127.0.0.1:<port>/devstoreaccount1`.
    pub fn blob_endpoint(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://127.0.0.1:{}/{DEV_ACCOUNT}", self.port)
    }

    pub fn account(&self) -> &'static str {
        DEV_ACCOUNT
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// A client that trusts the HTTPS certificate of [`Azurite::start_https_oauth`].
    pub fn http_client(&self) -> reqwest::Client {
        self.http.clone()
    }

    /// The PEM of the certificate authority that signed the HTTPS certificate.
    pub fn certificate_pem(&self) -> Option<&str> {
        self.certificate_pem.as_deref()
    }

    /// An account SAS for the blob service (containers and objects), valid for a day, with
    /// `permissions` (`rl`: read and list, what an export reader needs).
    pub fn sas_token(&self, permissions: &str) -> String {
        account_sas(
            DEV_ACCOUNT,
            DEV_ACCOUNT_KEY,
            permissions,
            Utc::now() + chrono::Duration::days(1),
        )
    }

    fn url(&self, container: &str, blob: Option<&str>, query: &str) -> String {
        let mut url = format!("{}/{}", self.blob_endpoint(), container);
        if let Some(blob) = blob {
            let path: Vec<String> = blob
                .split('/')
                .map(|s| utf8_percent_encode(s, COMPONENT).to_string())
                .collect();
            url.push('/');
            url.push_str(&path.join("/"));
        }
        url.push('?');
        if !query.is_empty() {
            url.push_str(query);
            url.push('&');
        }
        url.push_str(&self.admin_sas);
        url
    }

    /// Creates `container` (an existing one is fine).
    pub async fn create_container(&self, container: &str) {
        let response = self
            .http
            .put(self.url(container, None, "restype=container"))
            .header("x-ms-version", "2021-12-02")
            .header("content-length", "0")
            .send()
            .await
            .expect("create container");
        let status = response.status();
        if !(status.is_success() || status.as_u16() == 409) {
            panic!(
                "create container {container}: HTTP {status}: {}",
                response.text().await.unwrap_or_default()
            );
        }
    }

    /// Writes a block blob (replacing one of the same name).
    pub async fn upload(&self, container: &str, blob: &str, bytes: impl Into<Vec<u8>>) {
        let bytes: Vec<u8> = bytes.into();
        let len = bytes.len();
        self.put_blob(container, blob, reqwest::Body::from(bytes), len as u64)
            .await;
    }

    /// Writes a block blob from a file, streamed.
    pub async fn upload_file(&self, container: &str, blob: &str, path: &Path) {
        let file = tokio::fs::File::open(path)
            .await
            .unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
        let len = file.metadata().await.expect("file size").len();
        self.put_blob(container, blob, reqwest::Body::from(file), len)
            .await;
    }

    async fn put_blob(&self, container: &str, blob: &str, body: reqwest::Body, len: u64) {
        let response = self
            .http
            .put(self.url(container, Some(blob), ""))
            .header("x-ms-version", "2021-12-02")
            .header("x-ms-blob-type", "BlockBlob")
            .header("content-length", len.to_string())
            .body(body)
            .send()
            .await
            .unwrap_or_else(|e| panic!("upload {container}/{blob}: {e}"));
        let status = response.status();
        if !status.is_success() {
            panic!(
                "upload {container}/{blob}: HTTP {status}: {}",
                response.text().await.unwrap_or_default()
            );
        }
    }

    /// Deletes a blob.
    pub async fn delete_blob(&self, container: &str, blob: &str) {
        let response = self
            .http
            .delete(self.url(container, Some(blob), ""))
            .header("x-ms-version", "2021-12-02")
            .send()
            .await
            .unwrap_or_else(|e| panic!("delete {container}/{blob}: {e}"));
        assert!(
            response.status().is_success(),
            "delete {container}/{blob}: HTTP {}",
            response.status()
        );
    }
}

impl Drop for Azurite {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// An account SAS query string (`sv=…&sig=…`) for the blob service, signed with `key_base64`.
pub fn account_sas(
    account: &str,
    key_base64: &str,
    permissions: &str,
    expiry: DateTime<Utc>,
) -> String {
    let version = "2018-11-09";
    let services = "b";
    let resource_types = "sco";
    let protocol = "https,http";
    let expiry = expiry.format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let to_sign = format!(
        "{account}\n{permissions}\n{services}\n{resource_types}\n\n{expiry}\n\n{protocol}\n{version}\n"
    );
    let key = STANDARD.decode(key_base64).expect("the key is base64");
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("any key length");
    mac.update(to_sign.as_bytes());
    let signature = STANDARD.encode(mac.finalize().into_bytes());
    format!(
        "sv={version}&ss={services}&srt={resource_types}&sp={permissions}&se={}&spr={}&sig={}",
        utf8_percent_encode(&expiry, COMPONENT),
        utf8_percent_encode(protocol, COMPONENT),
        utf8_percent_encode(&signature, COMPONENT),
    )
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A test CA and a server certificate for 127.0.0.1 signed by it (openssl): (cert, key, ca).
fn make_certificate(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let run = |args: &[&str]| {
        let output = std::process::Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap_or_else(|e| panic!("openssl is needed for Azurite over HTTPS: {e}"));
        assert!(
            output.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
    )
    .expect("write server.ext");
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"];
    let mut ca = vec![
        "req",
        "-x509",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=Costscope test CA",
    ];
    ca.extend(ec);
    ca.extend(["-keyout", "ca.key", "-out", "ca.pem"]);
    run(&ca);
    let mut csr = vec!["req", "-new", "-nodes", "-subj", "/CN=127.0.0.1"];
    csr.extend(ec);
    csr.extend(["-keyout", "server.key", "-out", "server.csr"]);
    run(&csr);
    run(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "server.ext",
        "-out",
        "server.pem",
    ]);
    (
        dir.join("server.pem"),
        dir.join("server.key"),
        dir.join("ca.pem"),
    )
}

/// One request the [`IdentityPlatform`] stand-in received.
#[derive(Debug, Clone)]
pub struct TokenRequest {
    pub path: String,
    pub form: HashMap<String, String>,
}

/// A stand-in of the Microsoft identity platform's token endpoint
/// (`POST /{tenant}/oauth2/v2.0/token`, client credentials), answering as Entra ID does: an
/// access token for Azure Storage (a JWT Azurite's `--oauth basic` accepts) to the one known
/// client with the right secret; `invalid_client` (AADSTS7000215) to a wrong secret,
/// `unauthorized_client` (AADSTS700016) to an unknown client, `invalid_request` (AADSTS90002)
/// to an unknown tenant.
pub struct IdentityPlatform {
    port: u16,
    requests: Arc<Mutex<Vec<TokenRequest>>>,
    task: tokio::task::JoinHandle<()>,
}

impl IdentityPlatform {
    pub async fn start(tenant_id: &str, client_id: &str, client_secret: &str) -> IdentityPlatform {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let known = Arc::new((
            tenant_id.to_owned(),
            client_id.to_owned(),
            client_secret.to_owned(),
        ));
        let seen = requests.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let seen = seen.clone();
                let known = known.clone();
                tokio::spawn(async move {
                    let Some((path, body)) = read_request(&mut socket).await else {
                        return;
                    };
                    let form = parse_form(&body);
                    seen.lock().unwrap().push(TokenRequest {
                        path: path.clone(),
                        form: form.clone(),
                    });
                    let (status, answer) = token_answer(&known.0, &known.1, &known.2, &path, &form);
                    let reply = format!(
                        "HTTP/1.1 {status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                        answer.len()
                    );
                    let _ = socket.write_all(reply.as_bytes()).await;
                    let _ = socket.shutdown().await;
                });
            }
        });
        IdentityPlatform {
            port,
            requests,
            task,
        }
    }

    /// What goes in `[cloud] azure_authority_url`: `http://127.0.0.1:<port>`.
    pub fn authority_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn requests(&self) -> Vec<TokenRequest> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for IdentityPlatform {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn read_request(socket: &mut tokio::net::TcpStream) -> Option<(String, String)> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    let header_end = loop {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
        if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if buffer.len() > 1 << 20 {
            return None;
        }
    };
    let head = String::from_utf8_lossy(&buffer[..header_end]).into_owned();
    let mut lines = head.split("\r\n");
    let request_line = lines.next()?;
    let path = request_line.split(' ').nth(1)?.to_owned();
    let length: usize = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0);
    while buffer.len() < header_end + length {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    let body = String::from_utf8_lossy(&buffer[header_end..]).into_owned();
    Some((path, body))
}

fn parse_form(body: &str) -> HashMap<String, String> {
    body.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| {
                percent_encoding::percent_decode_str(&s.replace('+', " "))
                    .decode_utf8_lossy()
                    .into_owned()
            };
            (decode(k), decode(v))
        })
        .collect()
}

fn token_answer(
    tenant: &str,
    client: &str,
    secret: &str,
    path: &str,
    form: &HashMap<String, String>,
) -> (&'static str, String) {
    let refusal = |status: &'static str, error: &str, description: String| {
        (
            status,
            serde_json::json!({
                "error": error,
                "error_description": format!("{description}\r\nTrace ID: 0b1c2d3e-0000-0000-0000-000000000000\r\nCorrelation ID: 00000000-0000-0000-0000-000000000000\r\nTimestamp: {}", Utc::now().format("%Y-%m-%d %H:%M:%SZ")),
                "error_codes": [],
            })
            .to_string(),
        )
    };
    let expected = format!("/{tenant}/oauth2/v2.0/token");
    if path != expected {
        let asked = path.trim_start_matches('/').split('/').next().unwrap_or("");
        return refusal(
            "400 Bad Request",
            "invalid_request",
            format!("AADSTS90002: Tenant '{asked}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud."),
        );
    }
    if form.get("grant_type").map(String::as_str) != Some("client_credentials") {
        return refusal(
            "400 Bad Request",
            "unsupported_grant_type",
            "AADSTS70003: The app requested an unsupported grant type.".into(),
        );
    }
    if form.get("client_id").map(String::as_str) != Some(client) {
        return refusal(
            "400 Bad Request",
            "unauthorized_client",
            format!(
                "AADSTS700016: Application with identifier '{}' was not found in the directory '{tenant}'.",
                form.get("client_id").cloned().unwrap_or_default()
            ),
        );
    }
    if form.get("client_secret").map(String::as_str) != Some(secret) {
        return refusal(
            "401 Unauthorized",
            "invalid_client",
            format!("AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '{client}'."),
        );
    }
    if form.get("scope").map(String::as_str) != Some("https://storage.azure.com/.default") {
        return refusal(
            "400 Bad Request",
            "invalid_scope",
            "AADSTS70011: The provided value for the input parameter 'scope' is not valid.".into(),
        );
    }
    let now = Utc::now().timestamp();
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let claims = URL_SAFE_NO_PAD.encode(
        serde_json::json!({
            "aud": "https://storage.azure.com",
            "iss": format!("https://sts.windows.net/{tenant}/"),
            "iat": now - 5,
            "nbf": now - 5,
            "exp": now + 3600,
            "appid": client,
            "tid": tenant,
            "ver": "1.0",
        })
        .to_string(),
    );
    let mut mac = Hmac::<Sha256>::new_from_slice(b"identity platform stand-in").expect("key");
    mac.update(format!("{header}.{claims}").as_bytes());
    let signature = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
    (
        "200 OK",
        serde_json::json!({
            "token_type": "Bearer",
            "expires_in": 3599,
            "ext_expires_in": 3599,
            "access_token": format!("{header}.{claims}.{signature}"),
        })
        .to_string(),
    )
}
