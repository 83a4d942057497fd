//! The BigQuery REST v2 calls the connector makes: `jobs.query`, then `jobs.getQueryResults`
//! until the job is complete and every page is read; 429 and 5xx answers retried with growing
//! delays, a 401 once with a new token.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use reqwest::{Method, StatusCode, Url};
use serde::Deserialize;
use serde_json::{json, Value};

use super::rows::TableSchema;
use super::token::{shorten, without_url, TokenSource};
use crate::SourceError;

/// The most bytes one REST answer may have (BigQuery pages are at most about 10 MB).
const MAX_ANSWER_BYTES: usize = 64 * 1024 * 1024;

/// How often and how patiently calls are repeated.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Patience {
    /// Tries of one call (the first included) on 429 / 5xx / network errors.
    pub attempts: u32,
    /// The delay before the second try; doubled for each further try, up to `max_delay`.
    pub first_delay: Duration,
    pub max_delay: Duration,
    /// Rows per page asked for (`maxResults`).
    pub page_rows: u32,
    /// How long the server may hold one call waiting for the job (`timeoutMs`).
    pub wait_ms: u64,
    /// The longest a query may run before the connector gives up on it.
    pub max_query_time: Duration,
    /// The pause between two polls of an incomplete job.
    pub poll_interval: Duration,
}

impl Default for Patience {
    fn default() -> Self {
        Self {
            attempts: 5,
            first_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(30),
            page_rows: 10_000,
            wait_ms: 10_000,
            max_query_time: Duration::from_secs(30 * 60),
            poll_interval: Duration::from_millis(500),
        }
    }
}

/// A named query parameter (`@name`).
pub(crate) struct Param<'a> {
    pub name: &'a str,
    pub kind: &'a str,
    pub value: &'a str,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct QueryAnswer {
    #[serde(default)]
    schema: Option<TableSchema>,
    #[serde(default)]
    job_reference: Option<JobReference>,
    #[serde(default)]
    page_token: Option<String>,
    #[serde(default)]
    rows: Option<Vec<Value>>,
    #[serde(default)]
    job_complete: Option<bool>,
    #[serde(default)]
    errors: Option<Vec<ErrorProto>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct JobReference {
    job_id: String,
    #[serde(default)]
    location: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct ErrorProto {
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct ErrorAnswer {
    #[serde(default)]
    error: Option<ErrorBody>,
}

#[derive(Debug, Default, Deserialize)]
struct ErrorBody {
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    errors: Vec<ErrorProto>,
}

/// A BigQuery REST client for one service account.
pub(crate) struct BigQuery {
    http: reqwest::Client,
    base: String,
    tokens: TokenSource,
    pub patience: Patience,
}

/// One page of a query's rows.
pub(crate) struct Page {
    pub rows: Vec<Value>,
}

/// The pages of a completed query job, read one at a time.
pub(crate) struct Cursor<'a> {
    client: &'a BigQuery,
    project: String,
    job_id: String,
    location: Option<String>,
    pub schema: TableSchema,
    first: Option<Vec<Value>>,
    page_token: Option<String>,
}

impl<'a> Cursor<'a> {
    /// The next page, `None` after the last.
    pub(crate) async fn next_page(&mut self) -> Result<Option<Page>, SourceError> {
        if let Some(rows) = self.first.take() {
            return Ok(Some(Page { rows }));
        }
        let Some(token) = self.page_token.take() else {
            return Ok(None);
        };
        let answer = self
            .client
            .results(
                &self.project,
                &self.job_id,
                self.location.as_deref(),
                Some(&token),
            )
            .await?;
        self.page_token = answer.page_token.filter(|t| !t.is_empty());
        Ok(Some(Page {
            rows: answer.rows.unwrap_or_default(),
        }))
    }
}

static REQUEST_IDS: AtomicU64 = AtomicU64::new(0);

fn request_id() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!(
        "costscope-{nanos:x}-{}-{}",
        std::process::id(),
        REQUEST_IDS.fetch_add(1, Ordering::Relaxed)
    )
}

