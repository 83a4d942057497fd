//! Findings on the discovered resources (issue 14): `GET /v1/findings` (IAM and Compliance
//! tabs), `GET /v1/savings` with `POST|DELETE /v1/savings/{id}/dismiss` (Cost Saving), and
//! `GET /v1/tags/compliance` (standard-tag violations with their cost, untagged spend per
//! month). Resources are seeded through the store's `record_discovery`, cost through a FOCUS
//! upload whose `ResourceId`s name them, so every figure is known by construction.

use chrono::{DateTime, Datelike, Days, Duration, NaiveDate, Utc};
use costscope_core::inventory::resource_types as types;
use costscope_core::inventory::{DiscoveredResource, GLOBAL_REGION};
use costscope_store::{DiscoveryWrite, NewCloudAccount};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cloud_accounts::demo_owner;
use crate::cost_fixture::{FocusCsv, Line};
use crate::helpers::{assert_error, assert_invalid, spawn_app, status_and_json, TestApp};

const ACCOUNT: &str = "111122223333";
const REGION: &str = "us-east-1";

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

fn ago(days: i64) -> String {
    (Utc::now() - Duration::days(days)).to_rfc3339()
}

fn resource(
    resource_type: &str,
    id: &str,
    properties: Value,
    tags: &[(&str, &str)],
) -> DiscoveredResource {
    DiscoveredResource {
        account_id: ACCOUNT.to_owned(),
        region: if types::is_global(resource_type) {
            GLOBAL_REGION.to_owned()
        } else {
            REGION.to_owned()
        },
        resource_type: resource_type.to_owned(),
        resource_id: id.to_owned(),
        arn: None,
        properties,
        tags: tags
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        metrics: None,
    }
}

/// Records `resources` as one discovery of the customer's AWS account.
async fn seed(app: &TestApp, customer_id: i64, resources: &[DiscoveredResource]) {
    let connection = app
        .store
        .add_cloud_account(
            customer_id,
            NewCloudAccount {
                provider: "aws",
                account_id: ACCOUNT,
                account_name: "Production",
                now: Utc::now(),
            },
        )
        .await
        .expect("a connection");
    app.store
        .inventory()
        .record_discovery(DiscoveryWrite {
            customer_id,
            connection_id: connection.id,
            account_id: ACCOUNT,
            now: Utc::now(),
            complete_scopes: &[],
            resources,
        })
        .await
        .expect("record the discovery");
}

/// A line item of `billed` on `day` naming `resource_id` (`""`: none).
fn cost_line(day: NaiveDate, resource_id: &'static str, billed: f64) -> Line {
    let mut line = Line::aws(ACCOUNT, leak(day.to_string()), billed);
    line.resource_id = resource_id;
    line
}

async fn upload(app: &TestApp, token: &str, csv: FocusCsv) {
    app.ingest_files(token, &[("costs.csv", csv.to_csv().into_bytes())])
        .await;
}

