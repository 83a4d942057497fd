//! A JSON POST to a webhook URL (Slack and Teams Workflows incoming webhooks, signed webhooks).
//!
//! A webhook URL usually carries its own credentials (Slack's and Teams' do, in the path), so
//! no error this module makes names the URL; redirects are not followed (a 3xx is an answer
//! like any other that is not 2xx).

use std::time::Duration;

use reqwest::redirect::Policy;

/// How much of a refusing receiver's body an error quotes, in characters.
const EXCERPT_CHARS: usize = 200;
/// How much of it is read at most, in bytes.
const EXCERPT_READ_BYTES: usize = 4096;

#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// The receiver answered with a status other than 2xx.
    #[error("the receiver answered {status}{}", excerpt_suffix(.excerpt))]
    Status { status: String, excerpt: String },
    #[error("no answer within {0} s")]
    TimedOut(u64),
    /// No connection to the receiver's host (refused, unreachable, DNS): the host and the
    /// innermost cause, which is the one that says what happened.
    #[error("could not connect to {host}: {reason}")]
    Connect { host: String, reason: String },
    /// Not sent or no answer read (DNS, connection, TLS, a header the client refused); the
    /// cause chain without the URL.
    #[error("the request failed: {0}")]
    Request(String),
}

fn excerpt_suffix(excerpt: &str) -> String {
    if excerpt.is_empty() {
        String::new()
    } else {
        format!(": {excerpt}")
    }
}

/// Sends webhook requests with a time limit. Cheap to clone.
#[derive(Debug, Clone)]
pub struct WebhookClient {
    client: reqwest::Client,
    timeout: Duration,
}

impl WebhookClient {
    /// A client whose requests (connection, request, answer) take at most `timeout`.
    ///
    /// # Panics
    /// Like `reqwest::Client::new`, when the TLS backend cannot be initialised.
    pub fn new(timeout: Duration) -> Self {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(Policy::none())
            .user_agent(concat!("Costscope/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("the HTTP client builds (rustls, default roots)");
        Self { client, timeout }
    }

    /// POSTs `body` (JSON) to `url` with `headers`; `Ok` when the receiver answered 2xx.
    #[tracing::instrument(skip_all)]
    pub async fn post_json(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> Result<(), WebhookError> {
        let mut request = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let mut response = request.send().await.map_err(|err| self.failure(url, err))?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let mut read = Vec::new();
        while read.len() < EXCERPT_READ_BYTES {
            match response.chunk().await {
                Ok(Some(chunk)) => read.extend_from_slice(&chunk),
                Ok(None) | Err(_) => break,
            }
        }
        Err(WebhookError::Status {
            status: status.to_string(),
            excerpt: excerpt(&read),
        })
    }

    fn failure(&self, url: &str, err: reqwest::Error) -> WebhookError {
        if err.is_timeout() {
            WebhookError::TimedOut(self.timeout.as_secs().max(1))
        } else if err.is_connect() {
            WebhookError::Connect {
                host: host_and_port(url),
                reason: innermost_cause(&err),
            }
        } else {
            WebhookError::Request(cause_chain(&err.without_url()))
        }
    }
}

/// `host:port` of `url` (never its path or query, which may hold the webhook's credentials).
pub(crate) fn host_and_port(url: &str) -> String {
    reqwest::Url::parse(url)
        .ok()
        .and_then(|url| {
            let host = url.host_str()?.to_owned();
            Some(match url.port_or_known_default() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            })
        })
        .unwrap_or_else(|| "the receiver".to_owned())
}

/// The last error of the source chain (an OS error such as "Connection refused").
pub(crate) fn innermost_cause(err: &(dyn std::error::Error + 'static)) -> String {
    let mut innermost = err;
    while let Some(cause) = innermost.source() {
        innermost = cause;
    }
    innermost.to_string()
}

/// The error and its sources, `: `-separated (reqwest's own message says little).
pub(crate) fn cause_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// The start of a body on one line, cut at [`EXCERPT_CHARS`].
fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= EXCERPT_CHARS {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(EXCERPT_CHARS).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::webhook::WebhookReceiver;

    fn client() -> WebhookClient {
        WebhookClient::new(Duration::from_secs(5))
    }

    #[tokio::test]
    async fn posts_the_json_body_with_the_headers() {
        let receiver = WebhookReceiver::start().await;
        client()
            .post_json(
                &receiver.url("/hooks/T0/secret"),
                &[("X-Costscope-Event", "budget_alert".to_owned())],
                br#"{"text":"hi"}"#.to_vec(),
            )
            .await
            .unwrap();
        let requests = receiver.wait_for(1).await;
        assert_eq!(requests[0].path, "/hooks/T0/secret");
        assert_eq!(requests[0].header("content-type"), Some("application/json"));
        assert_eq!(
            requests[0].header("x-costscope-event"),
            Some("budget_alert")
        );
        assert_eq!(requests[0].body, br#"{"text":"hi"}"#);
        assert_eq!(requests[0].answered, 200);
    }

    #[tokio::test]
    async fn a_refusal_names_the_status_and_the_start_of_the_body_but_not_the_url() {
        let receiver = WebhookReceiver::start().await;
        receiver.fail_next(1);
        let err = client()
            .post_json(&receiver.url("/hooks/secret-token"), &[], b"{}".to_vec())
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the receiver answered 500 Internal Server Error: the receiver is told to fail"
        );
        client()
            .post_json(&receiver.url("/hooks/secret-token"), &[], b"{}".to_vec())
            .await
            .unwrap();

        // Nothing listens on port 9: refused, and the error does not carry the URL.
        let err = client()
            .post_json("http://127.0.0.1:9/hooks/secret-token", &[], b"{}".to_vec())
            .await
            .unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("could not connect to 127.0.0.1:9: Connection refused"),
            "{text}"
        );
        assert!(!text.contains("secret-token"), "{text}");
    }

    #[test]
    fn an_excerpt_is_one_line_and_short() {
        assert_eq!(excerpt(b"  invalid\n  payload  "), "invalid payload");
        let long = "x".repeat(500);
        let cut = excerpt(long.as_bytes());
        assert_eq!(cut.chars().count(), 201);
        assert!(cut.ends_with('…'));
    }
}
