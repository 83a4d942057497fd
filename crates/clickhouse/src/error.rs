//! What can go wrong talking to ClickHouse. No message prints the password.

use std::time::Duration;

use crate::tsv::TsvError;
use crate::url::UrlError;
use crate::value::ValueError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Url(#[from] UrlError),
    #[error(transparent)]
    Value(#[from] ValueError),
    #[error(transparent)]
    Tsv(#[from] TsvError),
    /// ClickHouse refused the request; `message` is its own, code included, e.g.
    /// `Code: 60, e.displayText() = DB::Exception: Table test.x doesn't exist.`
    #[error("{message}")]
    Server {
        code: Option<u32>,
        status: u16,
        message: String,
    },
    #[error("ClickHouse at {server} did not answer within {timeout:?}")]
    Timeout { server: String, timeout: Duration },
    #[error("cannot reach ClickHouse at {server}: {reason}")]
    Transport { server: String, reason: String },
    #[error("unexpected answer from ClickHouse at {server}: {reason}")]
    Unexpected { server: String, reason: String },
}

impl Error {
    /// ClickHouse's error code (`Code: N`), when ClickHouse refused the request.
    pub fn code(&self) -> Option<u32> {
        match self {
            Error::Server { code, .. } => *code,
            _ => None,
        }
    }

    /// An error answer: ClickHouse's text without 18.16's `, e.what() = DB::Exception` tail.
    pub(crate) fn server(status: u16, body: &str) -> Self {
        let message = body.trim_end();
        let message = message
            .strip_suffix(", e.what() = DB::Exception")
            .unwrap_or(message)
            .to_owned();
        let code = message
            .strip_prefix("Code: ")
            .map(|rest| rest.bytes().take_while(u8::is_ascii_digit).count())
            .and_then(|digits| message["Code: ".len()..][..digits].parse().ok());
        let message = if message.is_empty() {
            format!("ClickHouse answered HTTP {status} without a message")
        } else {
            message
        };
        Error::Server {
            code,
            status,
            message,
        }
    }

    /// A failed request: a timeout, or the transport's reason with its causes (connection
    /// refused, …), without the request URL (it carries the SQL).
    pub(crate) fn transport(server: String, timeout: Duration, error: reqwest::Error) -> Self {
        if error.is_timeout() {
            return Error::Timeout { server, timeout };
        }
        let error = error.without_url();
        let mut reason = error.to_string();
        let mut source = std::error::Error::source(&error);
        while let Some(cause) = source {
            reason.push_str(": ");
            reason.push_str(&cause.to_string());
            source = cause.source();
        }
        Error::Transport { server, reason }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_errors_keep_clickhouse_message_and_code() {
        let e = Error::server(
            404,
            "Code: 60, e.displayText() = DB::Exception: Table test.x doesn't exist., e.what() = DB::Exception\n",
        );
        assert_eq!(e.code(), Some(60));
        assert_eq!(
            e.to_string(),
            "Code: 60, e.displayText() = DB::Exception: Table test.x doesn't exist."
        );
        // The form of current releases.
        let e = Error::server(
            404,
            "Code: 60. DB::Exception: Table test.x does not exist. (UNKNOWN_TABLE) (version 24.3.1)\n",
        );
        assert_eq!(e.code(), Some(60));
        assert!(e.to_string().ends_with("(UNKNOWN_TABLE) (version 24.3.1)"));
        let e = Error::server(502, "");
        assert_eq!(e.code(), None);
        assert_eq!(
            e.to_string(),
            "ClickHouse answered HTTP 502 without a message"
        );
    }
}
