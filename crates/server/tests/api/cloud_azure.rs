//! Azure exports over HTTP (issue 13, beyond spec 2's "coming soon"): validation per field,
//! the SAS token or client secret stored encrypted and never answered, the registration check
//! against Azurite (`costscope_connectors::testing::azurite`, installed by
//! `scripts/ensure-azurite.sh`; the tests fail, not skip, without it), 409 when connected,
//! removal.

use std::time::Duration;

use costscope_connectors::testing::azurite::Azurite;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cloud_accounts::{accounts, delete_with_body};
use crate::helpers::{assert_error, spawn_app_with, status_and_json, TestApp};

const SUBSCRIPTION: &str = "0f8fad5b-d9cb-469f-a165-70867728950e";

async fn app() -> TestApp {
    spawn_app_with(|config| {
        config.cloud.aws_endpoint_url = Some("http://127.0.0.1:9".to_owned());
        config.cloud.azure_authority_url = "http://127.0.0.1:9".to_owned();
    })
    .await
}

fn sas_body(azurite: &Azurite, container: &str, sas: &str) -> Value {
    json!({"account_id": SUBSCRIPTION, "account_name": "Azure Production",
           "storage_account": azurite.account(), "container": container, "directory": "daily",
           "auth": "sas", "sas_token": sas, "blob_endpoint": azurite.blob_endpoint()})
}

