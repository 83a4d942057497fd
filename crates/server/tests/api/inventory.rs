//! The inventory API (issue 14; spec 1 §2.7, §7 `/v1/resource*`): every filter and tag
//! operator, totals above 200, order and paging, property snapshots, params, count, stats,
//! trend, the CSV export, each resource's cost joined from the line items to the cent, spend
//! whose resource is not in the inventory, tenancy and every validation message. Resources are
//! seeded through the store's `record_discovery`, cost through a FOCUS upload whose
//! `ResourceId`s name them.

use chrono::{DateTime, Duration, NaiveDate, Timelike, Utc};
use costscope_core::inventory::query::messages;
use costscope_core::inventory::resource_types as types;
use costscope_core::inventory::{DiscoveredResource, GLOBAL_REGION};
use costscope_store::{DiscoveryWrite, NewCloudAccount};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cost_fixture::{FocusCsv, Line};
use crate::helpers::{assert_error, assert_invalid, spawn_app, status_and_json, TestApp};

pub const PROD: &str = "111122223333";
pub const STAGE: &str = "444455556666";
pub const WEB_ARN: &str = "arn:aws:ec2:us-east-1:111122223333:instance/i-0web";
pub const VOL_ARN: &str = "arn:aws:ec2:us-east-1:111122223333:volume/vol-0data";

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// Now, to the second (the API answers UNIX seconds).
pub fn now_s() -> DateTime<Utc> {
    Utc::now().with_nanosecond(0).unwrap()
}

pub fn resource(
    account: &str,
    region: &str,
    resource_type: &str,
    id: &str,
    arn: Option<&str>,
    properties: Value,
    tags: &[(&str, &str)],
) -> DiscoveredResource {
    DiscoveredResource {
        account_id: account.to_owned(),
        region: region.to_owned(),
        resource_type: resource_type.to_owned(),
        resource_id: id.to_owned(),
        arn: arn.map(str::to_owned),
        properties,
        tags: tags
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        metrics: None,
    }
}

/// The customer's connection for `account` (created once).
pub async fn connection(app: &TestApp, customer_id: i64, account: &str) -> i64 {
    if let Some(existing) = app
        .store
        .list_cloud_accounts(customer_id)
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.account_id == account)
    {
        return existing.id;
    }
    app.store
        .add_cloud_account(
            customer_id,
            NewCloudAccount {
                provider: "aws",
                account_id: account,
                account_name: "Seeded",
                now: Utc::now(),
            },
        )
        .await
        .expect("a connection")
        .id
}

/// Records one discovery of `account` at `at`; `complete` scopes are those scanned completely
/// (live resources of them not listed get deleted).
pub async fn discover(
    app: &TestApp,
    customer_id: i64,
    account: &str,
    at: DateTime<Utc>,
    complete: &[(&str, &str)],
    resources: &[DiscoveredResource],
) {
    let connection_id = connection(app, customer_id, account).await;
    let scopes: Vec<(String, String)> = complete
        .iter()
        .map(|(r, t)| ((*r).to_owned(), (*t).to_owned()))
        .collect();
    app.store
        .inventory()
        .record_discovery(DiscoveryWrite {
            customer_id,
            connection_id,
            account_id: account,
            now: at,
            complete_scopes: &scopes,
            resources,
        })
        .await
        .expect("record the discovery");
}

/// A FOCUS line of `billed` on `day` naming `resource_id`.
pub fn cost_line(
    account: &'static str,
    day: NaiveDate,
    resource_id: &'static str,
    billed: f64,
) -> Line {
    let mut line = Line::aws(account, leak(day.to_string()), billed);
    line.resource_id = resource_id;
    line
}

pub async fn upload(app: &TestApp, token: &str, csv: FocusCsv) {
    let job = app
        .ingest_files(token, &[("costs.csv", csv.to_csv().into_bytes())])
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
}

async fn list(app: &TestApp, token: &str, body: Value) -> Value {
    let (status, answer) =
        status_and_json(app.post("/v1/resource", Some(token), &body).await).await;
    assert_eq!(status, StatusCode::OK, "{body} → {answer}");
    answer
}

