use super::*;
use crate::aws::errors::AwsFailure;

fn failure(
    region: &str,
    call: Call,
    code: Option<&str>,
    message: &str,
    status: Option<u16>,
) -> CallFailure {
    CallFailure {
        region: region.to_owned(),
        call,
        failure: AwsFailure {
            code: code.map(str::to_owned),
            message: message.to_owned(),
            status,
            retryable: status.is_some_and(|s| s >= 500) || code == Some("Throttling"),
        },
    }
}

const VOLUMES: Call = Call {
    service: EC2,
    action: "DescribeVolumes",
    permission: "ec2:DescribeVolumes",
};
const SNAPSHOTS: Call = Call {
    service: EC2,
    action: "DescribeSnapshots",
    permission: "ec2:DescribeSnapshots",
};
const TABLES: Call = Call {
    service: DYNAMODB,
    action: "ListTables",
    permission: "dynamodb:ListTables",
};

#[test]
fn one_refusal_per_region_and_service_names_every_call_and_permission() {
    let denied = "User: arn:aws:sts::123456789012:assumed-role/CostscopeReadOnly/costscope-sync is not authorized";
    let failures = scope_failures(vec![
        failure(
            "eu-west-1",
            VOLUMES,
            Some("UnauthorizedOperation"),
            denied,
            Some(403),
        ),
        failure(
            "eu-west-1",
            TABLES,
            Some("Throttling"),
            "Rate exceeded",
            Some(400),
        ),
        failure(
            "eu-west-1",
            SNAPSHOTS,
            Some("UnauthorizedOperation"),
            denied,
            Some(403),
        ),
        failure(
            "ap-south-2",
            VOLUMES,
            None,
            "no answer: connection refused",
            None,
        ),
    ]);
    assert_eq!(failures.len(), 3, "{failures:#?}");
    assert_eq!(failures[0].region, "ap-south-2");
    assert_eq!(
        failures[0].message,
        "EC2 in ap-south-2 could not be reached (DescribeVolumes): no answer: connection refused"
    );
    assert_eq!(failures[1].region, "eu-west-1");
    assert_eq!(failures[1].service, "DynamoDB");
    assert_eq!(
        failures[1].message,
        "Throttling: DynamoDB in eu-west-1 kept failing after retries (ListTables): Rate exceeded; the next discovery run tries again"
    );
    assert_eq!(failures[2].service, "EC2");
    assert_eq!(
        failures[2].message,
        format!("UnauthorizedOperation: the role may not call DescribeVolumes, DescribeSnapshots in eu-west-1: {denied} (grant it ec2:DescribeVolumes, ec2:DescribeSnapshots, e.g. with the AWS managed policy ReadOnlyAccess)")
    );
}

#[test]
fn times_are_rfc3339_utc() {
    assert_eq!(
        time(Some(&AwsDateTime::from_secs(1_790_000_000))),
        Value::String("2026-09-21T14:13:20Z".into())
    );
    assert_eq!(time(None), Value::Null);
    assert_eq!(
        text_time(Some("2026-10-01T12:00:00.000+0200")),
        Value::String("2026-10-01T10:00:00Z".into())
    );
    assert_eq!(
        text_time(Some("2026-10-01T12:00:00.000Z")),
        Value::String("2026-10-01T12:00:00Z".into())
    );
    assert_eq!(text_time(Some("")), Value::Null);
}

#[tokio::test]
async fn a_malformed_account_or_region_is_refused_before_any_call() {
    let sdk = AwsSdk::for_endpoint("http://127.0.0.1:9", "us-east-1");
    let role = AwsRole {
        role_arn: "arn:aws:iam::123456789012:role/CostscopeReadOnly".into(),
        external_id: "cs-tenant-7f3a9c".into(),
    };
    let err = discover_account(&sdk, &role, "12345", None)
        .await
        .unwrap_err();
    assert!(
        err.message
            .starts_with("account_id must be a 12-digit AWS account id"),
        "{}",
        err.message
    );
    let bad = vec!["us-east-1".to_owned(), "EU West".to_owned()];
    let err = discover_account(&sdk, &role, "123456789012", Some(bad.as_slice()))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        "regions: \"EU West\" is not an AWS region code (like us-east-1)"
    );
    let none: Vec<String> = Vec::new();
    let err = discover_account(&sdk, &role, "123456789012", Some(none.as_slice()))
        .await
        .unwrap_err();
    assert!(
        err.message.starts_with("regions: give at least one region"),
        "{}",
        err.message
    );
}

/// What goes on the wire: discovery assumes the connection's role with the tenant's external
/// id, exactly as the export sync does (a local listener records the AssumeRole request and
/// refuses it, so nothing else is called and the whole account fails with the reason).
#[tokio::test]
async fn discovery_assumes_the_role_with_the_external_id() {
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
        let body = "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User: arn:aws:iam::999999999999:user/costscope is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::210987654321:role/CostscopeReadOnly</Message></Error><RequestId>1</RequestId></ErrorResponse>";
        let answer = format!(
            "HTTP/1.1 403 Forbidden\r\ncontent-type: text/xml\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        socket.write_all(answer.as_bytes()).await.unwrap();
        String::from_utf8_lossy(&request).into_owned()
    });

    let sdk = AwsSdk::for_endpoint(&endpoint, "us-east-1");
    let role = AwsRole {
        role_arn: "arn:aws:iam::210987654321:role/CostscopeReadOnly".into(),
        external_id: "cs-tenant-7f3a9c".into(),
    };
    let regions = vec!["eu-west-1".to_owned()];
    let err = discover_account(&sdk, &role, "210987654321", Some(regions.as_slice()))
        .await
        .unwrap_err();
    let request = server.await.unwrap();
    assert!(request.contains("Action=AssumeRole"), "{request}");
    assert!(request.contains("ExternalId=cs-tenant-7f3a9c"), "{request}");
    assert!(
        request.contains("RoleArn=arn%3Aaws%3Aiam%3A%3A210987654321%3Arole%2FCostscopeReadOnly")
            || request.contains("RoleArn=arn:aws:iam::210987654321:role/CostscopeReadOnly"),
        "{request}"
    );
    assert!(
        request.contains("RoleSessionName=costscope-sync"),
        "{request}"
    );
    assert!(
        err.message.starts_with(
            "AccessDenied: role arn:aws:iam::210987654321:role/CostscopeReadOnly cannot be assumed with the tenant's external id"
        ),
        "{}",
        err.message
    );
    assert!(!err.retryable);
}
