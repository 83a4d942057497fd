//! Discovery (issue 14; spec 2 §4 Discovery trigger, §7 Discovery, §8 Discovery) through the
//! API against moto (`costscope_connectors::testing::moto`; the tests fail, not skip, without
//! it): an AWS account registered over HTTP, resources made in moto with the SDK, `POST
//! /v1/job`, the discovery job (running beside the server, woken by the trigger) assuming the
//! role and recording what it found; then changes in moto and another run: a new snapshot for
//! what changed, a deletion time for what is gone, nothing lost where a region failed. The
//! trigger's refusals carry the details the client's messages key on.

use std::time::Duration;

use aws_sdk_ec2::types::{InstanceType, ResourceType, Tag, TagSpecification};
use chrono::Utc;
use costscope_connectors::testing::moto::{Moto, MOTO_ACCOUNT_ID, MOTO_REGION};
use costscope_core::inventory::resource_types as types;
use costscope_core::inventory::{DiscoveredResource, Resource, ResourceKey, ResourceQuery};
use costscope_server::config::Config;
use costscope_store::DiscoveryWrite;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cloud_accounts::{demo_owner, register};
use crate::helpers::{spawn_app_with, status_and_json, TestApp};

const ALREADY_RUNNING: &str = "On-demand discovery is already running";
const LIMIT_REACHED: &str = "On-demand discovery limit reached for today";
const NO_AWS_ACCOUNT: &str = "Connect an AWS account before running discovery";

/// The app against `endpoint` (moto), discovering `regions` on demand only.
async fn app_for(endpoint: &str, configure: impl FnOnce(&mut Config)) -> TestApp {
    let endpoint = endpoint.to_owned();
    spawn_app_with(move |config| {
        config.cloud.aws_endpoint_url = Some(endpoint);
        config.discovery.interval_hours = 0;
        config.discovery.regions = vec![MOTO_REGION.to_owned()];
        configure(config);
    })
    .await
}