async fn get_json(app: &TestApp, path: &str, token: &str) -> Value {
    let (status, body) = status_and_json(app.get(path, Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    body
}

fn finding_kinds(findings: &Value) -> Vec<(String, String)> {
    findings
        .as_array()
        .expect("a list")
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_owned(),
                f["resource"]["resource_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn security_resources() -> Vec<DiscoveredResource> {
    vec![
        resource(
            types::IAM_USER,
            "alice",
            json!({"UserName": "alice", "HasConsolePassword": true, "MfaEnabled": false, "PasswordLastUsed": null}),
            &[],
        ),
        resource(
            types::IAM_USER,
            "bob",
            json!({"UserName": "bob", "HasConsolePassword": true, "MfaEnabled": true}),
            &[],
        ),
        resource(
            types::IAM_ACCESS_KEY,
            "AKIAOLDKEY",
            json!({"AccessKeyId": "AKIAOLDKEY", "UserName": "alice", "Status": "Active", "CreateDate": ago(120), "LastUsedDate": null}),
            &[],
        ),
        resource(
            types::IAM_ROLE,
            "forgotten",
            json!({"RoleName": "forgotten", "Arn": "arn:aws:iam::111122223333:role/forgotten", "CreateDate": ago(200), "RoleLastUsed": null}),
            &[],
        ),
        resource(
            types::S3_BUCKET,
            "public-bucket",
            json!({
                "Name": "public-bucket",
                "PolicyIsPublic": false,
                "PublicAccessBlock": null,
                "AclGrants": [{"Grantee": {"URI": "http://acs.amazonaws.com/groups/global/AllUsers", "ID": null}, "Permission": "READ"}],
            }),
            &[],
        ),
        resource(
            types::EC2_SECURITY_GROUP,
            "sg-0ssh",
            json!({"GroupId": "sg-0ssh", "GroupName": "bastion", "IpPermissions": [
                {"IpProtocol": "tcp", "FromPort": 22, "ToPort": 22, "IpRanges": [{"CidrIp": "0.0.0.0/0"}], "Ipv6Ranges": []}
            ]}),
            &[],
        ),
        resource(
            types::EC2_VOLUME,
            "vol-0plain",
            json!({"VolumeId": "vol-0plain", "State": "in-use", "VolumeType": "gp3", "Encrypted": false, "Size": 8}),
            &[],
        ),
        resource(
            types::RDS_DB_INSTANCE,
            "orders",
            json!({"DBInstanceIdentifier": "orders", "Engine": "postgres", "StorageEncrypted": true}),
            &[],
        ),
    ]
}

#[tokio::test]
async fn findings_list_the_iam_and_compliance_findings_of_the_tenant_by_category() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@findings.test").await;
    seed(&app, owner.user.customer_id, &security_resources()).await;
    let token = owner.access_token.as_str();

    let all = get_json(&app, "/v1/findings", token).await;
    assert_eq!(
        finding_kinds(&all),
        [
            ("iam_user_without_mfa", "alice"),
            ("s3_bucket_public", "public-bucket"),
            ("security_group_open_admin_port", "sg-0ssh"),
            ("iam_access_key_old", "AKIAOLDKEY"),
            ("ebs_volume_unencrypted", "vol-0plain"),
            ("iam_role_unused", "forgotten"),
        ]
        .map(|(k, id)| (k.to_owned(), id.to_owned()))
    );
    let first = &all[0];
    assert_eq!(
        first["id"],
        "iam_user_without_mfa:111122223333:global:alice"
    );
    assert_eq!(first["category"], "iam");
    assert_eq!(first["severity"], "high");
    assert_eq!(
        first["title"],
        "IAM user alice signs in to the console without MFA"
    );
    assert_eq!(
        first["resource"],
        json!({"resource_id": "alice", "resource_type": "AWS::IAM::User", "region": "global", "account_id": ACCOUNT})
    );
    assert!(first["evidence"]
        .as_str()
        .unwrap()
        .contains("no MFA device"));

    let iam = get_json(&app, "/v1/findings?category=iam", token).await;
    assert_eq!(
        finding_kinds(&iam),
        [
            ("iam_user_without_mfa", "alice"),
            ("iam_access_key_old", "AKIAOLDKEY"),
            ("iam_role_unused", "forgotten"),
        ]
        .map(|(k, id)| (k.to_owned(), id.to_owned()))
    );
    let compliance = get_json(&app, "/v1/findings?category=compliance", token).await;
    assert!(compliance
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["category"] == "compliance"));
    assert_eq!(compliance.as_array().unwrap().len(), 3);

    assert_invalid(
        app.get("/v1/findings?category=cost", Some(token)).await,
        "category",
        "category must be iam or compliance",
    )
    .await;

    // Another tenant sees none of them; a signed-out caller nothing.
    let other = app.signup_owner("Otto Other", "otto@findings.test").await;
    assert_eq!(
        get_json(&app, "/v1/findings", &other.access_token).await,
        json!([])
    );
    assert_eq!(
        app.get("/v1/findings", None).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

fn savings_resources() -> Vec<DiscoveredResource> {
    vec![
        resource(
            types::EC2_VOLUME,
            "vol-0free",
            json!({"VolumeId": "vol-0free", "State": "available", "VolumeType": "gp3", "Size": 50, "Encrypted": true, "CreateTime": ago(100)}),
            &[],
        ),
        resource(
            types::EC2_VOLUME,
            "vol-0used",
            json!({"VolumeId": "vol-0used", "State": "in-use", "VolumeType": "gp3", "Size": 50, "Encrypted": true, "CreateTime": ago(100)}),
            &[],
        ),
        resource(
            types::EC2_ELASTIC_IP,
            "eipalloc-0idle",
            json!({"AllocationId": "eipalloc-0idle", "PublicIp": "203.0.113.7", "AssociationId": null}),
            &[],
        ),
    ]
}

const VOLUME_ID: &str = "unattached_volume:111122223333:us-east-1:vol-0free";
const EIP_ID: &str = "unassociated_elastic_ip:111122223333:us-east-1:eipalloc-0idle";

#[tokio::test]
async fn savings_show_an_unattached_volume_with_the_monthly_saving_of_its_own_cost() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@savings.test").await;
    let token = owner.access_token.as_str();
    seed(&app, owner.user.customer_id, &savings_resources()).await;
    let today = Utc::now().date_naive();
    upload(
        &app,
        token,
        FocusCsv::new()
            .line(cost_line(today, "vol-0free", 12.5))
            .line(cost_line(today, "vol-0used", 4.0))
            .line(cost_line(today, "", 100.0)),
    )
    .await;

    let savings = get_json(&app, "/v1/savings", token).await;
    assert_eq!(savings["currency"], "USD");
    assert_eq!(savings["total_monthly_saving"], json!(12.5));
    let recommendations = savings["recommendations"].as_array().unwrap();
    assert_eq!(recommendations.len(), 2, "{savings}");
    let volume = &recommendations[0];
    assert_eq!(volume["id"], VOLUME_ID);
    assert_eq!(volume["kind"], "unattached_volume");
    assert_eq!(volume["monthly_saving"], json!(12.5));
    assert_eq!(volume["currency"], "USD");
    assert_eq!(volume["dismissed"], false);
    assert_eq!(
        volume["title"],
        "EBS volume vol-0free (50 GiB gp3) is not attached to any instance"
    );
    assert_eq!(
        volume["resource"],
        json!({"resource_id": "vol-0free", "resource_type": "AWS::EC2::Volume", "region": REGION, "account_id": ACCOUNT})
    );
    assert!(!volume["action"].as_str().unwrap().is_empty());
    // No line item names the address: no saving guessed, and the evidence says why.
    let address = &recommendations[1];
    assert_eq!(address["id"], EIP_ID);
    assert_eq!(address["monthly_saving"], Value::Null);
    assert!(address["evidence"]
        .as_str()
        .unwrap()
        .contains("No billed cost names this resource"));
    let period = &savings["cost_period"];
    assert_eq!(
        period["end_time"].as_i64().unwrap() - period["start_time"].as_i64().unwrap(),
        30 * 86_400
    );

    // Another tenant has none.
    let other = app.signup_owner("Otto Other", "otto@savings.test").await;
    let theirs = get_json(&app, "/v1/savings", &other.access_token).await;
    assert_eq!(theirs["recommendations"], json!([]));
    assert_eq!(theirs["total_monthly_saving"], json!(0.0));
}

#[tokio::test]
async fn a_dismissal_is_remembered_until_restored_and_only_owners_and_admins_may_dismiss() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@dismiss.test").await;
    let token = owner.access_token.as_str();
    seed(&app, owner.user.customer_id, &savings_resources()).await;
    let today = Utc::now().date_naive();
    upload(
        &app,
        token,
        FocusCsv::new().line(cost_line(today, "vol-0free", 12.5)),
    )
    .await;
    let dismiss_path = format!("/v1/savings/{VOLUME_ID}/dismiss");

    let response = app.post(&dismiss_path, Some(token), &json!({})).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    // Again: no change.
    let response = app.post(&dismiss_path, Some(token), &json!({})).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let savings = get_json(&app, "/v1/savings", token).await;
    let volume = &savings["recommendations"][0];
    assert_eq!(
        (volume["id"].as_str(), &volume["dismissed"]),
        (Some(VOLUME_ID), &json!(true))
    );
    assert_eq!(savings["total_monthly_saving"], json!(0.0));

    // A user reads but may not dismiss or restore; an admin may.
    let user = app
        .add_member(token, "Uma User", "uma@dismiss.test", "user")
        .await;
    let seen = get_json(&app, "/v1/savings", &user.access_token).await;
    assert_eq!(seen["recommendations"][0]["dismissed"], true);
    assert_error(
        app.post(
            &format!("/v1/savings/{EIP_ID}/dismiss"),
            Some(user.access_token.as_str()),
            &json!({}),
        )
        .await,
        StatusCode::FORBIDDEN,
        "Only owners and admins can dismiss recommendations",
    )
    .await;
    assert_error(
        app.delete(&dismiss_path, &user.access_token).await,
        StatusCode::FORBIDDEN,
        "Only owners and admins can dismiss recommendations",
    )
    .await;
    let admin = app
        .add_member(token, "Adam Admin", "adam@dismiss.test", "admin")
        .await;
    let response = app.delete(&dismiss_path, &admin.access_token).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let savings = get_json(&app, "/v1/savings", token).await;
    assert_eq!(savings["recommendations"][0]["dismissed"], false);
    assert_eq!(savings["total_monthly_saving"], json!(12.5));
    assert_error(
        app.delete(&dismiss_path, token).await,
        StatusCode::NOT_FOUND,
        "Recommendation is not dismissed",
    )
    .await;

    // An id that is no current recommendation, or another tenant's.
    assert_error(
        app.post(
            "/v1/savings/unattached_volume:111122223333:us-east-1:vol-nope/dismiss",
            Some(token),
            &json!({}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "Recommendation not found",
    )
    .await;
    let other = app.signup_owner("Otto Other", "otto@dismiss.test").await;
    assert_error(
        app.post(&dismiss_path, Some(other.access_token.as_str()), &json!({}))
            .await,
        StatusCode::NOT_FOUND,
        "Recommendation not found",
    )
    .await;
    assert_eq!(
        get_json(&app, "/v1/savings", token).await["recommendations"][0]["dismissed"],
        false
    );

    // The demo tenant reads but does not dismiss.
    let demo = demo_owner(&app).await;
    assert_error(
        app.post(&dismiss_path, Some(demo.as_str()), &json!({}))
            .await,
        StatusCode::FORBIDDEN,
        "Recommendations cannot be dismissed in the demo",
    )
    .await;
}

#[tokio::test]
async fn tag_compliance_lists_violations_with_their_cost_and_untagged_spend_per_month() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@compliance.test").await;
    let token = owner.access_token.as_str();
    seed(
        &app,
        owner.user.customer_id,
        &[
            resource(
                types::EC2_INSTANCE,
                "i-0prod",
                json!({"State": "running"}),
                &[("env", "prod")],
            ),
            resource(
                types::EC2_INSTANCE,
                "i-0qa",
                json!({"State": "running"}),
                &[("env", "qa")],
            ),
            resource(
                types::EC2_VOLUME,
                "vol-0bare",
                json!({"State": "in-use"}),
                &[],
            ),
            // AWS cannot tag access keys: never a violation, never untagged spend.
            resource(
                types::IAM_ACCESS_KEY,
                "AKIA0KEY",
                json!({"Status": "Active"}),
                &[],
            ),
        ],
    )
    .await;
    let created = status_and_json(
        app.post(
            "/tags/standard",
            Some(token),
            &json!({"key": "env", "values": "prod, dev"}),
        )
        .await,
    )
    .await;
    assert_eq!(created.0, StatusCode::CREATED, "{}", created.1);
    let env_id = created.1["id"].as_i64().unwrap();

    let now = Utc::now();
    let today = now.date_naive();
    let previous_first = (today.with_day(1).unwrap() - Days::new(1))
        .with_day(1)
        .unwrap();
    upload(
        &app,
        token,
        FocusCsv::new()
            .line(cost_line(today, "i-0prod", 10.0))
            .line(cost_line(today, "i-0qa", 7.0))
            .line(cost_line(today, "vol-0bare", 3.0))
            .line(cost_line(previous_first, "vol-0bare", 4.0))
            .line(cost_line(today, "i-0unknown", 5.0))
            .line(cost_line(today, "", 2.0)),
    )
    .await;
    // The previous month's line is in the last 30 days only early in a month.
    let window_start: DateTime<Utc> = now - Duration::days(30);
    let old_line_in_window = previous_first.and_hms_opt(0, 0, 0).unwrap().and_utc() >= window_start;
    let volume_cost = if old_line_in_window { 7.0 } else { 3.0 };

    let body = get_json(&app, "/v1/tags/compliance?months=2", token).await;
    assert_eq!(body["currency"], "USD");
    assert_eq!(body["total_violations"], 2);
    assert_eq!(body["violations_cost"], json!(7.0 + volume_cost));
    let violations = body["violations"].as_array().unwrap();
    let qa = json!({
        "standard_tag_id": env_id, "key": "env", "kind": "invalid_value", "value": "qa", "cost": 7.0,
        "resource": {"resource_id": "i-0qa", "resource_type": "AWS::EC2::Instance", "region": REGION, "account_id": ACCOUNT},
    });
    let bare = json!({
        "standard_tag_id": env_id, "key": "env", "kind": "missing", "value": null, "cost": volume_cost,
        "resource": {"resource_id": "vol-0bare", "resource_type": "AWS::EC2::Volume", "region": REGION, "account_id": ACCOUNT},
    });
    assert_eq!(violations, &vec![qa.clone(), bare]);

    let months = body["untagged_by_month"].as_array().unwrap();
    assert_eq!(months.len(), 2, "{body}");
    assert_eq!(
        months[0]["month"],
        previous_first.format("%Y-%m").to_string()
    );
    assert_eq!(months[0]["total_cost"], json!(4.0));
    assert_eq!(months[0]["untagged_cost"], json!(4.0));
    assert_eq!(months[0]["not_in_inventory_cost"], json!(0.0));
    assert_eq!(months[0]["untagged_share"], json!(1.0));
    assert_eq!(months[1]["month"], today.format("%Y-%m").to_string());
    assert_eq!(months[1]["total_cost"], json!(27.0));
    assert_eq!(months[1]["untagged_cost"], json!(3.0));
    assert_eq!(months[1]["not_in_inventory_cost"], json!(5.0));
    let share = months[1]["untagged_share"].as_f64().unwrap();
    assert!((share - 8.0 / 27.0).abs() < 1e-9, "{share}");

    // The list is cut at `limit`, the count is not; six months by default.
    let body = get_json(&app, "/v1/tags/compliance?limit=1", token).await;
    assert_eq!(body["violations"], json!([qa]));
    assert_eq!(body["total_violations"], 2);
    assert_eq!(body["untagged_by_month"].as_array().unwrap().len(), 6);

    for (query, field, message) in [
        ("months=0", "months", "months must be between 1 and 24"),
        ("months=25", "months", "months must be between 1 and 24"),
        ("months=x", "months", "months must be between 1 and 24"),
        ("limit=0", "limit", "limit must be between 1 and 1000"),
        ("limit=1001", "limit", "limit must be between 1 and 1000"),
    ] {
        assert_invalid(
            app.get(&format!("/v1/tags/compliance?{query}"), Some(token))
                .await,
            field,
            message,
        )
        .await;
    }

    // Another tenant: no violations, no spend.
    let other = app.signup_owner("Otto Other", "otto@compliance.test").await;
    let theirs = get_json(&app, "/v1/tags/compliance?months=1", &other.access_token).await;
    assert_eq!(theirs["violations"], json!([]));
    assert_eq!(theirs["untagged_by_month"][0]["total_cost"], json!(0.0));
    assert_eq!(
        theirs["untagged_by_month"][0]["untagged_share"],
        Value::Null
    );
}
