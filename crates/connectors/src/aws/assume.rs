//! STS AssumeRole into a customer's role with the tenant's external id. Every S3 and
//! Organizations call of the connector runs with the credentials this answers.

use std::fmt;
use std::time::{Duration, SystemTime};

use aws_sdk_s3::config::Credentials;
use aws_sdk_sts::operation::assume_role::builders::AssumeRoleFluentBuilder;

use super::errors::AwsFailure;
use super::{AwsSdk, ASSUME_ROLE_SESSION_NAME};
use crate::settings::AwsExportSettings;
use crate::SourceError;

/// How long an assumed session lasts (the default maximum of a role).
const SESSION_SECONDS: i32 = 3600;

/// Credentials are assumed again when they expire within this margin.
const REFRESH_MARGIN: Duration = Duration::from_secs(300);

/// A customer's role and the tenant's external id: what every AssumeRole call needs (the
/// export sync, the organisation's accounts and resource discovery all assume it alike).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwsRole {
    pub role_arn: String,
    /// The tenant's external id: every AssumeRole call carries it.
    pub external_id: String,
}

impl From<&AwsExportSettings> for AwsRole {
    fn from(settings: &AwsExportSettings) -> Self {
        Self {
            role_arn: settings.role_arn.clone(),
            external_id: settings.external_id.clone(),
        }
    }
}

/// The one place an AssumeRole request is built: the role, the tenant's external id and the
/// session name, always together.
pub(crate) fn assume_role_request(
    sts: &aws_sdk_sts::Client,
    role: &AwsRole,
) -> AssumeRoleFluentBuilder {
    sts.assume_role()
        .role_arn(&role.role_arn)
        .external_id(&role.external_id)
        .role_session_name(ASSUME_ROLE_SESSION_NAME)
        .duration_seconds(SESSION_SECONDS)
}

/// An assumed role's temporary credentials (never printed).
#[derive(Clone)]
pub(crate) struct AssumedRole {
    pub credentials: Credentials,
    pub expires: Option<SystemTime>,
}

impl fmt::Debug for AssumedRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AssumedRole")
            .field("expires", &self.expires)
            .finish_non_exhaustive()
    }
}

impl AssumedRole {
    /// Whether these credentials should be replaced before the next request.
    pub fn expiring(&self) -> bool {
        self.expires
            .is_some_and(|at| at <= SystemTime::now() + REFRESH_MARGIN)
    }
}

/// Assumes `settings.role_arn` with the external id, through STS with Costscope's identity
/// (in the export's region when Costscope's identity has none).
pub(crate) async fn assume_role(
    sdk: &AwsSdk,
    settings: &AwsExportSettings,
) -> Result<AssumedRole, SourceError> {
    assume(sdk, &AwsRole::from(settings), &settings.region).await
}

