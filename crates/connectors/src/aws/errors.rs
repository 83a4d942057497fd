//! AWS SDK errors in words a person can act on: the AWS error code, what Costscope was doing,
//! and AWS's own message. Never a credential (the SDK's errors carry none; we add none).

use aws_sdk_s3::config::http::HttpResponse;
use aws_sdk_s3::error::{DisplayErrorContext, ProvideErrorMetadata, SdkError};

use crate::SourceError;

/// The parts of an SDK error the messages are made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AwsFailure {
    /// The AWS error code (`NoSuchBucket`, `AccessDenied`, …), or one made from the HTTP
    /// status when the answer had no body (`HeadObject`), or `None` when no answer came.
    pub code: Option<String>,
    /// AWS's message, or why no answer came.
    pub message: String,
    pub status: Option<u16>,
    /// Throttling, a 5xx, a timeout or a connection failure.
    pub retryable: bool,
}

const RETRYABLE_CODES: &[&str] = &[
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "TransactionInProgressException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "LimitExceededException",
    "RequestThrottled",
    "SlowDown",
    "PriorRequestNotComplete",
    "EC2ThrottledException",
    "RequestTimeout",
    "RequestTimeoutException",
    "InternalError",
    "InternalFailure",
    "ServiceUnavailable",
    "IDPCommunicationError",
];

impl AwsFailure {
    pub fn from_sdk<E>(err: &SdkError<E, HttpResponse>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
    {
        match err {
            SdkError::ServiceError(context) => {
                let status = context.raw().status().as_u16();
                let code = context.err().code().map(str::to_owned).or_else(|| {
                    Some(
                        match status {
                            301 => "PermanentRedirect",
                            400 => "BadRequest",
                            403 => "AccessDenied",
                            404 => "NotFound",
                            _ => return None,
                        }
                        .to_owned(),
                    )
                });
                let message = context
                    .err()
                    .message()
                    .map(str::to_owned)
                    .unwrap_or_else(|| format!("HTTP status {status}"));
                let retryable = status >= 500
                    || status == 429
                    || code
                        .as_deref()
                        .is_some_and(|code| RETRYABLE_CODES.contains(&code));
                Self {
                    code,
                    message,
                    status: Some(status),
                    retryable,
                }
            }
            SdkError::TimeoutError(_) => Self {
                code: None,
                message: "the request timed out".to_owned(),
                status: None,
                retryable: true,
            },
            SdkError::DispatchFailure(failure) => Self {
                code: None,
                message: format!("no answer: {}", DisplayErrorContext(err)),
                status: None,
                retryable: !failure.is_user(),
            },
            SdkError::ResponseError(_) => Self {
                code: None,
                message: format!("unreadable answer: {}", DisplayErrorContext(err)),
                status: err.raw_response().map(|r| r.status().as_u16()),
                retryable: true,
            },
            _ => Self {
                code: None,
                message: DisplayErrorContext(err).to_string(),
                status: None,
                retryable: false,
            },
        }
    }

    /// `Code: message` (or the message alone), retryable as the failure says.
    pub fn into_source_error(self, message: String) -> SourceError {
        SourceError {
            message,
            retryable: self.retryable,
        }
    }

    /// `Code: ` or nothing.
    pub fn code_prefix(&self) -> String {
        self.code
            .as_deref()
            .map(|code| format!("{code}: "))
            .unwrap_or_default()
    }
}

/// Where a request was going, for the messages.
pub(crate) struct S3Target<'a> {
    pub bucket: &'a str,
    /// `s3://bucket/key-or-prefix`.
    pub location: String,
    pub region: &'a str,
}

/// An S3 error as a person reads it.
pub(crate) fn s3_error<E>(err: &SdkError<E, HttpResponse>, target: &S3Target<'_>) -> SourceError
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    let failure = AwsFailure::from_sdk(err);
    let message = match failure.code.as_deref() {
        Some("NoSuchBucket") => format!("NoSuchBucket: bucket {} does not exist", target.bucket),
        Some("NoSuchKey") | Some("NotFound") => {
            format!("{}{} does not exist", failure.code_prefix(), target.location)
        }
        Some("AccessDenied") | Some("AllAccessDisabled") | Some("InvalidAccessKeyId")
        | Some("ExpiredToken") | Some("InvalidToken") | Some("SignatureDoesNotMatch") => format!(
            "{}the role may not read {}: {} (check the role's S3 permissions and the bucket policy)",
            failure.code_prefix(),
            target.location,
            failure.message
        ),
        Some("PermanentRedirect") | Some("AuthorizationHeaderMalformed")
        | Some("IllegalLocationConstraintException") => format!(
            "{}bucket {} is not in region {}: {}",
            failure.code_prefix(),
            target.bucket,
            target.region,
            failure.message
        ),
        Some(_) => format!(
            "{}{} (reading {})",
            failure.code_prefix(),
            failure.message,
            target.location
        ),
        None => format!("S3 could not be reached for {}: {}", target.location, failure.message),
    };
    failure.into_source_error(message)
}