impl BigQuery {
    pub(crate) fn new(http: reqwest::Client, base: &str, tokens: TokenSource) -> Self {
        Self {
            http,
            base: base.trim_end_matches('/').to_owned(),
            tokens,
            patience: Patience::default(),
        }
    }

    pub(crate) fn tokens(&self) -> &TokenSource {
        &self.tokens
    }

    fn url(&self, segments: &[&str]) -> Result<Url, SourceError> {
        let mut url = Url::parse(&format!("{}/", self.base)).map_err(|_| {
            SourceError::new(format!("The BigQuery URL {:?} is not a URL", self.base))
        })?;
        {
            let mut path = url.path_segments_mut().map_err(|_| {
                SourceError::new(format!("The BigQuery URL {:?} is not a URL", self.base))
            })?;
            path.pop_if_empty();
            path.extend(["bigquery", "v2", "projects"]);
            path.extend(segments);
        }
        Ok(url)
    }

    /// Runs `sql` (standard SQL, named parameters) as a job of `project` and waits for it to
    /// complete; answers the cursor over its pages.
    pub(crate) async fn query(
        &self,
        project: &str,
        sql: &str,
        params: &[Param<'_>],
    ) -> Result<Cursor<'_>, SourceError> {
        let started = Instant::now();
        let parameters: Vec<Value> = params
            .iter()
            .map(|p| {
                json!({
                    "name": p.name,
                    "parameterType": {"type": p.kind},
                    "parameterValue": {"value": p.value},
                })
            })
            .collect();
        let body = json!({
            "query": sql,
            "useLegacySql": false,
            "parameterMode": "NAMED",
            "queryParameters": parameters,
            "timeoutMs": self.patience.wait_ms,
            "maxResults": self.patience.page_rows,
            "formatOptions": {"useInt64Timestamp": true},
            "requestId": request_id(),
        });
        let url = self.url(&[project, "queries"])?;
        let mut answer: QueryAnswer = self.call(Method::POST, url, Some(&body)).await?;
        let reference = answer.job_reference.clone().ok_or_else(|| {
            SourceError::new("BigQuery answered the query without a job reference")
        })?;
        while answer.job_complete != Some(true) {
            if started.elapsed() > self.patience.max_query_time {
                return Err(SourceError::retryable(format!(
                    "BigQuery did not finish the query within {} minutes",
                    self.patience.max_query_time.as_secs() / 60
                )));
            }
            tokio::time::sleep(self.patience.poll_interval).await;
            answer = self
                .results(
                    project,
                    &reference.job_id,
                    reference.location.as_deref(),
                    None,
                )
                .await?;
        }
        if answer.schema.is_none() {
            let message = answer
                .errors
                .unwrap_or_default()
                .into_iter()
                .find_map(|e| e.message)
                .unwrap_or_else(|| "BigQuery answered the query without a schema".to_owned());
            return Err(SourceError::new(shorten(&message, 500)));
        }
        Ok(Cursor {
            client: self,
            project: project.to_owned(),
            job_id: reference.job_id,
            location: reference.location,
            schema: answer.schema.unwrap_or_default(),
            first: Some(answer.rows.unwrap_or_default()),
            page_token: answer.page_token.filter(|t| !t.is_empty()),
        })
    }

    /// `jobs.getQueryResults`: the job's state, or a page of its rows.
    async fn results(
        &self,
        project: &str,
        job_id: &str,
        location: Option<&str>,
        page_token: Option<&str>,
    ) -> Result<QueryAnswer, SourceError> {
        let mut url = self.url(&[project, "queries", job_id])?;
        {
            let mut query = url.query_pairs_mut();
            query
                .append_pair("maxResults", &self.patience.page_rows.to_string())
                .append_pair("timeoutMs", &self.patience.wait_ms.to_string())
                .append_pair("formatOptions.useInt64Timestamp", "true");
            if let Some(location) = location {
                query.append_pair("location", location);
            }
            if let Some(token) = page_token {
                query.append_pair("pageToken", token);
            }
        }
        self.call(Method::GET, url, None).await
    }