/// Assumes `role` with its external id, through STS with Costscope's identity (in
/// `fallback_region` when Costscope's identity has no region).
pub(crate) async fn assume(
    sdk: &AwsSdk,
    role: &AwsRole,
    fallback_region: &str,
) -> Result<AssumedRole, SourceError> {
    if role.role_arn.trim().is_empty() {
        return Err(SourceError::new(
            "No role to assume: the connection has no IAM role ARN",
        ));
    }
    let sts = sdk.sts(fallback_region);
    let output = assume_role_request(&sts, role)
        .send()
        .await
        .map_err(|err| {
            let failure = AwsFailure::from_sdk(&err);
            let message = match failure.code.as_deref() {
                Some(_) => format!(
                    "{}role {} cannot be assumed with the tenant's external id: {} (check the role's trust policy: it must trust Costscope's account with this external id)",
                    failure.code_prefix(),
                    role.role_arn,
                    failure.message
                ),
                None => format!(
                    "STS could not be reached to assume role {}: {}",
                    role.role_arn, failure.message
                ),
            };
            failure.into_source_error(message)
        })?;
    let Some(issued) = output.credentials() else {
        return Err(SourceError::new(format!(
            "STS answered no credentials for role {}",
            role.role_arn
        )));
    };
    let expires = SystemTime::try_from(*issued.expiration()).ok();
    Ok(AssumedRole {
        credentials: Credentials::new(
            issued.access_key_id(),
            issued.secret_access_key(),
            Some(issued.session_token().to_owned()),
            expires,
            "costscope-assume-role",
        ),
        expires,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> AwsExportSettings {
        AwsExportSettings {
            role_arn: "arn:aws:iam::123456789012:role/CostscopeReadOnly".into(),
            external_id: "cs-tenant-7f3a9c".into(),
            bucket: "costscope-exports".into(),
            prefix: "exports".into(),
            export_name: "focus".into(),
            region: "us-east-1".into(),
        }
    }

    #[test]
    fn an_assumed_role_never_prints_its_credentials() {
        let role = AssumedRole {
            credentials: Credentials::new(
                "ASIAEXAMPLEKEYID0001",
                "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                Some("FwoGZXIvYXdzEXAMPLESESSIONTOKEN".into()),
                None,
                "test",
            ),
            expires: None,
        };
        let printed = format!("{role:?}");
        for secret in [
            "ASIAEXAMPLEKEYID0001",
            "wJalrXUtnFEMI",
            "FwoGZXIvYXdzEXAMPLESESSIONTOKEN",
        ] {
            assert!(!printed.contains(secret), "{printed}");
        }
        assert!(!role.expiring());
    }

    #[test]
    fn the_assume_role_request_carries_the_external_id_role_and_session_name() {
        let sdk = AwsSdk::for_endpoint("http://127.0.0.1:9", "us-east-1");
        let sts = sdk.sts("us-east-1");
        let request = assume_role_request(&sts, &AwsRole::from(&settings()));
        assert_eq!(
            request.get_external_id().as_deref(),
            Some("cs-tenant-7f3a9c")
        );
        assert_eq!(
            request.get_role_arn().as_deref(),
            Some("arn:aws:iam::123456789012:role/CostscopeReadOnly")
        );
        assert_eq!(
            request.get_role_session_name().as_deref(),
            Some(ASSUME_ROLE_SESSION_NAME)
        );
    }

    /// What goes on the wire: a local listener records the AssumeRole request and answers
    /// 403, so this also checks the message of a role that cannot be assumed. (moto, which
    /// the integration tests use, checks neither trust policies nor external ids; this is
    /// where the external id is checked.)
    #[tokio::test]
    async fn assume_role_sends_the_external_id_and_reports_a_refusal() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                let n = socket.read(&mut buf).await.unwrap();
                request.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&request);
                if let Some(head_end) = text.find("\r\n\r\n") {
                    let length = text[..head_end]
                        .lines()
                        .find_map(|l| {
                            let (name, value) = l.split_once(':')?;
                            name.eq_ignore_ascii_case("content-length")
                                .then(|| value.trim().parse::<usize>().ok())?
                        })
                        .unwrap_or(0);
                    if request.len() >= head_end + 4 + length {
                        break;
                    }
                }
                if n == 0 {
                    break;
                }
            }
            let body = "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User: arn:aws:iam::999999999999:user/costscope is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::123456789012:role/CostscopeReadOnly</Message></Error><RequestId>1</RequestId></ErrorResponse>";
            let answer = format!(
                "HTTP/1.1 403 Forbidden\r\ncontent-type: text/xml\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            socket.write_all(answer.as_bytes()).await.unwrap();
            String::from_utf8_lossy(&request).into_owned()
        });

        let sdk = AwsSdk::for_endpoint(&endpoint, "us-east-1");
        let err = assume_role(&sdk, &settings()).await.unwrap_err();
        let request = server.await.unwrap();
        assert!(request.contains("Action=AssumeRole"), "{request}");
        assert!(request.contains("ExternalId=cs-tenant-7f3a9c"), "{request}");
        assert!(
            request.contains("RoleSessionName=costscope-sync"),
            "{request}"
        );
        assert!(
            err.message.starts_with(
                "AccessDenied: role arn:aws:iam::123456789012:role/CostscopeReadOnly cannot be assumed with the tenant's external id: User: arn:aws:iam::999999999999:user/costscope is not authorized"
            ),
            "{}",
            err.message
        );
        assert!(!err.retryable);
        // The static test secret never shows.
        assert!(!err.message.contains("testing"), "{}", err.message);
    }
}
