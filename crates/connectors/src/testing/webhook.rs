//! A local webhook receiver for tests: records every POST (path, headers, raw body) and
//! answers 200, or 500 for as many requests as it is told to fail. Checking signatures and
//! payloads is the test's job.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::Router;
use tokio::sync::Notify;

/// What the failing answers say.
pub const FAILURE_BODY: &str = "the receiver is told to fail";

/// One request as received.
#[derive(Debug, Clone)]
pub struct ReceivedRequest {
    pub path: String,
    /// Names lower-cased.
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
    /// The status the receiver answered.
    pub answered: u16,
}

impl ReceivedRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

#[derive(Default)]
struct Shared {
    requests: Mutex<Vec<ReceivedRequest>>,
    failures_left: Mutex<u32>,
    arrived: Notify,
}

pub struct WebhookReceiver {
    url: String,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for WebhookReceiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl WebhookReceiver {
    /// Listens on a free port of 127.0.0.1.
    pub async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the webhook receiver");
        let url = format!("http://{}", listener.local_addr().expect("local addr"));
        let shared = Arc::new(Shared::default());
        let router = Router::new().fallback(receive).with_state(shared.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Self { url, shared, task }
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }

    /// Answers 500 to the next `count` requests.
    pub fn fail_next(&self, count: u32) {
        *self.shared.failures_left.lock().expect("lock") = count;
    }

    /// Every request so far, in order of arrival.
    pub fn requests(&self) -> Vec<ReceivedRequest> {
        self.shared.requests.lock().expect("lock").clone()
    }

    /// Waits (up to 20 s) until `count` requests have arrived; answers them all.
    pub async fn wait_for(&self, count: usize) -> Vec<ReceivedRequest> {
        let waiting = async {
            loop {
                let arrived = self.shared.arrived.notified();
                let requests = self.requests();
                if requests.len() >= count {
                    return requests;
                }
                arrived.await;
            }
        };
        tokio::time::timeout(Duration::from_secs(20), waiting)
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "{count} webhook requests expected within 20 s, {} arrived",
                    self.requests().len()
                )
            })
    }
}

async fn receive(
    State(shared): State<Arc<Shared>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> (StatusCode, &'static str) {
    let fail = {
        let mut left = shared.failures_left.lock().expect("lock");
        let fail = *left > 0;
        *left = left.saturating_sub(1);
        fail
    };
    let (status, answer) = if fail {
        (StatusCode::INTERNAL_SERVER_ERROR, FAILURE_BODY)
    } else {
        (StatusCode::OK, "ok")
    };
    let headers = headers
        .iter()
        .filter_map(|(name, value)| {
            Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
        })
        .collect();
    shared.requests.lock().expect("lock").push(ReceivedRequest {
        path: uri.path().to_owned(),
        headers,
        body: body.to_vec(),
        answered: status.as_u16(),
    });
    shared.arrived.notify_waiters();
    (status, answer)
}
