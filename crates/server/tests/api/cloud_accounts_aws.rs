//! AWS registration against moto (`costscope_connectors::testing::moto`, installed by
//! `scripts/ensure-moto.sh`; the tests fail, not skip, without it): the registration job
//! assumes the role with the tenant's external id and lists the export location for real, a
//! missing bucket is State 7 with AWS's reason, and an organisation lists its member accounts
//! through AWS Organizations and shows them under it.
//!
//! moto checks neither trust policies nor external ids: that every AssumeRole call carries the
//! tenant's external id is unit-tested in the AWS connector.

use costscope_connectors::testing::moto::{Moto, MOTO_ACCOUNT_ID};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cloud_accounts::{accounts, finished_job, register};
use crate::helpers::{spawn_app_with, status_and_json, TestApp};

async fn app_for(moto: &Moto) -> TestApp {
    let endpoint = moto.endpoint().to_owned();
    spawn_app_with(move |config| config.cloud.aws_endpoint_url = Some(endpoint)).await
}

/// The role, bucket and one delivered month the onboarding template would have made.
async fn onboard(moto: &Moto, external_id: &str) {
    let bucket = format!("costscope-exports-{MOTO_ACCOUNT_ID}");
    let role = moto.create_role("CostscopeReadOnly", external_id).await;
    assert_eq!(
        role,
        format!("arn:aws:iam::{MOTO_ACCOUNT_ID}:role/CostscopeReadOnly")
    );
    moto.create_bucket(&bucket).await;
    let settings =
        moto.export_settings(&role, external_id, &bucket, "costscope", "costscope-focus");
    moto.put_data_export(
        &settings,
        "2026-10",
        &[("part-0.csv.gz", b"not read by the check")],
    )
    .await;
}

async fn restart(app: &TestApp, token: &str, account_id: &str) {
    let (status, job) = status_and_json(
        app.post(
            "/v1/account/registration/job",
            Some(token),
            &json!({"account_id": account_id, "restart": true}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{job}");
}

#[tokio::test]
async fn a_missing_bucket_fails_the_check_and_the_onboarded_account_passes_it() {
    let moto = Moto::start();
    let app = app_for(&moto).await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let (status, registered) = status_and_json(
        register(
            &app,
            &owner,
            &json!({"aws_account_id": MOTO_ACCOUNT_ID, "account_name": "Production"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{registered}");

    // Nothing deployed yet: the bucket does not exist.
    let job = finished_job(&app, &owner, MOTO_ACCOUNT_ID).await;
    assert_eq!(job["State"], 7, "{job}");
    let details = job["details"].as_str().unwrap();
    assert!(details.contains("NoSuchBucket"), "{details}");
    assert!(
        details.contains(&format!("costscope-exports-{MOTO_ACCOUNT_ID}")),
        "{details}"
    );

    // The test deploys what the template would, with the tenant's external id.
    onboard(&moto, registered["external_id"].as_str().unwrap()).await;
    restart(&app, &owner, MOTO_ACCOUNT_ID).await;
    let job = finished_job(&app, &owner, MOTO_ACCOUNT_ID).await;
    assert_eq!(
        job,
        json!({"State": 6, "details": format!(
            "Found 1 billing period under s3://costscope-exports-{MOTO_ACCOUNT_ID}/costscope/costscope-focus")})
    );
    let list = accounts(&app, &owner).await;
    assert_eq!(list[0]["registration"]["State"], 6);
}

#[tokio::test]
async fn an_organisation_lists_its_member_accounts_under_it() {
    let moto = Moto::start();
    let app = app_for(&moto).await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let organisation = moto
        .create_organization(&[
            ("Dev Account", "dev@org.test"),
            ("Prod Account", "prod@org.test"),
        ])
        .await;
    assert_eq!(
        organisation.len(),
        3,
        "the management account and two members"
    );
    let (status, registered) = status_and_json(
        register(
            &app,
            &owner,
            &json!({"aws_account_id": MOTO_ACCOUNT_ID, "organization_id": "r-ab12",
                    "organization_name": "Example Org"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{registered}");
    assert_eq!(registered["OrgId"], "r-ab12");
    assert_eq!(registered["accountNumber"], MOTO_ACCOUNT_ID);
    let instances = registered["StackSetCmds"][1].as_str().unwrap();
    assert!(instances.contains("r-ab12"), "{instances}");
    finished_job(&app, &owner, MOTO_ACCOUNT_ID).await;
    onboard(&moto, registered["external_id"].as_str().unwrap()).await;
    restart(&app, &owner, MOTO_ACCOUNT_ID).await;
    let job = finished_job(&app, &owner, MOTO_ACCOUNT_ID).await;
    assert_eq!(job["State"], 6, "{job}");
    assert!(
        job["details"]
            .as_str()
            .unwrap()
            .ends_with("; 2 member accounts listed through AWS Organizations"),
        "{job}"
    );

    let list = accounts(&app, &owner).await;
    assert_eq!(list.len(), 3, "{list:?}");
    let org = &list[0];
    assert_eq!(org["account_id"], MOTO_ACCOUNT_ID);
    assert_eq!(org["account_name"], "Example Org");
    assert_eq!(org["organization_id"], "r-ab12");
    let members: Vec<(&str, &Value)> = list[1..]
        .iter()
        .map(|member| {
            (
                member["account_name"].as_str().unwrap(),
                &member["parent_id"],
            )
        })
        .collect();
    assert_eq!(
        members,
        vec![("Dev Account", &org["id"]), ("Prod Account", &org["id"])]
    );
    for member in &list[1..] {
        assert_eq!(member["connected"], true);
        assert_eq!(member["export"], Value::Null);
        let expected: Vec<&str> = organisation
            .iter()
            .filter(|account| account.account_id != MOTO_ACCOUNT_ID)
            .map(|account| account.account_id.as_str())
            .collect();
        assert!(expected.contains(&member["account_id"].as_str().unwrap()));
    }

    // Removing the organisation removes its members.
    let response = crate::cloud_accounts::delete_with_body(
        &app,
        "/v1/account",
        &owner,
        &json!({"account_ids": [MOTO_ACCOUNT_ID]}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(accounts(&app, &owner).await.is_empty());
}