/// Signs up an owner and registers moto's account with the template's defaults; answers the
/// owner's token, the customer id, the connection id and the tenant's external id.
async fn registered(app: &TestApp, email: &str) -> (String, i64, i64, String) {
    let owner = app.signup_owner("Olga Owner", email).await;
    let (status, answer) = status_and_json(
        register(
            app,
            &owner.access_token,
            &json!({"aws_account_id": MOTO_ACCOUNT_ID, "account_name": "Production"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let external_id = answer["external_id"].as_str().unwrap().to_owned();
    let connection_id = answer["id"].as_i64().unwrap();
    (
        owner.access_token,
        owner.user.customer_id,
        connection_id,
        external_id,
    )
}

async fn trigger(app: &TestApp, token: &str) -> (StatusCode, Value) {
    status_and_json(app.post("/v1/job", Some(token), &json!({})).await).await
}

async fn runs(app: &TestApp, token: &str) -> Vec<Value> {
    let (status, body) = status_and_json(app.get("/v1/job", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body.as_array().expect("a list of runs").clone()
}

/// Waits until the newest run has ended (120 s at most) and answers it.
async fn finished_run(app: &TestApp, token: &str) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        let runs = runs(app, token).await;
        let newest = runs.first().cloned().expect("a run");
        if newest["state"] != "queued" && newest["state"] != "running" {
            return newest;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the run has not ended: {newest}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `POST /v1/job` (202 `{data: true}`) and the run once it ended.
async fn discover(app: &TestApp, token: &str) -> Value {
    let (status, body) = trigger(app, token).await;
    assert_eq!(
        (status, &body),
        (StatusCode::ACCEPTED, &json!({"data": true}))
    );
    finished_run(app, token).await
}

fn ec2(moto: &Moto, region: &str) -> aws_sdk_ec2::Client {
    aws_sdk_ec2::Client::from_conf(
        aws_sdk_ec2::config::Builder::from(moto.sdk().config())
            .region(aws_sdk_ec2::config::Region::new(region.to_owned()))
            .build(),
    )
}

fn tags(resource: ResourceType, tags: &[(&str, &str)]) -> TagSpecification {
    let mut spec = TagSpecification::builder().resource_type(resource);
    for (key, value) in tags {
        spec = spec.tags(Tag::builder().key(*key).value(*value).build());
    }
    spec.build()
}

fn key(resource_type: &str, region: &str, id: &str) -> ResourceKey {
    ResourceKey {
        account_id: MOTO_ACCOUNT_ID.to_owned(),
        region: region.to_owned(),
        resource_type: resource_type.to_owned(),
        resource_id: id.to_owned(),
    }
}

async fn resource(app: &TestApp, customer_id: i64, key: &ResourceKey) -> Resource {
    app.store
        .inventory()
        .get_resource(customer_id, key)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("{key:?} is in the inventory"))
}

async fn snapshots(app: &TestApp, customer_id: i64, key: &ResourceKey) -> usize {
    app.store
        .inventory()
        .resource_snapshots(customer_id, key, 100, true)
        .await
        .unwrap()
        .len()
}

fn tag<'a>(resource: &'a Resource, key: &str) -> Option<&'a str> {
    resource.tags.get(key).map(String::as_str)
}

#[tokio::test]
async fn discovery_records_what_runs_in_moto_then_what_changed_and_what_is_gone() {
    let moto = Moto::start();
    let app = app_for(moto.endpoint(), |_| {}).await;
    let (token, customer_id, connection_id, external_id) = registered(&app, "olga@a.test").await;
    moto.create_role("CostscopeReadOnly", &external_id).await;
    let client = ec2(&moto, MOTO_REGION);
    let image = client
        .describe_images()
        .owners("amazon")
        .send()
        .await
        .expect("moto: describe images")
        .images()
        .iter()
        .find_map(|image| image.image_id().map(str::to_owned))
        .expect("moto serves Amazon AMIs");
    let instance_id = client
        .run_instances()
        .image_id(image)
        .instance_type(InstanceType::T3Micro)
        .min_count(1)
        .max_count(1)
        .tag_specifications(tags(ResourceType::Instance, &[("team", "data")]))
        .send()
        .await
        .expect("moto: run instance")
        .instances()[0]
        .instance_id()
        .unwrap()
        .to_owned();
    let volume_id = client
        .create_volume()
        .availability_zone("us-east-1a")
        .size(20)
        .tag_specifications(tags(ResourceType::Volume, &[("owner", "olga")]))
        .send()
        .await
        .expect("moto: create volume")
        .volume_id()
        .unwrap()
        .to_owned();
    moto.create_bucket("costscope-inventory-test").await;

    // First run: everything is new, one snapshot each.
    let first = discover(&app, &token).await;
    assert_eq!(first["trigger"], "on_demand");
    assert_eq!(first["state"], "succeeded", "{first}");
    assert!(first["started_at"].as_i64().unwrap() <= first["finished_at"].as_i64().unwrap());
    let account = &first["summary"]["accounts"][0];
    assert_eq!(account["account_id"], MOTO_ACCOUNT_ID);
    assert_eq!(account["connection_id"], connection_id);
    assert_eq!(account["failures"], json!([]));
    assert_eq!(account["changed"], 0);
    assert_eq!(account["deleted"], 0);
    assert!(account["created"].as_u64().unwrap() >= 3, "{account}");
    assert_eq!(account["created"], account["resources"]);

    let instance_key = key(types::EC2_INSTANCE, MOTO_REGION, &instance_id);
    let volume_key = key(types::EC2_VOLUME, MOTO_REGION, &volume_id);
    let bucket_key = key(types::S3_BUCKET, MOTO_REGION, "costscope-inventory-test");
    let instance = resource(&app, customer_id, &instance_key).await;
    assert_eq!(tag(&instance, "team"), Some("data"));
    assert_eq!(instance.properties["State"], "running");
    assert_eq!(instance.connection_id, connection_id);
    assert_eq!(instance.d_time, None);
    let volume = resource(&app, customer_id, &volume_key).await;
    assert_eq!(tag(&volume, "owner"), Some("olga"));
    assert_eq!(volume.properties["Size"], 20);
    resource(&app, customer_id, &bucket_key).await;
    for key in [&instance_key, &volume_key, &bucket_key] {
        assert_eq!(snapshots(&app, customer_id, key).await, 1, "{key:?}");
    }

    // The tag edited and the instance stopped: a second snapshot of the instance only.
    client
        .create_tags()
        .resources(&instance_id)
        .tags(Tag::builder().key("team").value("ml").build())
        .send()
        .await
        .expect("moto: edit the tag");
    client
        .stop_instances()
        .instance_ids(&instance_id)
        .send()
        .await
        .expect("moto: stop the instance");
    let second = discover(&app, &token).await;
    assert_eq!(second["state"], "succeeded", "{second}");
    let account = &second["summary"]["accounts"][0];
    assert_eq!(
        (account["created"].as_u64(), account["changed"].as_u64()),
        (Some(0), Some(1)),
        "{account}"
    );
    assert_eq!(account["deleted"], 0);
    let instance = resource(&app, customer_id, &instance_key).await;
    assert_eq!(tag(&instance, "team"), Some("ml"));
    assert_eq!(instance.properties["State"], "stopped");
    assert!(instance.m_time > instance.c_time);
    assert_eq!(snapshots(&app, customer_id, &instance_key).await, 2);
    let history = app
        .store
        .inventory()
        .resource_snapshots(customer_id, &instance_key, 8, true)
        .await
        .unwrap();
    assert_eq!(history[0].tags.get("team").map(String::as_str), Some("ml"));
    assert_eq!(
        history[1].tags.get("team").map(String::as_str),
        Some("data")
    );
    assert_eq!(history[1].properties["State"], "running");
    for key in [&volume_key, &bucket_key] {
        assert_eq!(snapshots(&app, customer_id, key).await, 1, "{key:?}");
    }

    // Terminated: the deletion time is set and the instance is still listed.
    client
        .terminate_instances()
        .instance_ids(&instance_id)
        .send()
        .await
        .expect("moto: terminate the instance");
    let third = discover(&app, &token).await;
    assert_eq!(third["state"], "succeeded", "{third}");
    // The instance and its root volume (deleted on termination, as EC2 does by default).
    assert_eq!(third["summary"]["accounts"][0]["deleted"], 2, "{third}");
    assert_eq!(third["summary"]["accounts"][0]["resources"], 11, "{third}");
    let instance = resource(&app, customer_id, &instance_key).await;
    let deleted_at = instance.d_time.expect("a deletion time");
    assert!(deleted_at <= Utc::now());
    assert_eq!(resource(&app, customer_id, &volume_key).await.d_time, None);
    let listed = app
        .store
        .inventory()
        .list_resources(
            customer_id,
            &ResourceQuery {
                count: 200,
                ..ResourceQuery::default()
            },
        )
        .await
        .unwrap();
    assert!(listed
        .iter()
        .any(|resource| resource.key == instance_key && resource.d_time.is_some()));

    // GET /v1/job: the three runs, newest first.
    let all = runs(&app, &token).await;
    assert_eq!(all.len(), 3);
    assert_eq!(all[0]["id"], third["id"]);
    assert_eq!(all[2]["id"], first["id"]);

    // Another tenant sees none of these runs and has no account to discover.
    let other = app.signup_owner("Oscar Other", "oscar@b.test").await;
    assert_eq!(runs(&app, &other.access_token).await, Vec::<Value>::new());
    let (status, body) = trigger(&app, &other.access_token).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["message"], NO_AWS_ACCOUNT);
    assert_eq!(body["data"]["details"], NO_AWS_ACCOUNT);
    assert!(app
        .store
        .inventory()
        .get_resource(other.user.customer_id, &instance_key)
        .await
        .unwrap()
        .is_none());
}

/// A region the endpoint rejects (moto serves no backend for `xx-nowhere-1`): the run is
/// partial, the region's failures are in its summary, the good region's resources are
/// recorded, and what an earlier run found in the failing region is not marked deleted.
#[tokio::test]
async fn a_failing_region_is_reported_and_loses_nothing() {
    const NOWHERE: &str = "xx-nowhere-1";
    let moto = Moto::start();
    let app = app_for(moto.endpoint(), |config| {
        config.discovery.regions = vec![MOTO_REGION.to_owned(), NOWHERE.to_owned()];
    })
    .await;
    let (token, customer_id, connection_id, external_id) = registered(&app, "olga@a.test").await;
    moto.create_role("CostscopeReadOnly", &external_id).await;
    let volume_id = ec2(&moto, MOTO_REGION)
        .create_volume()
        .availability_zone("us-east-1a")
        .size(8)
        .send()
        .await
        .expect("moto: create volume")
        .volume_id()
        .unwrap()
        .to_owned();
    // What an earlier run found in the region that now fails.
    let earlier = DiscoveredResource {
        account_id: MOTO_ACCOUNT_ID.to_owned(),
        region: NOWHERE.to_owned(),
        resource_type: types::EC2_VOLUME.to_owned(),
        resource_id: "vol-0found0earlier".to_owned(),
        arn: None,
        properties: json!({"VolumeId": "vol-0found0earlier", "State": "available"}),
        tags: Default::default(),
        metrics: None,
    };
    app.store
        .inventory()
        .record_discovery(DiscoveryWrite {
            customer_id,
            connection_id,
            account_id: MOTO_ACCOUNT_ID,
            now: Utc::now(),
            complete_scopes: &[(NOWHERE.to_owned(), types::EC2_VOLUME.to_owned())],
            resources: &[earlier],
        })
        .await
        .unwrap();

    let run = discover(&app, &token).await;
    assert_eq!(run["state"], "partial", "{run}");
    let account = &run["summary"]["accounts"][0];
    assert_eq!(account["state"], "partial", "{account}");
    let failures = account["failures"].as_array().unwrap();
    assert!(!failures.is_empty());
    for failure in failures {
        assert_eq!(failure["region"], NOWHERE, "{failure}");
        assert!(
            failure["message"].as_str().unwrap().contains(NOWHERE),
            "{failure}"
        );
    }
    assert!(
        failures.iter().any(|failure| failure["service"] == "EC2"),
        "{failures:?}"
    );
    assert_eq!(account["deleted"], 0, "{account}");
    assert_eq!(
        run["summary"]["totals"]["region_failures"].as_u64(),
        Some(failures.len() as u64)
    );
    resource(
        &app,
        customer_id,
        &key(types::EC2_VOLUME, MOTO_REGION, &volume_id),
    )
    .await;
    let kept = resource(
        &app,
        customer_id,
        &key(types::EC2_VOLUME, NOWHERE, "vol-0found0earlier"),
    )
    .await;
    assert_eq!(kept.d_time, None);
}

/// An endpoint that accepts connections and never answers: a run against it stays running
/// until the account's time limit, so the second trigger meets it.
async fn silent_endpoint() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    format!("http://{address}")
}

#[tokio::test]
async fn the_trigger_refuses_a_second_run_and_runs_past_the_daily_limit_with_the_details() {
    let endpoint = silent_endpoint().await;
    let app = app_for(&endpoint, |config| {
        config.discovery.daily_limit = 2;
        config.discovery.timeout_seconds = 2;
    })
    .await;
    let owner = app.signup_owner("Olga Owner", "olga@a.test").await;
    let token = owner.access_token.clone();

    // Nothing to discover yet.
    let (status, body) = trigger(&app, &token).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body,
        json!({"message": NO_AWS_ACCOUNT, "data": {"details": NO_AWS_ACCOUNT}})
    );

    let (status, body) = status_and_json(
        register(
            &app,
            &token,
            &json!({"aws_account_id": MOTO_ACCOUNT_ID, "account_name": "Production"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let user = app
        .add_member(&token, "Uma User", "uma@a.test", "user")
        .await;

    // A plain user may trigger; a second trigger while the run is going is refused.
    let (status, body) = trigger(&app, &user.access_token).await;
    assert_eq!(
        (status, &body),
        (StatusCode::ACCEPTED, &json!({"data": true}))
    );
    let (status, body) = trigger(&app, &token).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body,
        json!({"message": ALREADY_RUNNING, "data": {"details": ALREADY_RUNNING}})
    );
    assert!(body["data"]["details"]
        .as_str()
        .unwrap()
        .contains("already running"));

    // The account did not answer within its time limit: the run failed, saying so.
    let run = finished_run(&app, &token).await;
    assert_eq!(run["state"], "failed", "{run}");
    let account = &run["summary"]["accounts"][0];
    assert_eq!(account["state"], "failed");
    assert!(
        account["error"]
            .as_str()
            .unwrap()
            .contains("did not finish within 2 s"),
        "{account}"
    );

    // The second run of the day, then the limit.
    let (status, _) = trigger(&app, &token).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    finished_run(&app, &token).await;
    let response = app.post("/v1/job", Some(&token), &json!({})).await;
    let retry_after: i64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=86_400).contains(&retry_after), "{retry_after}");
    let (status, body) = status_and_json(response).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(
        body,
        json!({"message": LIMIT_REACHED, "data": {"details": LIMIT_REACHED}})
    );
    assert!(body["data"]["details"]
        .as_str()
        .unwrap()
        .contains("limit reached"));
    assert_eq!(runs(&app, &user.access_token).await.len(), 2);

    // The runs are counted in the metrics.
    let metrics = app.get("/metrics", None).await.text().await.unwrap();
    assert!(
        metrics.contains("costscope_discovery_runs_total{outcome=\"failed\"} 2"),
        "{metrics}"
    );
}

#[tokio::test]
async fn the_demo_customer_cannot_run_discovery_and_a_signed_out_caller_nothing() {
    let app = app_for("http://127.0.0.1:9", |_| {}).await;
    let demo = demo_owner(&app).await;
    let (status, body) = trigger(&app, &demo).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["message"], "Discovery cannot be run in the demo");
    assert_eq!(runs(&app, &demo).await, Vec::<Value>::new());
    assert_eq!(
        app.post("/v1/job", None, &json!({})).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get("/v1/job", None).await.status(),
        StatusCode::UNAUTHORIZED
    );
}
