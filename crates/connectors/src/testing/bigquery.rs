//! A small local stand-in for Google's OAuth2 token endpoint and BigQuery's `jobs.query` /
//! `jobs.getQueryResults` (no BigQuery emulator exists), for tests only.
//!
//! It holds one Cloud Billing export table (rows given as objects in the export's JSON shape,
//! like a line of the newline-delimited export) and answers in BigQuery's documented JSON
//! shapes: `schema`, rows in `f`/`v` form, `totalRows`, `pageToken`, `jobReference`,
//! `jobComplete` false on the first call(s) then true. It understands only the two queries the
//! GCP connector sends (the month list with `COUNT(*)`, and the columns of one
//! `invoice.month = @month`); it is not a SQL engine.
//!
//! The token endpoint checks the JWT-bearer assertion like Google does: grant type, RS256
//! signature with the public half of [`BigQueryStandIn::key_json`], `iss`, `aud`, `scope`, and
//! a lifetime of at most one hour. Every BigQuery call needs a token it issued and not expired.
//! The key pair is made with `openssl genpkey` (the `openssl` command must be installed).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{json, Value};

use crate::settings::GcpExportSettings;

/// The table a stand-in holds unless told otherwise.
pub const DEFAULT_TABLE: &str =
    "costscope-demo.billing_export.gcp_billing_export_v1_012345_ABCDEF_678901";
/// The dataset location jobs run in.
const LOCATION: &str = "US";
const CLIENT_EMAIL: &str = "costscope-reader@costscope-demo.iam.gserviceaccount.com";
const READONLY_SCOPE: &str = "https://www.googleapis.com/auth/bigquery.readonly";

/// The export table's schema (standard export, plus the detailed export's `resource`).
fn export_schema() -> Value {
    let key_value = json!([
        {"name": "key", "type": "STRING", "mode": "NULLABLE"},
        {"name": "value", "type": "STRING", "mode": "NULLABLE"}
    ]);
    json!([
        {"name": "billing_account_id", "type": "STRING", "mode": "NULLABLE"},
        {"name": "service", "type": "RECORD", "mode": "NULLABLE", "fields": [
            {"name": "id", "type": "STRING", "mode": "NULLABLE"},
            {"name": "description", "type": "STRING", "mode": "NULLABLE"}]},
        {"name": "sku", "type": "RECORD", "mode": "NULLABLE", "fields": [
            {"name": "id", "type": "STRING", "mode": "NULLABLE"},
            {"name": "description", "type": "STRING", "mode": "NULLABLE"}]},
        {"name": "usage_start_time", "type": "TIMESTAMP", "mode": "NULLABLE"},
        {"name": "usage_end_time", "type": "TIMESTAMP", "mode": "NULLABLE"},
        {"name": "project", "type": "RECORD", "mode": "NULLABLE", "fields": [
            {"name": "id", "type": "STRING", "mode": "NULLABLE"},
            {"name": "number", "type": "STRING", "mode": "NULLABLE"},
            {"name": "name", "type": "STRING", "mode": "NULLABLE"},
            {"name": "labels", "type": "RECORD", "mode": "REPEATED", "fields": key_value},
            {"name": "ancestry_numbers", "type": "STRING", "mode": "NULLABLE"}]},
        {"name": "labels", "type": "RECORD", "mode": "REPEATED", "fields": key_value},
        {"name": "system_labels", "type": "RECORD", "mode": "REPEATED", "fields": key_value},
        {"name": "location", "type": "RECORD", "mode": "NULLABLE", "fields": [
            {"name": "location", "type": "STRING", "mode": "NULLABLE"},
            {"name": "country", "type": "STRING", "mode": "NULLABLE"},
            {"name": "region", "type": "STRING", "mode": "NULLABLE"},
            {"name": "zone", "type": "STRING", "mode": "NULLABLE"}]},
        {"name": "resource", "type": "RECORD", "mode": "NULLABLE", "fields": [
            {"name": "name", "type": "STRING", "mode": "NULLABLE"},
            {"name": "global_name", "type": "STRING", "mode": "NULLABLE"}]},
        {"name": "export_time", "type": "TIMESTAMP", "mode": "NULLABLE"},
        {"name": "cost", "type": "FLOAT", "mode": "NULLABLE"},
        {"name": "currency", "type": "STRING", "mode": "NULLABLE"},
        {"name": "currency_conversion_rate", "type": "FLOAT", "mode": "NULLABLE"},
        {"name": "usage", "type": "RECORD", "mode": "NULLABLE", "fields": [
            {"name": "amount", "type": "FLOAT", "mode": "NULLABLE"},
            {"name": "unit", "type": "STRING", "mode": "NULLABLE"},
            {"name": "amount_in_pricing_units", "type": "FLOAT", "mode": "NULLABLE"},
            {"name": "pricing_unit", "type": "STRING", "mode": "NULLABLE"}]},
        {"name": "credits", "type": "RECORD", "mode": "REPEATED", "fields": [
            {"name": "name", "type": "STRING", "mode": "NULLABLE"},
            {"name": "amount", "type": "FLOAT", "mode": "NULLABLE"},
            {"name": "full_name", "type": "STRING", "mode": "NULLABLE"},
            {"name": "id", "type": "STRING", "mode": "NULLABLE"},
            {"name": "type", "type": "STRING", "mode": "NULLABLE"}]},
        {"name": "invoice", "type": "RECORD", "mode": "NULLABLE", "fields": [
            {"name": "month", "type": "STRING", "mode": "NULLABLE"}]},
        {"name": "cost_type", "type": "STRING", "mode": "NULLABLE"},
        {"name": "cost_at_list", "type": "FLOAT", "mode": "NULLABLE"}
    ])
}