fn ids(answer: &Value) -> Vec<String> {
    answer["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .map(|r| r["resource_id"].as_str().unwrap().to_owned())
        .collect()
}

fn sorted(mut ids: Vec<String>) -> Vec<String> {
    ids.sort();
    ids
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

/// The seeded world: first scan 10 days ago (STAGE's 2 minutes later), `i-0old` deleted 3
/// days ago.
///
/// | id | account | region | type | tags |
/// |---|---|---|---|---|
/// | i-0web (ARN) | PROD | us-east-1 | Instance | env=prod, team=web |
/// | vol-0data (ARN) | PROD | us-east-1 | Volume | env=dev, owner="" |
/// | my-bucket | PROD | us-east-1 | Bucket | none |
/// | i-0old | PROD | us-east-1 | Instance | env=prod (deleted) |
/// | i-0stage | STAGE | eu-west-1 | Instance | team=data |
/// | deployer | STAGE | global | IAM Role | none |
pub struct World {
    pub first_scan: DateTime<Utc>,
    pub deleted_at: DateTime<Utc>,
}

pub async fn seed_world(app: &TestApp, customer_id: i64) -> World {
    let first_scan = now_s() - Duration::days(10);
    let deleted_at = now_s() - Duration::days(3);
    let web = resource(
        PROD,
        "us-east-1",
        types::EC2_INSTANCE,
        "i-0web",
        Some(WEB_ARN),
        json!({"InstanceId": "i-0web", "InstanceType": "m5.large", "State": {"Name": "running"},
               "Placement": {"AvailabilityZone": "us-east-1a"},
               "SecurityGroups": [{"GroupId": "sg-1"}, {"GroupId": "sg-2"}]}),
        &[("env", "prod"), ("team", "web")],
    );
    let volume = resource(
        PROD,
        "us-east-1",
        types::EC2_VOLUME,
        "vol-0data",
        Some(VOL_ARN),
        json!({"VolumeId": "vol-0data", "Size": 100, "Encrypted": false, "VolumeType": "gp2"}),
        &[("env", "dev"), ("owner", "")],
    );
    let bucket = resource(
        PROD,
        "us-east-1",
        types::S3_BUCKET,
        "my-bucket",
        None,
        json!({"Name": "my-bucket"}),
        &[],
    );
    let old = resource(
        PROD,
        "us-east-1",
        types::EC2_INSTANCE,
        "i-0old",
        None,
        json!({"InstanceId": "i-0old", "InstanceType": "t2.micro", "State": {"Name": "stopped"},
               "Placement": {"AvailabilityZone": "us-east-1b"}}),
        &[("env", "prod")],
    );
    discover(
        app,
        customer_id,
        PROD,
        first_scan,
        &[],
        &[web.clone(), volume.clone(), bucket.clone(), old],
    )
    .await;
    // The instance scope was scanned completely again and i-0old was gone.
    discover(
        app,
        customer_id,
        PROD,
        deleted_at,
        &[("us-east-1", types::EC2_INSTANCE)],
        &[web, volume, bucket],
    )
    .await;
    discover(
        app,
        customer_id,
        STAGE,
        first_scan + Duration::minutes(2),
        &[],
        &[
            resource(
                STAGE,
                "eu-west-1",
                types::EC2_INSTANCE,
                "i-0stage",
                None,
                json!({"InstanceId": "i-0stage", "InstanceType": "m5.large",
                       "Placement": {"AvailabilityZone": "eu-west-1a"}}),
                &[("team", "data")],
            ),
            resource(
                STAGE,
                GLOBAL_REGION,
                types::IAM_ROLE,
                "deployer",
                None,
                json!({"RoleName": "deployer"}),
                &[],
            ),
        ],
    )
    .await;
    World {
        first_scan,
        deleted_at,
    }
}

/// Yesterday and the day before (inside the default window of the last 30 days).
fn recent_days() -> (NaiveDate, NaiveDate) {
    let today = Utc::now().date_naive();
    (today - Duration::days(1), today - Duration::days(2))
}

/// i-0web 10.25 + 2.10 by id and 0.01 by ARN (12.36), vol-0data 1.05 by ARN, i-0stage 3.33,
/// unknown ids i-0ghost 7.5 and snap-0lost 0.4, a tax without a resource 5; and 100 for
/// i-0web 40 days ago (outside the default window).
pub fn costs() -> FocusCsv {
    let (d1, d2) = recent_days();
    let old = Utc::now().date_naive() - Duration::days(40);
    let mut tax = cost_line(PROD, d1, "", 5.0);
    tax.charge_category = "Tax";
    FocusCsv::new()
        .line(cost_line(PROD, d1, "i-0web", 10.25))
        .line(cost_line(PROD, d2, "i-0web", 2.10))
        .line(cost_line(PROD, d2, WEB_ARN, 0.01))
        .line(cost_line(PROD, d1, VOL_ARN, 1.05))
        .line(cost_line(STAGE, d1, "i-0stage", 3.33))
        .line(cost_line(PROD, d1, "i-0ghost", 7.5))
        .line(cost_line(PROD, d2, "snap-0lost", 0.4))
        .line(tax)
        .line(cost_line(PROD, old, "i-0web", 100.0))
}

async fn owner_with_world(app: &TestApp, email: &str) -> (String, i64, World) {
    let owner = app.signup_owner("Olga Owner", email).await;
    let world = seed_world(app, owner.user.customer_id).await;
    (owner.access_token, owner.user.customer_id, world)
}

fn cost_of(answer: &Value, id: &str) -> Value {
    answer["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["resource_id"] == id)
        .unwrap_or_else(|| panic!("{id} in {answer}"))["cost"]
        .clone()
}

#[tokio::test]
async fn the_inventory_answers_each_resource_with_its_cost_to_the_cent() {
    let app = spawn_app().await;
    let (token, _, world) = owner_with_world(&app, "olga@inv.test").await;
    upload(&app, &token, costs()).await;
    let before = now_s();
    let answer = list(&app, &token, json!({})).await;
    // Default: every state, first scan time descending (ties by key), the last 30 days.
    assert_eq!(answer["total"], 6);
    assert_eq!(answer["currency"], "USD");
    let period = &answer["cost_period"];
    let end = period["end_time"].as_i64().unwrap();
    assert!((end - before.timestamp()).abs() <= 5, "{period}");
    assert_eq!(period["start_time"].as_i64().unwrap(), end - 30 * 86_400);
    // Cost by id plus by ARN, summed as DECIMALs: 10.25 + 2.10 + 0.01.
    assert_eq!(cost_of(&answer, "i-0web"), json!(12.36));
    assert_eq!(cost_of(&answer, "vol-0data"), json!(1.05));
    assert_eq!(cost_of(&answer, "i-0stage"), json!(3.33));
    // No line item names them: null, not 0.
    assert_eq!(cost_of(&answer, "my-bucket"), Value::Null);
    assert_eq!(cost_of(&answer, "deployer"), Value::Null);

    let web = answer["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["resource_id"] == "i-0web")
        .unwrap();
    assert_eq!(
        web,
        &json!({
            "resource_id": "i-0web",
            "resource_type": "AWS::EC2::Instance",
            "region": "us-east-1",
            "account_id": PROD,
            "arn": WEB_ARN,
            "c_time": world.first_scan.timestamp(),
            "m_time": world.first_scan.timestamp(),
            "d_time": 0,
            "property": {"InstanceId": "i-0web", "InstanceType": "m5.large", "State": {"Name": "running"},
                         "Placement": {"AvailabilityZone": "us-east-1a"},
                         "SecurityGroups": [{"GroupId": "sg-1"}, {"GroupId": "sg-2"}]},
            "tags": {"env": "prod", "team": "web"},
            "cost": 12.36,
        })
    );
    let old = answer["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["resource_id"] == "i-0old")
        .unwrap();
    assert_eq!(old["d_time"], world.deleted_at.timestamp());

    // A window 45 to 35 days back holds i-0web's old line only... but no resource existed then.
    let far = list(
        &app,
        &token,
        json!({"start_time": (now_s() - Duration::days(60)).timestamp(),
               "end_time": (now_s() - Duration::days(11)).timestamp()}),
    )
    .await;
    assert_eq!(far["total"], 0);
    // A window from 45 days back to now: the old line counts too.
    let wide = list(
        &app,
        &token,
        json!({"start_time": (now_s() - Duration::days(45)).timestamp(),
               "resource_ids": ["i-0web"]}),
    )
    .await;
    assert_eq!(cost_of(&wide, "i-0web"), json!(112.36));
}

#[tokio::test]
async fn every_filter_of_the_spec_narrows_the_list() {
    let app = spawn_app().await;
    let (token, _, world) = owner_with_world(&app, "olga@filters.test").await;
    let check = |body: Value, expected: &[&str]| {
        let app = &app;
        let token = token.clone();
        let expected = sorted(strings(expected));
        async move {
            let answer = list(app, &token, body.clone()).await;
            assert_eq!(sorted(ids(&answer)), expected, "{body}");
            assert_eq!(answer["total"], expected.len(), "{body}");
        }
    };
    check(json!({"account_ids": [STAGE]}), &["i-0stage", "deployer"]).await;
    check(
        json!({"account_ids": [PROD, STAGE], "regions": ["global"]}),
        &["deployer"],
    )
    .await;
    check(
        json!({"regions": ["us-east-1", "eu-west-1"], "resource_types": ["AWS::EC2::Instance"]}),
        &["i-0web", "i-0old", "i-0stage"],
    )
    .await;
    // Resource State: live, deleted, deleted before.
    check(
        json!({"d_time": {"eq": 0}, "account_ids": [PROD]}),
        &["i-0web", "vol-0data", "my-bucket"],
    )
    .await;
    check(json!({"d_time": {"not_eq": 0}}), &["i-0old"]).await;
    check(
        json!({"d_time": {"lt": world.deleted_at.timestamp() + 1}}),
        &["i-0old"],
    )
    .await;
    check(json!({"d_time": {"lt": world.deleted_at.timestamp()}}), &[]).await;
    // First seen before: STAGE's resources were found an hour after PROD's.
    check(
        json!({"c_time": {"lt": world.first_scan.timestamp() + 60}}),
        &["i-0web", "vol-0data", "my-bucket", "i-0old"],
    )
    .await;
    // Exact ids or ARNs.
    check(
        json!({"resource_ids": ["i-0web", VOL_ARN, "i-0"]}),
        &["i-0web", "vol-0data"],
    )
    .await;
    // Search: part of the id, the ARN or a tag value, any case.
    check(json!({"search": "I-0W"}), &["i-0web"]).await;
    check(json!({"search": "volume/vol"}), &["vol-0data"]).await;
    check(json!({"search": "DATA"}), &["vol-0data", "i-0stage"]).await;
    // Property conditions: a nested path, a list path, a number, a boolean.
    check(
        json!({"resource_params": [{"name": "Placement.AvailabilityZone", "eq": "us-east-1a"}]}),
        &["i-0web"],
    )
    .await;
    check(
        json!({"resource_params": [{"name": "SecurityGroups[].GroupId", "eq": "sg-2"}]}),
        &["i-0web"],
    )
    .await;
    check(
        json!({"resource_params": [{"name": "Size", "eq": 100}]}),
        &["vol-0data"],
    )
    .await;
    check(
        json!({"resource_params": [{"name": "Encrypted", "eq": false}]}),
        &["vol-0data"],
    )
    .await;
    check(
        json!({"resource_params": [{"name": "InstanceType", "eq": "m5.large"},
                                     {"name": "Placement.AvailabilityZone", "eq": "eu-west-1a"}]}),
        &["i-0stage"],
    )
    .await;
    // Tag operators.
    check(
        json!({"tag": [{"name": "env", "operator": "Equal", "value": ["prod"]}]}),
        &["i-0web", "i-0old"],
    )
    .await;
    check(
        json!({"tag": [{"name": "env", "operator": "Equal", "value": ["prod", "dev"]}]}),
        &["i-0web", "i-0old", "vol-0data"],
    )
    .await;
    check(
        json!({"tag": [{"name": "env", "operator": "NotEqual", "value": ["prod"]}]}),
        &["vol-0data", "my-bucket", "i-0stage", "deployer"],
    )
    .await;
    check(
        json!({"tag": [{"name": "team", "operator": "Exists"}]}),
        &["i-0web", "i-0stage"],
    )
    .await;
    check(
        json!({"tag": [{"name": "env", "operator": "NotExists"}]}),
        &["my-bucket", "i-0stage", "deployer"],
    )
    .await;
    check(
        json!({"tag": [{"name": "owner", "operator": "Empty"}]}),
        &["vol-0data"],
    )
    .await;
    check(
        json!({"tag": [{"name": "env", "operator": "NotEmpty"}]}),
        &["i-0web", "vol-0data", "i-0old"],
    )
    .await;
    // The spec's shorthand, the labels, and several conditions AND-ed.
    check(
        json!({"tag": [{"name": "env", "eq": "prod"}]}),
        &["i-0web", "i-0old"],
    )
    .await;
    check(
        json!({"tag": [{"name": "env", "not_eq": ["prod", "dev"]}]}),
        &["my-bucket", "i-0stage", "deployer"],
    )
    .await;
    check(
        json!({"tag": [{"name": "env", "operator": "Not Empty"}, {"name": "team", "eq": "web"}]}),
        &["i-0web"],
    )
    .await;
    // Tag keys are exact (AWS keys are case-sensitive).
    check(json!({"tag": [{"name": "ENV", "operator": "Exists"}]}), &[]).await;
    // Show Untagged.
    check(json!({"not_tagged": true}), &["my-bucket", "deployer"]).await;
    check(
        json!({"not_tagged": true, "account_ids": [PROD]}),
        &["my-bucket"],
    )
    .await;
}

#[tokio::test]
async fn order_paging_and_a_total_above_200() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@paging.test").await;
    let token = owner.access_token.as_str();
    let start = now_s() - Duration::days(5);
    // 205 volumes found one minute apart: vol-000 first.
    for index in 0..205 {
        discover(
            &app,
            owner.user.customer_id,
            PROD,
            start + Duration::minutes(index),
            &[],
            &[resource(
                PROD,
                "us-east-1",
                types::EC2_VOLUME,
                &format!("vol-{index:03}"),
                None,
                json!({"Size": index}),
                &[],
            )],
        )
        .await;
    }
    let answer = list(&app, token, json!({})).await;
    // The fetch count is 200; the header shows "200+" from the total.
    assert_eq!(answer["resources"].as_array().unwrap().len(), 200);
    assert_eq!(answer["total"], 205);
    let got = ids(&answer);
    assert_eq!(got[0], "vol-204");
    assert_eq!(got[199], "vol-005");

    let page = list(
        &app,
        token,
        json!({"count": 3, "offset": 2, "order_by": "c_time", "order_desc": false}),
    )
    .await;
    assert_eq!(ids(&page), strings(&["vol-002", "vol-003", "vol-004"]));
    assert_eq!(page["total"], 205);
    let page = list(
        &app,
        token,
        json!({"count": 2, "order_by": "resource_id", "order_desc": true}),
    )
    .await;
    assert_eq!(ids(&page), strings(&["vol-204", "vol-203"]));
    let page = list(
        &app,
        token,
        json!({"count": 2, "offset": 204, "order_by": "resource_id", "order_desc": false}),
    )
    .await;
    assert_eq!(ids(&page), strings(&["vol-204"]));
    let page = list(&app, token, json!({"count": 10000, "offset": 1000})).await;
    assert!(ids(&page).is_empty());
    assert_eq!(page["total"], 205);
}

#[tokio::test]
async fn order_by_each_column() {
    let app = spawn_app().await;
    let (token, _, _) = owner_with_world(&app, "olga@order.test").await;
    let first = |order_by: &str, desc: bool| {
        let app = &app;
        let token = token.clone();
        let order_by = order_by.to_owned();
        async move {
            let answer = list(
                app,
                &token,
                json!({"order_by": order_by, "order_desc": desc, "count": 1}),
            )
            .await;
            ids(&answer).remove(0)
        }
    };
    assert_eq!(first("resource_id", false).await, "deployer");
    assert_eq!(first("resource_id", true).await, "vol-0data");
    assert_eq!(first("resource_type", false).await, "i-0old"); // AWS::EC2::Instance, then by key
    assert_eq!(first("resource_type", true).await, "my-bucket"); // AWS::S3::Bucket
                                                                 // Ties are broken by the key (account, region, type, id) in the order's direction.
    assert_eq!(first("region", true).await, "my-bucket"); // us-east-1, then AWS::S3::Bucket
    assert_eq!(first("account_id", true).await, "deployer"); // STAGE, then global
    assert_eq!(first("account_id", false).await, "i-0old"); // PROD, us-east-1, Instance
                                                            // STAGE's resources were found two minutes after PROD's.
    assert_eq!(first("m_time", true).await, "deployer");
    assert_eq!(first("c_time", false).await, "i-0old");
}

#[tokio::test]
async fn property_snapshots_are_the_8_newest_by_default() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@snapshots.test").await;
    let token = owner.access_token.as_str();
    let start = now_s() - Duration::days(20);
    // Ten runs, each with another tag value: ten snapshots.
    for run in 0..10 {
        discover(
            &app,
            owner.user.customer_id,
            PROD,
            start + Duration::days(run),
            &[],
            &[resource(
                PROD,
                "us-east-1",
                types::EC2_INSTANCE,
                "i-0web",
                Some(WEB_ARN),
                json!({"InstanceId": "i-0web", "Run": run}),
                &[("version", &run.to_string())],
            )],
        )
        .await;
    }
    // A run that sees it unchanged writes no snapshot.
    discover(
        &app,
        owner.user.customer_id,
        PROD,
        start + Duration::days(11),
        &[],
        &[resource(
            PROD,
            "us-east-1",
            types::EC2_INSTANCE,
            "i-0web",
            Some(WEB_ARN),
            json!({"InstanceId": "i-0web", "Run": 9}),
            &[("version", "9")],
        )],
    )
    .await;
    let body = json!({"resource_id": "i-0web", "resource_type": "AWS::EC2::Instance", "region": "us-east-1"});
    let (status, snapshots) =
        status_and_json(app.post("/v1/resource/property", Some(token), &body).await).await;
    assert_eq!(status, StatusCode::OK, "{snapshots}");
    let runs: Vec<i64> = snapshots
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["properties"]["Run"].as_i64().unwrap())
        .collect();
    assert_eq!(runs, vec![9, 8, 7, 6, 5, 4, 3, 2]);
    assert_eq!(snapshots[0]["tags"], json!({"version": "9"}));
    assert_eq!(
        snapshots[0]["c_time"],
        (start + Duration::days(9)).timestamp()
    );

    let mut oldest = body.clone();
    oldest["order_desc"] = json!(false);
    oldest["count"] = json!(3);
    oldest["order_by"] = json!("c_time");
    oldest["account_ids"] = json!([PROD]);
    let (status, snapshots) = status_and_json(
        app.post("/v1/resource/property", Some(token), &oldest)
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{snapshots}");
    let runs: Vec<i64> = snapshots
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["properties"]["Run"].as_i64().unwrap())
        .collect();
    assert_eq!(runs, vec![0, 1, 2]);
    assert_eq!(snapshots[0]["c_time"], start.timestamp());

    // Another account, region, type or id: not found.
    for (field, value) in [
        ("account_ids", json!([STAGE])),
        ("region", json!("eu-west-1")),
        ("resource_type", json!("AWS::EC2::Volume")),
        ("resource_id", json!("i-0nope")),
    ] {
        let mut other = body.clone();
        other[field] = value;
        assert_error(
            app.post("/v1/resource/property", Some(token), &other).await,
            StatusCode::NOT_FOUND,
            "Resource not found",
        )
        .await;
    }
    // Another customer: not found either.
    let other = app.signup_owner("Bob Other", "bob@snapshots.test").await;
    assert_error(
        app.post("/v1/resource/property", Some(&other.access_token), &body)
            .await,
        StatusCode::NOT_FOUND,
        "Resource not found",
    )
    .await;
}

#[tokio::test]
async fn property_requests_name_each_broken_field() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olga Owner", "olga@property422.test")
        .await
        .access_token;
    let (app, token) = (&app, token.as_str());
    let call =
        |body: Value| async move { app.post("/v1/resource/property", Some(token), &body).await };
    let (status, body) = status_and_json(call(json!({})).await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["details"]["resource_id"],
        json!(["resource_id is required"])
    );
    assert_eq!(
        body["details"]["resource_type"],
        json!(["resource_type is required"])
    );
    assert_eq!(body["details"]["region"], json!(["region is required"]));
    let base =
        json!({"resource_id": "i-1", "resource_type": "AWS::EC2::Instance", "region": "us-east-1"});
    let with = |field: &str, value: Value| {
        let mut body = base.clone();
        body[field] = value;
        body
    };
    assert_invalid(
        call(with("count", json!(0))).await,
        "count",
        "count must be between 1 and 100",
    )
    .await;
    assert_invalid(
        call(with("count", json!(101))).await,
        "count",
        "count must be between 1 and 100",
    )
    .await;
    assert_invalid(
        call(with("order_by", json!("m_time"))).await,
        "order_by",
        "order_by can only be c_time",
    )
    .await;
    assert_invalid(
        call(with("resource_type", json!("AWS::Nope"))).await,
        "resource_type",
        messages::RESOURCE_TYPES,
    )
    .await;
    assert_invalid(
        call(with("region", json!("US East"))).await,
        "region",
        messages::REGIONS,
    )
    .await;
    assert_invalid(
        call(with("account_ids", json!(["12"]))).await,
        "account_ids",
        messages::ACCOUNT_IDS,
    )
    .await;
}

#[tokio::test]
async fn params_are_the_flat_paths_of_the_asked_types() {
    let app = spawn_app().await;
    let (token, _, _) = owner_with_world(&app, "olga@params.test").await;
    let (status, params) = status_and_json(
        app.get(
            "/v1/resource/params?resourceType=AWS::EC2::Volume&resourceType=AWS::S3::Bucket",
            Some(&token),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{params}");
    assert_eq!(
        params,
        json!([
            {"resourceType": "AWS::EC2::Volume", "DisplayName": "Encrypted", "FlatPath": "Encrypted"},
            {"resourceType": "AWS::EC2::Volume", "DisplayName": "Size", "FlatPath": "Size"},
            {"resourceType": "AWS::EC2::Volume", "DisplayName": "VolumeId", "FlatPath": "VolumeId"},
            {"resourceType": "AWS::EC2::Volume", "DisplayName": "VolumeType", "FlatPath": "VolumeType"},
            {"resourceType": "AWS::S3::Bucket", "DisplayName": "Name", "FlatPath": "Name"},
        ])
    );
    let (status, params) = status_and_json(
        app.get(
            "/v1/resource/params?resourceType=AWS::EC2::Instance",
            Some(&token),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let paths: Vec<&str> = params
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["FlatPath"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&"Placement.AvailabilityZone"), "{params}");
    assert!(paths.contains(&"SecurityGroups[].GroupId"), "{params}");
    assert_invalid(
        app.get("/v1/resource/params", Some(&token)).await,
        "resourceType",
        "resourceType is required",
    )
    .await;
    assert_invalid(
        app.get("/v1/resource/params?resourceType=AWS::Nope", Some(&token))
            .await,
        "resourceType",
        messages::RESOURCE_TYPES,
    )
    .await;
    let many: String = (0..51)
        .map(|_| "resourceType=AWS::S3::Bucket")
        .collect::<Vec<_>>()
        .join("&");
    assert_invalid(
        app.get(&format!("/v1/resource/params?{many}"), Some(&token))
            .await,
        "resourceType",
        "At most 50 resourceType values are allowed",
    )
    .await;
}

#[tokio::test]
async fn count_stats_and_trend() {
    let app = spawn_app().await;
    let (token, _, world) = owner_with_world(&app, "olga@stats.test").await;
    let (status, counts) = status_and_json(
        app.post("/v1/resource/count", Some(&token), &json!({}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        counts,
        json!([
            {"account_id": PROD, "regions": [{"region": "us-east-1", "ResourceTypeCounts":
                {"AWS::EC2::Instance": 1, "AWS::EC2::Volume": 1, "AWS::S3::Bucket": 1}}]},
            {"account_id": STAGE, "regions": [
                {"region": "eu-west-1", "ResourceTypeCounts": {"AWS::EC2::Instance": 1}},
                {"region": "global", "ResourceTypeCounts": {"AWS::IAM::Role": 1}}]},
        ])
    );
    let (_, counts) = status_and_json(
        app.post(
            "/v1/resource/count",
            Some(&token),
            &json!({"account_ids": [PROD], "all_resources": true}),
        )
        .await,
    )
    .await;
    assert_eq!(
        counts[0]["regions"][0]["ResourceTypeCounts"]["AWS::EC2::Instance"],
        2
    );
    assert_eq!(counts.as_array().unwrap().len(), 1);

    let (status, stats) = status_and_json(
        app.post("/v1/resource/stats", Some(&token), &json!({}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{stats}");
    assert_eq!(
        stats,
        json!({"live": 5, "deleted": 1, "tagged": 3, "untagged": 2,
               "by_type": [{"resource_type": "AWS::EC2::Instance", "live": 2},
                           {"resource_type": "AWS::EC2::Volume", "live": 1},
                           {"resource_type": "AWS::IAM::Role", "live": 1},
                           {"resource_type": "AWS::S3::Bucket", "live": 1}],
               "by_account": [{"account_id": PROD, "live": 3}, {"account_id": STAGE, "live": 2}]})
    );
    let (_, stats) = status_and_json(
        app.post(
            "/v1/resource/stats",
            Some(&token),
            &json!({"account_ids": [STAGE]}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (
            stats["live"].clone(),
            stats["deleted"].clone(),
            stats["untagged"].clone()
        ),
        (json!(2), json!(0), json!(1))
    );

    let (status, trend) = status_and_json(
        app.post("/v1/resource/trend", Some(&token), &json!({}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{trend}");
    let points = trend.as_array().unwrap();
    let day = |at: DateTime<Utc>| at.date_naive().to_string();
    let point = |date: String| points.iter().find(|p| p["date"] == date).cloned();
    // Before the first scan nothing was live; on its day all six; the day before the deletion
    // six; from the deletion's day on five.
    assert_eq!(point(day(world.first_scan - Duration::days(1))), None);
    assert_eq!(point(day(world.first_scan)).unwrap()["live"], 6);
    assert_eq!(
        point(day(world.deleted_at - Duration::days(1))).unwrap()["live"],
        6
    );
    let after = point(day(world.deleted_at)).unwrap();
    assert_eq!(after["live"], 5);
    assert_eq!(after["by_type"]["AWS::EC2::Instance"], 2);
    // One account: computed from its own resources.
    let (_, trend) = status_and_json(
        app.post(
            "/v1/resource/trend",
            Some(&token),
            &json!({"account_ids": [PROD]}),
        )
        .await,
    )
    .await;
    let points = trend.as_array().unwrap();
    let first = points
        .iter()
        .find(|p| p["date"] == day(world.first_scan))
        .unwrap();
    assert_eq!(first["live"], 4);
    assert_eq!(
        first["by_type"],
        json!({"AWS::EC2::Instance": 2, "AWS::EC2::Volume": 1, "AWS::S3::Bucket": 1})
    );
    let last = points.last().unwrap();
    assert_eq!(last["live"], 3);
    // A range of the three days before the first scan: nothing.
    let (_, trend) = status_and_json(
        app.post(
            "/v1/resource/trend",
            Some(&token),
            &json!({
            "start_time": (world.first_scan - Duration::days(4)).timestamp(),
            "end_time": (world.first_scan - Duration::days(1)).timestamp()}),
        )
        .await,
    )
    .await;
    assert_eq!(trend, json!([]));
}

#[tokio::test]
async fn the_export_is_a_csv_of_the_filtered_list_with_escaped_cells() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@export.test").await;
    let token = owner.access_token.as_str();
    let world = seed_world(&app, owner.user.customer_id).await;
    // A tag value a spreadsheet would run as a formula, with a comma and a quote.
    discover(
        &app,
        owner.user.customer_id,
        STAGE,
        world.first_scan,
        &[],
        &[resource(
            STAGE,
            "eu-west-1",
            types::EC2_INSTANCE,
            "=cmd|' /C calc'!A0",
            None,
            json!({}),
            &[("note", "=1+1, \"quoted\"\n"), ("a", "b")],
        )],
    )
    .await;
    upload(&app, token, costs()).await;
    let response = app
        .post(
            "/v1/resource/export",
            Some(token),
            &json!({"order_by": "resource_id", "order_desc": false}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "text/csv; charset=utf-8"
    );
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"resources-"),
        "{disposition}"
    );
    let csv = response.text().await.unwrap();
    let lines: Vec<&str> = csv.split("\r\n").collect();
    assert_eq!(
        lines[0],
        "Resource ID,Resource Type,Region,AWS Account,First Scan Time,State,Deletion Time,Cost,Tags"
    );
    let first = world
        .first_scan
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let deleted = world
        .deleted_at
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    assert_eq!(
        lines[1],
        format!("'=cmd|' /C calc'!A0,AWS::EC2::Instance,eu-west-1,{STAGE},{first},Live,,,\"a=b; note==1+1, \"\"quoted\"\"\"")
    );
    assert_eq!(
        lines[2],
        format!(
            "deployer,AWS::IAM::Role,global,{STAGE},{},Live,,,",
            (world.first_scan + Duration::minutes(2))
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        )
    );
    assert_eq!(
        lines[3],
        format!("i-0old,AWS::EC2::Instance,us-east-1,{PROD},{first},Deleted,{deleted},,env=prod")
    );
    assert_eq!(
        lines[5],
        format!(
            "i-0web,AWS::EC2::Instance,us-east-1,{PROD},{first},Live,,12.36,env=prod; team=web"
        )
    );
    assert_eq!(
        lines[7],
        format!("vol-0data,AWS::EC2::Volume,us-east-1,{PROD},{first},Live,,1.05,env=dev; owner=")
    );
    assert_eq!(lines.len(), 9, "{csv}"); // 7 rows, the header and the last line's end
    assert_eq!(lines[8], "");

    // The filters apply; the cell rule applies to the tag cell too.
    let response = app
        .post(
            "/v1/resource/export",
            Some(token),
            &json!({"d_time": {"not_eq": 0}}),
        )
        .await;
    let csv = response.text().await.unwrap();
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(csv.contains("i-0old"));
    // A broken filter is a 422, not a file.
    assert_invalid(
        app.post("/v1/resource/export", Some(token), &json!({"count": 0}))
            .await,
        "count",
        messages::COUNT,
    )
    .await;
}

#[tokio::test]
async fn unmatched_spend_lists_the_spend_whose_resource_is_not_in_the_inventory() {
    let app = spawn_app().await;
    let (token, _, _) = owner_with_world(&app, "olga@unmatched.test").await;
    upload(&app, &token, costs()).await;
    let (status, answer) =
        status_and_json(app.get("/v1/resource/unmatched-spend", Some(&token)).await).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["resource_count"], 2);
    assert_eq!(answer["total"], json!(7.9));
    assert_eq!(answer["currency"], "USD");
    assert_eq!(
        answer["resources"],
        json!([
            {"resource_id": "i-0ghost", "cloud_provider": "AWS", "account_id": PROD, "service": "AmazonEC2", "cost": 7.5},
            {"resource_id": "snap-0lost", "cloud_provider": "AWS", "account_id": PROD, "service": "AmazonEC2", "cost": 0.4},
        ])
    );
    // A window holding only the old line: i-0web is known, nothing is unmatched.
    let start = (now_s() - Duration::days(45)).timestamp();
    let end = (now_s() - Duration::days(35)).timestamp();
    let (status, answer) = status_and_json(
        app.get(
            &format!("/v1/resource/unmatched-spend?start_time={start}&end_time={end}"),
            Some(&token),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        (answer["resource_count"].clone(), answer["total"].clone()),
        (json!(0), json!(0.0))
    );
    assert_eq!(
        answer["cost_period"],
        json!({"start_time": start, "end_time": end})
    );
    assert_invalid(
        app.get("/v1/resource/unmatched-spend?start_time=soon", Some(&token))
            .await,
        "start_time",
        messages::START_TIME,
    )
    .await;
    let old = (now_s() - Duration::days(901)).timestamp();
    assert_invalid(
        app.get(
            &format!("/v1/resource/unmatched-spend?start_time={old}"),
            Some(&token),
        )
        .await,
        "start_time",
        messages::WINDOW_TOO_OLD,
    )
    .await;
}

#[tokio::test]
async fn another_customer_sees_none_of_the_inventory_nor_its_cost() {
    let app = spawn_app().await;
    let (token_a, _, _) = owner_with_world(&app, "alice@inv-a.test").await;
    upload(&app, &token_a, costs()).await;
    let owner_b = app.signup_owner("Bob Bravo", "bob@inv-b.test").await;
    let token_b = owner_b.access_token.as_str();
    // B's own resource with an id A's cost data names: B's cost is B's (none).
    discover(
        &app,
        owner_b.user.customer_id,
        STAGE,
        now_s() - Duration::days(1),
        &[],
        &[resource(
            STAGE,
            "us-east-1",
            types::EC2_INSTANCE,
            "i-0web",
            None,
            json!({}),
            &[],
        )],
    )
    .await;
    let answer = list(&app, token_b, json!({})).await;
    assert_eq!(ids(&answer), strings(&["i-0web"]));
    assert_eq!(answer["resources"][0]["cost"], Value::Null);
    assert_eq!(answer["resources"][0]["account_id"], STAGE);
    let answer = list(&app, token_b, json!({"account_ids": [PROD]})).await;
    assert_eq!(answer["total"], 0);
    let (_, counts) = status_and_json(
        app.post(
            "/v1/resource/count",
            Some(token_b),
            &json!({"account_ids": [PROD]}),
        )
        .await,
    )
    .await;
    assert_eq!(counts, json!([]));
    let (_, stats) = status_and_json(
        app.post("/v1/resource/stats", Some(token_b), &json!({}))
            .await,
    )
    .await;
    assert_eq!(stats["live"], 1);
    let (_, params) = status_and_json(
        app.get(
            "/v1/resource/params?resourceType=AWS::EC2::Volume",
            Some(token_b),
        )
        .await,
    )
    .await;
    assert_eq!(params, json!([]));
    let (_, unmatched) =
        status_and_json(app.get("/v1/resource/unmatched-spend", Some(token_b)).await).await;
    assert_eq!(unmatched["resource_count"], 0);
    let csv = app
        .post("/v1/resource/export", Some(token_b), &json!({}))
        .await
        .text()
        .await
        .unwrap();
    assert!(!csv.contains(PROD) && !csv.contains("vol-0data"), "{csv}");
    // Without a token: 401.
    assert_error(
        app.post("/v1/resource", None, &json!({})).await,
        StatusCode::UNAUTHORIZED,
        "Authentication required",
    )
    .await;
}

#[tokio::test]
async fn every_signed_in_role_reads_the_inventory() {
    let app = spawn_app().await;
    let (owner, _, _) = owner_with_world(&app, "olga@roles.test").await;
    let user = app
        .add_member(&owner, "Uma User", "uma@roles.test", "User")
        .await;
    let admin = app
        .add_member(&owner, "Adam Admin", "adam@roles.test", "Admin")
        .await;
    for token in [&user.access_token, &admin.access_token] {
        assert_eq!(list(&app, token, json!({})).await["total"], 6);
        for path in [
            "/v1/resource/count",
            "/v1/resource/stats",
            "/v1/resource/trend",
            "/v1/resource/export",
        ] {
            let response = app.post(path, Some(token), &json!({})).await;
            assert_eq!(response.status(), StatusCode::OK, "{path}");
        }
    }
}

#[tokio::test]
async fn every_validation_message_names_its_field() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olga Owner", "olga@inv422.test")
        .await
        .access_token;
    let now = now_s().timestamp();
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({"count": 0}), "count", messages::COUNT),
        (json!({"count": 10001}), "count", messages::COUNT),
        (json!({"offset": -1}), "offset", messages::OFFSET),
        (
            json!({"start_time": now, "end_time": now}),
            "start_time",
            messages::WINDOW_ORDER,
        ),
        (
            json!({"start_time": now - 901 * 86_400}),
            "start_time",
            messages::WINDOW_TOO_OLD,
        ),
        (
            json!({"start_time": i64::MIN}),
            "start_time",
            messages::START_TIME,
        ),
        (
            json!({"end_time": i64::MAX}),
            "end_time",
            messages::END_TIME,
        ),
        (
            json!({"search": "x".repeat(257)}),
            "search",
            messages::SEARCH_TOO_LONG,
        ),
        (
            json!({"search": "a\u{1b}b"}),
            "search",
            messages::SEARCH_CONTROL,
        ),
        (json!({"order_by": "cost"}), "order_by", messages::ORDER_BY),
        (
            json!({"tag": [{"name": " ", "eq": "x"}]}),
            "tag",
            messages::TAG_KEY_REQUIRED,
        ),
        (
            json!({"tag": [{"name": "k".repeat(129), "eq": "x"}]}),
            "tag",
            messages::TAG_KEY_TOO_LONG,
        ),
        (
            json!({"tag": [{"name": "env", "operator": "Like"}]}),
            "tag",
            messages::TAG_OPERATOR,
        ),
        (
            json!({"tag": [{"name": "env", "operator": "Equal", "eq": "x"}]}),
            "tag",
            messages::TAG_ONE_FORM,
        ),
        (
            json!({"tag": [{"name": "env", "operator": "Equal"}]}),
            "tag",
            messages::TAG_VALUE_REQUIRED,
        ),
        (
            json!({"tag": [{"name": "env", "eq": ["v".repeat(257)]}]}),
            "tag",
            messages::TAG_VALUE_TOO_LONG,
        ),
        (
            json!({"tag": [{"name": "env", "eq": (0..101).map(|i| i.to_string()).collect::<Vec<_>>()}]}),
            "tag",
            messages::TAG_TOO_MANY_VALUES,
        ),
        (
            json!({"tag": vec![json!({"name": "a"}); 21]}),
            "tag",
            messages::TAG_TOO_MANY,
        ),
        (
            json!({"resource_params": [{"name": "A..B", "eq": "x"}]}),
            "resource_params",
            messages::PARAM_NAME,
        ),
        (
            json!({"resource_params": [{"name": "A", "eq": {"x": 1}}]}),
            "resource_params",
            messages::PARAM_VALUE,
        ),
        (
            json!({"resource_params": vec![json!({"name": "A", "eq": "x"}); 21]}),
            "resource_params",
            messages::PARAM_TOO_MANY,
        ),
        (json!({"d_time": {"eq": 5}}), "d_time", messages::D_TIME_EQ),
        (
            json!({"d_time": {"not_eq": 5}}),
            "d_time",
            messages::D_TIME_NOT_EQ,
        ),
        (
            json!({"d_time": {"eq": 0, "not_eq": 0}}),
            "d_time",
            messages::D_TIME_CONFLICT,
        ),
        (
            json!({"account_ids": ["1234"]}),
            "account_ids",
            messages::ACCOUNT_IDS,
        ),
        (
            json!({"resource_types": ["AWS::EC2::Nope"]}),
            "resource_types",
            messages::RESOURCE_TYPES,
        ),
        (
            json!({"regions": ["US East"]}),
            "regions",
            messages::REGIONS,
        ),
        (
            json!({"resource_ids": [""]}),
            "resource_ids",
            messages::RESOURCE_IDS,
        ),
    ];
    for (body, field, message) in cases {
        let (status, answer) =
            status_and_json(app.post("/v1/resource", Some(&token), &body).await).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {answer}");
        assert_eq!(
            answer["details"][field],
            json!([message]),
            "{body}: {answer}"
        );
    }
    // Several broken fields: each named in one answer.
    let (_, answer) = status_and_json(
        app.post(
            "/v1/resource",
            Some(&token),
            &json!({"count": 0, "order_by": "x", "regions": ["?"]}),
        )
        .await,
    )
    .await;
    let details = answer["details"].as_object().unwrap();
    assert_eq!(details.len(), 3, "{answer}");
    // Count, stats and trend name theirs too.
    for path in [
        "/v1/resource/count",
        "/v1/resource/stats",
        "/v1/resource/trend",
    ] {
        assert_invalid(
            app.post(path, Some(&token), &json!({"account_ids": ["x"]}))
                .await,
            "account_ids",
            messages::ACCOUNT_IDS,
        )
        .await;
    }
    assert_invalid(
        app.post(
            "/v1/resource/trend",
            Some(&token),
            &json!({"start_time": now - 901 * 86_400}),
        )
        .await,
        "start_time",
        messages::WINDOW_TOO_OLD,
    )
    .await;
    // A body that is not the request's shape: 400.
    let (status, _) = status_and_json(
        app.post("/v1/resource", Some(&token), &json!({"count": "many"}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