async fn finished_check(app: &TestApp, token: &str) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(150);
    loop {
        let (status, list) = status_and_json(app.get("/v1/azure/account", Some(token)).await).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        let item = list[0].clone();
        assert!(item.is_object(), "nothing connected: {list}");
        if item["registration"]["State"] != 1 {
            return item;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the check is still running: {item}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The signature part of a SAS token (what must never be shown).
fn signature(sas: &str) -> String {
    sas.split('&')
        .find_map(|pair| pair.strip_prefix("sig="))
        .expect("a signature")
        .to_owned()
}

#[tokio::test]
async fn connecting_an_export_with_a_sas_token_checks_it_and_never_answers_the_token() {
    let azurite = Azurite::start().await;
    azurite.create_container("exports").await;
    azurite
        .upload(
            "exports",
            "daily/costscope-export/20261001-20261031/run-1/part_0_0001.csv",
            b"not read by the check".to_vec(),
        )
        .await;
    let app = app().await;
    let owner = app.signup_owner("Olga Owner", "olga@a.test").await;
    let token = owner.access_token.as_str();
    let sas = azurite.sas_token("rl");
    let sig = signature(&sas);

    let response = app
        .post(
            "/v1/azure/account",
            Some(token),
            &sas_body(&azurite, "exports", &sas),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let text = response.text().await.unwrap();
    assert!(
        !text.contains(&sig),
        "the answer shows the SAS token: {text}"
    );
    let created: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(created["account_id"], SUBSCRIPTION);
    assert_eq!(created["account_name"], "Azure Production");
    assert_eq!(created["storage_account"], azurite.account());
    assert_eq!(created["container"], "exports");
    assert_eq!(created["directory"], "daily");
    assert_eq!(created["auth"], "sas");
    assert_eq!(created["tenant_id"], Value::Null);
    assert_eq!(created["blob_endpoint"], azurite.blob_endpoint());
    assert!(created.get("sas_token").is_none());

    let item = finished_check(&app, token).await;
    assert_eq!(item["registration"]["State"], 6, "{item}");

    for path in ["/v1/azure/account", "/v1/account"] {
        let text = app.get(path, Some(token)).await.text().await.unwrap();
        assert!(!text.contains(&sig), "{path} shows the SAS token: {text}");
    }
    let list = accounts(&app, token).await;
    assert_eq!(list[0]["provider"], "azure");
    assert_eq!(
        list[0]["export"],
        json!({"location": format!("{}/exports/daily", azurite.blob_endpoint()),
               "format": "cost-management-export"})
    );
    let stored = app
        .store
        .connection_secret(owner.user.customer_id, created["id"].as_i64().unwrap())
        .await
        .unwrap()
        .expect("a stored secret");
    assert!(
        stored.starts_with("v1:") && !stored.contains(&sig),
        "encrypted"
    );
    assert_eq!(app.state.secrets.decrypt(&stored).unwrap(), sas);

    assert_error(
        app.post(
            "/v1/azure/account",
            Some(token),
            &sas_body(&azurite, "exports", &sas),
        )
        .await,
        StatusCode::CONFLICT,
        &format!("Azure subscription {SUBSCRIPTION} is already connected"),
    )
    .await;
    let (status, deleted) = status_and_json(
        delete_with_body(
            &app,
            "/v1/azure/account",
            token,
            &json!({"account_id": SUBSCRIPTION}),
        )
        .await,
    )
    .await;
    assert_eq!((status, deleted), (StatusCode::OK, json!({"deleted": 1})));
    let (_, list) = status_and_json(app.get("/v1/azure/account", Some(token)).await).await;
    assert_eq!(list, json!([]));
}

#[tokio::test]
async fn a_missing_container_fails_the_check_with_the_reason_and_without_the_token() {
    let azurite = Azurite::start().await;
    let app = app().await;
    let token = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let sas = azurite.sas_token("rl");
    let response = app
        .post(
            "/v1/azure/account",
            Some(&token),
            &sas_body(&azurite, "missing", &sas),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let item = finished_check(&app, &token).await;
    assert_eq!(item["registration"]["State"], 7, "{item}");
    let details = item["registration"]["details"].as_str().unwrap();
    assert!(
        details.contains("missing"),
        "names the container: {details}"
    );
    assert!(!details.contains(&signature(&sas)), "{details}");
}

#[tokio::test]
async fn every_azure_validation_message_and_no_secret_in_any_answer() {
    let app = app().await;
    let token = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let base = json!({"account_id": SUBSCRIPTION, "account_name": "Azure Production",
        "storage_account": "costexports", "container": "exports", "directory": "daily",
        "auth": "sas", "sas_token": "sv=2022-11-02&sig=topsecretsignature"});
    let with = |changes: Value| {
        let mut body = base.clone();
        for (key, value) in changes.as_object().unwrap() {
            body[key] = value.clone();
        }
        body
    };
    let cases = [
        (json!({"account_id": "not-a-guid"}), "account_id",
         "Subscription ID must be a GUID such as 00000000-0000-0000-0000-000000000000"),
        (json!({"account_name": "ab"}), "account_name", "Account name must be longer than 2 characters"),
        (json!({"storage_account": "Cost-Exports"}), "storage_account",
         costscope_core::cloud_accounts::AzureStorageAccount::MESSAGE),
        (json!({"container": "Exports"}), "container",
         costscope_core::cloud_accounts::AzureContainer::MESSAGE),
        (json!({"directory": "/daily"}), "directory", "Directory must not start or end with a slash"),
        (json!({"auth": "password"}), "auth", "Authentication must be sas or service_principal"),
        (json!({"sas_token": ""}), "sas_token", "SAS token is required"),
        (json!({"sas_token": "sv=2022-11-02"}), "sas_token",
         "SAS token must be a shared access signature query string (sv=…&sig=…)"),
        (json!({"blob_endpoint": "ftp://example"}), "blob_endpoint",
         "Blob endpoint must be an http or https URL such as https://account.blob.core.windows.net"),
        (json!({"auth": "service_principal", "tenant_id": "x",
                "client_id": "0f8fad5b-d9cb-469f-a165-70867728950e", "client_secret": "s3cr3t-value"}),
         "tenant_id", costscope_core::cloud_accounts::AzureTenantId::MESSAGE),
        (json!({"auth": "service_principal", "tenant_id": "0f8fad5b-d9cb-469f-a165-70867728950e",
                "client_id": "x", "client_secret": "s3cr3t-value"}),
         "client_id", costscope_core::cloud_accounts::AzureClientId::MESSAGE),
        (json!({"auth": "service_principal", "tenant_id": "0f8fad5b-d9cb-469f-a165-70867728950e",
                "client_id": "0f8fad5b-d9cb-469f-a165-70867728950e"}),
         "client_secret", "Client secret is required"),
    ];
    for (changes, field, message) in cases {
        let response = app
            .post("/v1/azure/account", Some(&token), &with(changes))
            .await;
        let (status, body) = status_and_json(response).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["details"][field], json!([message]), "{body}");
        assert!(!body.to_string().contains("topsecretsignature"));
        assert!(!body.to_string().contains("s3cr3t-value"));
    }
    // A service principal: its tenant and client are shown, its secret never.
    let response = app
        .post(
            "/v1/azure/account",
            Some(&token),
            &with(json!({"auth": "service_principal",
                          "tenant_id": "11111111-2222-4333-8444-555555555555",
                          "client_id": "66666666-7777-4888-8999-000000000000",
                          "client_secret": "s3cr3t-value", "sas_token": null,
                          "blob_endpoint": "http://127.0.0.1:9/costexports"})),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let text = response.text().await.unwrap();
    assert!(!text.contains("s3cr3t-value"), "{text}");
    let created: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(created["auth"], "service_principal");
    assert_eq!(created["tenant_id"], "11111111-2222-4333-8444-555555555555");
    assert_eq!(created["client_id"], "66666666-7777-4888-8999-000000000000");
    let item = finished_check(&app, &token).await;
    assert_eq!(
        item["registration"]["State"], 7,
        "nothing answers there: {item}"
    );
    assert!(!item.to_string().contains("s3cr3t-value"));
}