    /// One REST call with the bearer token, retried on 429 / 5xx / network errors (and once
    /// on 401 with a new token).
    async fn call<T: for<'de> Deserialize<'de>>(
        &self,
        method: Method,
        url: Url,
        body: Option<&Value>,
    ) -> Result<T, SourceError> {
        let mut delay = self.patience.first_delay;
        let mut renewed_token = false;
        let mut attempt = 1;
        loop {
            let outcome = self.call_once(method.clone(), url.clone(), body).await;
            let error = match outcome {
                Ok(answer) => return Ok(answer),
                Err(Failure::Unauthorized(error)) if !renewed_token => {
                    renewed_token = true;
                    self.tokens.invalidate().await;
                    let _ = error;
                    continue;
                }
                Err(Failure::Unauthorized(error)) => return Err(error),
                Err(Failure::Final(error)) => return Err(error),
                Err(Failure::Retry(error)) => error,
            };
            if attempt >= self.patience.attempts.max(1) {
                tracing::warn!(attempts = attempt, error = %error.message, "BigQuery call gave up");
                return Err(error);
            }
            tracing::info!(attempt, error = %error.message, delay_ms = delay.as_millis() as u64, "BigQuery call retried");
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(self.patience.max_delay);
            attempt += 1;
        }
    }

    async fn call_once<T: for<'de> Deserialize<'de>>(
        &self,
        method: Method,
        url: Url,
        body: Option<&Value>,
    ) -> Result<T, Failure> {
        let token = self.tokens.token().await.map_err(|error| {
            if error.retryable {
                Failure::Retry(error)
            } else {
                Failure::Final(error)
            }
        })?;
        let mut request = self.http.request(method, url).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(body);
        }
        let mut answer = request.send().await.map_err(|error| {
            Failure::Retry(SourceError::retryable(format!(
                "Could not reach BigQuery at {}: {}",
                self.base,
                without_url(&error)
            )))
        })?;
        let status = answer.status();
        let mut bytes = Vec::new();
        loop {
            match answer.chunk().await {
                Ok(Some(chunk)) => {
                    if bytes.len() + chunk.len() > MAX_ANSWER_BYTES {
                        return Err(Failure::Final(SourceError::new(format!(
                            "BigQuery answered more than {} MiB in one page",
                            MAX_ANSWER_BYTES / (1024 * 1024)
                        ))));
                    }
                    bytes.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(error) => {
                    return Err(Failure::Retry(SourceError::retryable(format!(
                        "BigQuery's answer broke off: {}",
                        without_url(&error)
                    ))))
                }
            }
        }
        if status.is_success() {
            return serde_json::from_slice(&bytes).map_err(|error| {
                Failure::Final(SourceError::new(format!(
                    "BigQuery's answer is not in the documented form: {error}"
                )))
            });
        }
        let parsed: ErrorAnswer = serde_json::from_slice(&bytes).unwrap_or_default();
        let body = parsed.error.unwrap_or_default();
        let reasons: Vec<&str> = body
            .errors
            .iter()
            .filter_map(|e| e.reason.as_deref())
            .collect();
        let message = body
            .message
            .or_else(|| body.errors.iter().find_map(|e| e.message.clone()))
            .unwrap_or_else(|| {
                format!(
                    "BigQuery answered HTTP {} {}",
                    status.as_u16(),
                    status.canonical_reason().unwrap_or_default()
                )
            });
        let message = shorten(&message, 500);
        let throttled = reasons
            .iter()
            .any(|r| matches!(*r, "rateLimitExceeded" | "backendError" | "internalError"));
        if status == StatusCode::UNAUTHORIZED {
            Err(Failure::Unauthorized(SourceError::new(format!(
                "BigQuery refused the access token: {message}"
            ))))
        } else if status == StatusCode::TOO_MANY_REQUESTS
            || status.is_server_error()
            || (status == StatusCode::FORBIDDEN && throttled)
        {
            Err(Failure::Retry(SourceError::retryable(message)))
        } else {
            Err(Failure::Final(SourceError::new(message)))
        }
    }
}

enum Failure {
    Retry(SourceError),
    Unauthorized(SourceError),
    Final(SourceError),
}