/// A finished (or still "running") query job.
struct Job {
    project: String,
    fields: Value,
    rows: Vec<Value>,
    polls_left: u32,
}

#[derive(Default)]
struct Inner {
    rows: Vec<Value>,
    missing_columns: Vec<String>,
    token_lifetime_secs: u64,
    tokens: HashMap<String, Instant>,
    incomplete_polls: u32,
    failures: VecDeque<u16>,
    jobs: HashMap<String, Job>,
    token_requests: u64,
    query_requests: u64,
    results_requests: u64,
    queries: Vec<String>,
    next_id: u64,
}

struct Shared {
    table: String,
    token_uri: String,
    public_key: DecodingKey,
    inner: Mutex<Inner>,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The running stand-in; stops when dropped.
pub struct BigQueryStandIn {
    url: String,
    shared: Arc<Shared>,
    key_json: String,
    foreign_key_json: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for BigQueryStandIn {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl BigQueryStandIn {
    /// Starts on a free port with [`DEFAULT_TABLE`] holding `rows`.
    pub async fn start(rows: Vec<Value>) -> Self {
        Self::start_on(0, DEFAULT_TABLE, rows).await
    }

    /// Starts on `127.0.0.1:port` (0: a free one) with `table` holding `rows`.
    pub async fn start_on(port: u16, table: &str, rows: Vec<Value>) -> Self {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .unwrap_or_else(|e| panic!("BigQuery stand-in cannot listen on port {port}: {e}"));
        let port = listener.local_addr().expect("local addr").port();
        let url = format!("http://127.0.0.1:{port}");
        let token_uri = format!("{url}/token");
        let (private_pem, public_pem) = rsa_key_pair();
        let (foreign_pem, _) = rsa_key_pair();
        let project_id = table.split('.').next().unwrap_or("costscope-demo");
        let key_json = key_file(project_id, "standin-key-1", &private_pem, &token_uri);
        let foreign_key_json = key_file(project_id, "standin-key-2", &foreign_pem, &token_uri);
        let shared = Arc::new(Shared {
            table: table.to_owned(),
            token_uri,
            public_key: DecodingKey::from_rsa_pem(public_pem.as_bytes())
                .expect("openssl's public key"),
            inner: Mutex::new(Inner {
                rows,
                token_lifetime_secs: 3600,
                incomplete_polls: 1,
                ..Inner::default()
            }),
        });
        let router = Router::new()
            .route("/token", post(token))
            .route("/bigquery/v2/projects/{project}/queries", post(jobs_query))
            .route(
                "/bigquery/v2/projects/{project}/queries/{job_id}",
                get(get_query_results),
            )
            .with_state(shared.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Self {
            url,
            shared,
            key_json,
            foreign_key_json,
            task,
        }
    }

    /// The BigQuery base URL (config `[cloud] bigquery_url`).
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// The token endpoint (the key's `token_uri`).
    pub fn token_uri(&self) -> String {
        self.shared.token_uri.clone()
    }

    /// `project.dataset.table` of the export table it holds.
    pub fn table(&self) -> String {
        self.shared.table.clone()
    }

    /// The table's project.
    pub fn project_id(&self) -> String {
        self.shared
            .table
            .split('.')
            .next()
            .unwrap_or_default()
            .to_owned()
    }

    /// Connection settings for its table.
    pub fn settings(&self) -> GcpExportSettings {
        GcpExportSettings {
            project_id: self.project_id(),
            table: self.table(),
            billing_project_id: None,
        }
    }

    /// A service-account key file the token endpoint accepts (`token_uri` pointing here).
    pub fn key_json(&self) -> String {
        self.key_json.clone()
    }

    /// A key file with the same identity but another private key: its assertions are
    /// refused with `invalid_grant`.
    pub fn foreign_key_json(&self) -> String {
        self.foreign_key_json.clone()
    }

    /// Replaces the table's rows.
    pub fn set_rows(&self, rows: Vec<Value>) {
        self.shared.lock().rows = rows;
    }

    /// Appends rows to the table (a later delivery of the export).
    pub fn add_rows(&self, rows: Vec<Value>) {
        self.shared.lock().rows.extend(rows);
    }

    /// The table lacks these columns (e.g. `resource` in a standard export): a query naming
    /// one answers "Unrecognized name: …".
    pub fn drop_columns(&self, columns: &[&str]) {
        self.shared
            .lock()
            .missing_columns
            .extend(columns.iter().map(|c| (*c).to_owned()));
    }

    /// The next `times` BigQuery calls (not token requests) answer `status` (503, 429, 500…).
    pub fn fail_next(&self, times: usize, status: u16) {
        self.shared
            .lock()
            .failures
            .extend(std::iter::repeat_n(status, times));
    }

    /// How many calls answer `jobComplete: false` before a job is complete (default 1: the
    /// `jobs.query` answer; 0: complete at once).
    pub fn set_incomplete_polls(&self, polls: u32) {
        self.shared.lock().incomplete_polls = polls;
    }

    /// The `expires_in` of tokens issued from now on (default 3600).
    pub fn set_token_lifetime(&self, seconds: u64) {
        self.shared.lock().token_lifetime_secs = seconds;
    }

    /// Forgets every token issued so far: the next BigQuery call with one answers 401.
    pub fn revoke_tokens(&self) {
        self.shared.lock().tokens.clear();
    }

    /// Token requests received (accepted or not).
    pub fn token_requests(&self) -> u64 {
        self.shared.lock().token_requests
    }

    /// `jobs.query` calls received (failed ones included).
    pub fn query_requests(&self) -> u64 {
        self.shared.lock().query_requests
    }

    /// `jobs.getQueryResults` calls received (failed ones included).
    pub fn results_requests(&self) -> u64 {
        self.shared.lock().results_requests
    }

    /// The SQL of every `jobs.query` call, in order.
    pub fn queries(&self) -> Vec<String> {
        self.shared.lock().queries.clone()
    }
}

/// A new RSA key pair from `openssl genpkey`: (PKCS#8 private PEM, SPKI public PEM).
fn rsa_key_pair() -> (String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let missing = |e: std::io::Error| -> ! {
        panic!(
            "the BigQuery stand-in makes its test key with the `openssl` command, which could \
             not be run ({e}); install it (Debian: apt-get install openssl)"
        )
    };
    let private = Command::new("openssl")
        .args([
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
        ])
        .stderr(Stdio::null())
        .output()
        .unwrap_or_else(|e| missing(e));
    assert!(private.status.success(), "openssl genpkey failed");
    let private_pem = String::from_utf8(private.stdout).expect("PEM text");
    let mut child = Command::new("openssl")
        .args(["pkey", "-pubout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| missing(e));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(private_pem.as_bytes())
        .expect("write to openssl");
    let public = child.wait_with_output().expect("openssl pkey");
    assert!(public.status.success(), "openssl pkey -pubout failed");
    (
        private_pem,
        String::from_utf8(public.stdout).expect("PEM text"),
    )
}

fn key_file(project_id: &str, key_id: &str, private_pem: &str, token_uri: &str) -> String {
    serde_json::to_string_pretty(&json!({
        "type": "service_account",
        "project_id": project_id,
        "private_key_id": key_id,
        "private_key": private_pem,
        "client_email": CLIENT_EMAIL,
        "client_id": "100000000000000000001",
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": token_uri,
        "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
        "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/costscope-reader",
        "universe_domain": "googleapis.com"
    }))
    .expect("key JSON")
}

// ---------------------------------------------------------------- token endpoint

#[derive(serde::Deserialize)]
struct Assertion {
    iss: String,
    scope: String,
    iat: u64,
    exp: u64,
}

fn oauth_error(error: &str, description: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({"error": error, "error_description": description})),
    )
        .into_response()
}

async fn token(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    shared.lock().token_requests += 1;
    let form: HashMap<String, String> = url_form(&body);
    if form.get("grant_type").map(String::as_str)
        != Some("urn:ietf:params:oauth:grant-type:jwt-bearer")
    {
        return oauth_error("unsupported_grant_type", "Invalid grant_type");
    }
    let Some(assertion) = form.get("assertion") else {
        return oauth_error("invalid_request", "Missing required parameter: assertion");
    };
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[shared.token_uri.as_str()]);
    validation.set_required_spec_claims(&["exp", "aud", "iss"]);
    let claims = match jsonwebtoken::decode::<Assertion>(assertion, &shared.public_key, &validation)
    {
        Ok(data) => data.claims,
        Err(error) => {
            use jsonwebtoken::errors::ErrorKind;
            let description = match error.kind() {
                ErrorKind::InvalidSignature => "Invalid JWT Signature.",
                ErrorKind::InvalidAudience => "Invalid JWT: aud is not the token endpoint",
                ErrorKind::ExpiredSignature => "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
                _ => "Invalid JWT.",
            };
            return oauth_error("invalid_grant", description);
        }
    };
    if claims.iss != CLIENT_EMAIL {
        return oauth_error("invalid_grant", "Invalid grant: account not found");
    }
    if claims.exp < claims.iat || claims.exp - claims.iat > 3600 {
        return oauth_error(
            "invalid_grant",
            "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
        );
    }
    if !claims.scope.split(' ').any(|s| s == READONLY_SCOPE) {
        return oauth_error(
            "invalid_scope",
            "The scope does not include BigQuery read access",
        );
    }
    let mut inner = shared.lock();
    inner.next_id += 1;
    let token = format!("ya29.standin-token-{}", inner.next_id);
    let lifetime = inner.token_lifetime_secs;
    inner.tokens.insert(
        token.clone(),
        Instant::now() + Duration::from_secs(lifetime),
    );
    Json(json!({"access_token": token, "expires_in": lifetime, "token_type": "Bearer"}))
        .into_response()
}

/// `a=b&c=d` (form-urlencoded) as a map.
fn url_form(body: &[u8]) -> HashMap<String, String> {
    let text = String::from_utf8_lossy(body);
    text.split('&')
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=')?;
            Some((decode_component(name), decode_component(value)))
        })
        .collect()
}

fn decode_component(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                match u8::from_str_radix(hex, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

// ---------------------------------------------------------------- BigQuery

fn bq_error(status: StatusCode, reason: &str, message: &str) -> Response {
    let status_name = match status.as_u16() {
        400 => "INVALID_ARGUMENT",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        429 => "RESOURCE_EXHAUSTED",
        503 => "UNAVAILABLE",
        _ => "INTERNAL",
    };
    (
        status,
        Json(json!({"error": {
            "code": status.as_u16(),
            "message": message,
            "errors": [{"message": message, "domain": "global", "reason": reason}],
            "status": status_name,
        }})),
    )
        .into_response()
}

/// The bearer token check and the injected failures every BigQuery call goes through.
fn gate(shared: &Shared, headers: &HeaderMap) -> Option<Response> {
    let mut inner = shared.lock();
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let valid = token
        .and_then(|t| inner.tokens.get(t))
        .is_some_and(|expires| Instant::now() < *expires);
    if !valid {
        return Some(bq_error(
            StatusCode::UNAUTHORIZED,
            "authError",
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        ));
    }
    let status = inner.failures.pop_front()?;
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
    Some(match status.as_u16() {
        429 => bq_error(
            status,
            "rateLimitExceeded",
            "Exceeded rate limits: too many api requests per user per method for this user_method",
        ),
        503 => bq_error(
            status,
            "backendError",
            "The service is currently unavailable.",
        ),
        _ => bq_error(
            status,
            "backendError",
            "Error encountered during execution. Retrying may solve the problem.",
        ),
    })
}

async fn jobs_query(
    State(shared): State<Arc<Shared>>,
    Path(project): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    shared.lock().query_requests += 1;
    if let Some(refusal) = gate(&shared, &headers) {
        return refusal;
    }
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return bq_error(
            StatusCode::BAD_REQUEST,
            "parseError",
            "Parse error: the body is not JSON",
        );
    };
    let sql = request["query"].as_str().unwrap_or_default().to_owned();
    shared.lock().queries.push(sql.clone());
    if request["useLegacySql"] != json!(false) {
        return bq_error(
            StatusCode::BAD_REQUEST,
            "invalidQuery",
            "The stand-in answers standard SQL only (useLegacySql: false)",
        );
    }
    let (fields, rows) = match plan(&shared, &sql, &request["queryParameters"]) {
        Ok(planned) => planned,
        Err(refusal) => return refusal,
    };
    let page_rows = request["maxResults"].as_u64().map(|n| n as usize);
    let int64 = request["formatOptions"]["useInt64Timestamp"] == json!(true);
    let mut inner = shared.lock();
    inner.next_id += 1;
    let job_id = format!("job_standin_{}", inner.next_id);
    let polls = inner.incomplete_polls;
    let job = Job {
        project: project.clone(),
        fields,
        rows,
        polls_left: polls.saturating_sub(1),
    };
    if polls > 0 {
        inner.jobs.insert(job_id.clone(), job);
        return Json(json!({
            "kind": "bigquery#queryResponse",
            "jobReference": {"projectId": project, "jobId": job_id, "location": LOCATION},
            "jobComplete": false,
        }))
        .into_response();
    }
    let answer = page(&job, &job_id, "bigquery#queryResponse", 0, page_rows, int64);
    inner.jobs.insert(job_id, job);
    Json(answer).into_response()
}

async fn get_query_results(
    State(shared): State<Arc<Shared>>,
    Path((project, job_id)): Path<(String, String)>,
    Query(params): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    shared.lock().results_requests += 1;
    if let Some(refusal) = gate(&shared, &headers) {
        return refusal;
    }
    let mut inner = shared.lock();
    let location = params.get("location").map(String::as_str).unwrap_or("");
    let Some(job) = inner
        .jobs
        .get_mut(&job_id)
        .filter(|job| job.project == project && location == LOCATION)
    else {
        return bq_error(
            StatusCode::NOT_FOUND,
            "notFound",
            &format!("Not found: Job {project}:{location}.{job_id}"),
        );
    };
    if job.polls_left > 0 {
        job.polls_left -= 1;
        return Json(json!({
            "kind": "bigquery#getQueryResultsResponse",
            "jobReference": {"projectId": project, "jobId": job_id, "location": LOCATION},
            "jobComplete": false,
        }))
        .into_response();
    }
    let offset = match params.get("pageToken") {
        None => 0,
        Some(token) => match token
            .strip_prefix("standin-page-")
            .and_then(|n| n.parse::<usize>().ok())
        {
            Some(offset) => offset,
            None => return bq_error(StatusCode::BAD_REQUEST, "invalid", "Invalid page token"),
        },
    };
    let page_rows = params
        .get("maxResults")
        .and_then(|n| n.parse::<usize>().ok());
    let int64 = params
        .get("formatOptions.useInt64Timestamp")
        .is_some_and(|v| v == "true");
    let job = &inner.jobs[&job_id];
    Json(page(
        job,
        &job_id,
        "bigquery#getQueryResultsResponse",
        offset,
        page_rows,
        int64,
    ))
    .into_response()
}

/// A complete answer with the rows from `offset`.
fn page(
    job: &Job,
    job_id: &str,
    kind: &str,
    offset: usize,
    page_rows: Option<usize>,
    int64: bool,
) -> Value {
    let end = match page_rows {
        Some(n) => (offset + n.max(1)).min(job.rows.len()),
        None => job.rows.len(),
    };
    let start = offset.min(end);
    let fields = job.fields.as_array().cloned().unwrap_or_default();
    let rows: Vec<Value> = job.rows[start..end]
        .iter()
        .map(|row| record(&fields, row, int64))
        .collect();
    let mut answer = json!({
        "kind": kind,
        "schema": {"fields": job.fields},
        "jobReference": {"projectId": job.project, "jobId": job_id, "location": LOCATION},
        "totalRows": job.rows.len().to_string(),
        "jobComplete": true,
        "totalBytesProcessed": "0",
        "cacheHit": false,
    });
    if !rows.is_empty() {
        answer["rows"] = Value::Array(rows);
    }
    if end < job.rows.len() {
        answer["pageToken"] = json!(format!("standin-page-{end}"));
    }
    answer
}

/// An export-shaped object as BigQuery's `{"f": [{"v": …}]}`.
fn record(fields: &[Value], object: &Value, int64: bool) -> Value {
    let cells: Vec<Value> = fields
        .iter()
        .map(|field| {
            let name = field["name"].as_str().unwrap_or_default();
            json!({"v": cell(field, object.get(name).unwrap_or(&Value::Null), int64)})
        })
        .collect();
    json!({ "f": cells })
}

fn cell(field: &Value, value: &Value, int64: bool) -> Value {
    if field["mode"] == "REPEATED" {
        let items = value.as_array().cloned().unwrap_or_default();
        let single =
            json!({"name": field["name"], "type": field["type"], "fields": field["fields"]});
        return Value::Array(
            items
                .iter()
                .map(|item| json!({"v": cell(&single, item, int64)}))
                .collect(),
        );
    }
    if value.is_null() {
        return Value::Null;
    }
    match field["type"].as_str().unwrap_or_default() {
        "RECORD" => record(
            field["fields"].as_array().map(Vec::as_slice).unwrap_or(&[]),
            value,
            int64,
        ),
        "TIMESTAMP" => {
            let text = value.as_str().unwrap_or_default();
            let Some(at) = parse_time(text) else {
                return Value::Null;
            };
            let micros = at.timestamp_micros();
            if int64 {
                json!(micros.to_string())
            } else {
                json!(format!("{:E}", micros as f64 / 1e6))
            }
        }
        "FLOAT" => match value.as_f64() {
            // BigQuery writes small and large floats with an exponent.
            Some(f) if f != 0.0 && (f.abs() < 1e-4 || f.abs() >= 1e15) => json!(format!("{f:E}")),
            Some(f) => json!(f.to_string()),
            None => json!(value.as_str().unwrap_or_default()),
        },
        _ => match value {
            Value::String(text) => json!(text),
            other => json!(other.to_string()),
        },
    }
}

fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .ok()
        .or_else(|| {
            chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S")
                .ok()
                .map(|t| t.and_utc())
        })
}

/// The schema and rows of the query: the month list, or one month's columns.
fn plan(shared: &Shared, sql: &str, parameters: &Value) -> Result<(Value, Vec<Value>), Response> {
    let inner = shared.lock();
    let table = sql.split('`').nth(1).ok_or_else(|| {
        bq_error(
            StatusCode::BAD_REQUEST,
            "invalidQuery",
            "Syntax error: the stand-in expects the table quoted with backticks",
        )
    })?;
    if table != shared.table {
        let shown = match table.rsplitn(3, '.').collect::<Vec<_>>().as_slice() {
            [name, dataset, project] => format!("{project}:{dataset}.{name}"),
            _ => table.to_owned(),
        };
        return Err(bq_error(
            StatusCode::NOT_FOUND,
            "notFound",
            &format!("Not found: Table {shown} was not found in location {LOCATION}"),
        ));
    }
    let month_of = |row: &Value| row["invoice"]["month"].as_str().map(str::to_owned);
    if sql.contains("COUNT(*)") {
        let mut months: std::collections::BTreeMap<String, (u64, Option<DateTime<Utc>>)> =
            Default::default();
        for row in &inner.rows {
            let Some(month) = month_of(row) else { continue };
            let entry = months.entry(month).or_default();
            entry.0 += 1;
            let export = row["export_time"].as_str().and_then(parse_time);
            entry.1 = entry.1.max(export);
        }
        let fields = json!([
            {"name": "month", "type": "STRING", "mode": "NULLABLE"},
            {"name": "row_count", "type": "INTEGER", "mode": "NULLABLE"},
            {"name": "last_export_time", "type": "TIMESTAMP", "mode": "NULLABLE"}
        ]);
        let rows = months
            .into_iter()
            .map(|(month, (count, last))| {
                json!({
                    "month": month,
                    "row_count": count,
                    "last_export_time": last.map(|t| t.to_rfc3339()),
                })
            })
            .collect();
        return Ok((fields, rows));
    }
    // SELECT a, b, c FROM `table` WHERE invoice.month = @month
    let select = sql
        .split_once("SELECT ")
        .and_then(|(_, rest)| rest.split_once(" FROM "))
        .map(|(columns, _)| columns)
        .ok_or_else(|| {
            bq_error(
                StatusCode::BAD_REQUEST,
                "invalidQuery",
                "Syntax error: the stand-in expects SELECT columns FROM `table`",
            )
        })?;
    let schema = export_schema();
    let all = schema.as_array().cloned().unwrap_or_default();
    let mut fields = Vec::new();
    for column in select.split(',').map(str::trim) {
        let known = all
            .iter()
            .find(|f| f["name"] == column)
            .filter(|_| !inner.missing_columns.iter().any(|m| m == column));
        match known {
            Some(field) => fields.push(field.clone()),
            None => {
                let at = sql.find(column).unwrap_or(0) + 1;
                return Err(bq_error(
                    StatusCode::BAD_REQUEST,
                    "invalidQuery",
                    &format!("Unrecognized name: {column} at [1:{at}]"),
                ));
            }
        }
    }
    let month = if sql.contains("invoice.month = @month") {
        let value = parameters
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["name"] == "month"))
            .and_then(|p| p["parameterValue"]["value"].as_str())
            .ok_or_else(|| {
                bq_error(
                    StatusCode::BAD_REQUEST,
                    "invalidQuery",
                    "Query parameter 'month' not found at [1:1]",
                )
            })?;
        Some(value.to_owned())
    } else {
        None
    };
    let rows = inner
        .rows
        .iter()
        .filter(|row| month.is_none() || month_of(row) == month)
        .cloned()
        .collect();
    Ok((Value::Array(fields), rows))
}
