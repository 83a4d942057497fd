//! The resource inventory (issue 14) on every backend: SQLite always, PostgreSQL when
//! `COSTSCOPE_TEST_POSTGRES_URL` names a server (each test gets its own database).

mod support;
use support::{create_customer, for_each_backend};

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use costscope_core::inventory::{
    resource_types, DiscoveredResource, ParamCondition, ResourceKey, ResourceOrder, ResourceQuery,
    ResourceState, StandardTagInput, TagCondition, TagOperator,
};
use costscope_store::{
    DiscoveryDiff, DiscoveryFinish, DiscoveryRequest, DiscoveryRunState, DiscoveryTrigger,
    DiscoveryWrite, MetadataStore, NewCloudConnection, StoreError,
};
use serde_json::json;

const ACCOUNT: &str = "123456789012";
const OTHER_ACCOUNT: &str = "210987654321";

/// A fixed clock: `at(h)` is `h` hours after midnight on 2026-11-20.
fn at(hours: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 0, 0, 0).unwrap() + Duration::hours(hours)
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

async fn connect_aws(store: &dyn MetadataStore, customer_id: i64, account_id: &str) -> i64 {
    let settings = json!({ "role_arn": format!("arn:aws:iam::{account_id}:role/costscope") });
    store
        .create_connection(NewCloudConnection {
            customer_id,
            provider: "aws",
            account_id,
            account_name: "Production",
            organization_id: None,
            parent_id: None,
            settings: &settings,
            encrypted_secret: None,
            created_by_user_id: None,
            now: at(0),
        })
        .await
        .unwrap()
        .id
}

fn tags(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn instance(id: &str, region: &str, state: &str, tag_pairs: &[(&str, &str)]) -> DiscoveredResource {
    DiscoveredResource {
        account_id: ACCOUNT.to_owned(),
        region: region.to_owned(),
        resource_type: resource_types::EC2_INSTANCE.to_owned(),
        resource_id: id.to_owned(),
        arn: Some(format!("arn:aws:ec2:{region}:{ACCOUNT}:instance/{id}")),
        properties: json!({
            "InstanceId": id,
            "InstanceType": "t3.micro",
            "State": state,
            "Placement": { "AvailabilityZone": format!("{region}a") },
            "SecurityGroups": [ { "GroupId": "sg-1" }, { "GroupId": format!("sg-{id}") } ],
            "EbsOptimized": false,
            "CoreCount": 2,
        }),
        tags: tags(tag_pairs),
        metrics: None,
    }
}

fn volume(id: &str, region: &str) -> DiscoveredResource {
    DiscoveredResource {
        account_id: ACCOUNT.to_owned(),
        region: region.to_owned(),
        resource_type: resource_types::EC2_VOLUME.to_owned(),
        resource_id: id.to_owned(),
        arn: None,
        properties: json!({ "VolumeId": id, "VolumeType": "gp2", "Size": 8, "State": "available" }),
        tags: BTreeMap::new(),
        metrics: None,
    }
}

fn key_of(resource: &DiscoveredResource) -> ResourceKey {
    ResourceKey {
        account_id: resource.account_id.clone(),
        region: resource.region.clone(),
        resource_type: resource.resource_type.clone(),
        resource_id: resource.resource_id.clone(),
    }
}

fn scopes(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(r, t)| ((*r).to_owned(), (*t).to_owned()))
        .collect()
}

async fn record(
    store: &dyn MetadataStore,
    customer_id: i64,
    connection_id: i64,
    now: DateTime<Utc>,
    complete_scopes: &[(String, String)],
    resources: &[DiscoveredResource],
) -> DiscoveryDiff {
    store
        .inventory()
        .record_discovery(DiscoveryWrite {
            customer_id,
            connection_id,
            account_id: ACCOUNT,
            now,
            complete_scopes,
            resources,
        })
        .await
        .unwrap()
}

fn diff(created: u64, changed: u64, unchanged: u64, deleted: u64, revived: u64) -> DiscoveryDiff {
    DiscoveryDiff {
        created,
        changed,
        unchanged,
        deleted,
        revived,
    }
}

fn all(state: ResourceState) -> ResourceQuery {
    ResourceQuery {
        state,
        count: 200,
        order_desc: true,
        ..ResourceQuery::default()
    }
}

async fn ids(store: &dyn MetadataStore, customer_id: i64, query: &ResourceQuery) -> Vec<String> {
    let found = store
        .inventory()
        .list_resources(customer_id, query)
        .await
        .unwrap();
    let count = store
        .inventory()
        .count_matching_resources(customer_id, query)
        .await
        .unwrap();
    assert_eq!(
        count as usize,
        found.len(),
        "count_matching_resources agrees with the page for {query:?}"
    );
    found.into_iter().map(|r| r.key.resource_id).collect()
}

#[tokio::test]
async fn runs_create_change_keep_delete_and_revive_resources() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let connection_id = connect_aws(store.as_ref(), customer_id, ACCOUNT).await;
        let inventory = store.inventory();
        let ec2 = resource_types::EC2_INSTANCE;
        let vol = resource_types::EC2_VOLUME;
        let all_scopes = scopes(&[("us-east-1", ec2), ("us-east-1", vol), ("eu-west-1", ec2)]);

        // First run: everything is new.
        let web = instance("i-web", "us-east-1", "running", &[("env", "prod")]);
        let db = instance("i-db", "eu-west-1", "running", &[("env", "prod")]);
        let disk = volume("vol-1", "us-east-1");
        let first = record(
            store.as_ref(),
            customer_id,
            connection_id,
            at(1),
            &all_scopes,
            &[web.clone(), db.clone(), disk.clone()],
        )
        .await;
        assert_eq!(first, diff(3, 0, 0, 0, 0));
        let got = inventory
            .get_resource(customer_id, &key_of(&web))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(got.c_time, at(1));
        assert_eq!(got.m_time, at(1));
        assert_eq!(got.last_seen, at(1));
        assert_eq!(got.d_time, None);
        assert_eq!(got.connection_id, connection_id);
        assert_eq!(got.properties, web.properties);
        assert_eq!(got.tags, web.tags);
        assert_eq!(got.arn, web.arn);
        let snapshots = inventory
            .resource_snapshots(customer_id, &key_of(&web), 8, true)
            .await
            .unwrap();
        assert_eq!(snapshots.len(), 1);
        assert_eq!(snapshots[0].c_time, at(1));
        assert_eq!(snapshots[0].properties, web.properties);
        assert_eq!(snapshots[0].tags, web.tags);

        // Second run: a tag edited (web), an instance stopped (db), the volume as it was but
        // measured; key order of the properties differs and means nothing.
        let web2 = instance("i-web", "us-east-1", "running", &[("env", "staging")]);
        let db2 = instance("i-db", "eu-west-1", "stopped", &[("env", "prod")]);
        let mut disk2 = volume("vol-1", "us-east-1");
        disk2.properties =
            json!({ "State": "available", "Size": 8, "VolumeType": "gp2", "VolumeId": "vol-1" });
        disk2.metrics = Some(json!({ "ReadOps": 3 }));
        let second = record(
            store.as_ref(),
            customer_id,
            connection_id,
            at(2),
            &all_scopes,
            &[web2.clone(), db2.clone(), disk2.clone()],
        )
        .await;
        assert_eq!(second, diff(0, 2, 1, 0, 0));
        let web_history = inventory
            .resource_snapshots(customer_id, &key_of(&web), 8, true)
            .await
            .unwrap();
        assert_eq!(
            web_history
                .iter()
                .map(|s| (s.c_time, s.tags["env"].clone()))
                .collect::<Vec<_>>(),
            vec![(at(2), "staging".to_owned()), (at(1), "prod".to_owned())]
        );
        let oldest_first = inventory
            .resource_snapshots(customer_id, &key_of(&web), 1, false)
            .await
            .unwrap();
        assert_eq!(oldest_first.len(), 1);
        assert_eq!(oldest_first[0].c_time, at(1));
        let db_now = inventory
            .get_resource(customer_id, &key_of(&db))
            .await
            .unwrap()
            .unwrap();
        assert_eq!((db_now.c_time, db_now.m_time), (at(1), at(2)));
        assert_eq!(db_now.properties["State"], "stopped");
        let disk_now = inventory
            .get_resource(customer_id, &key_of(&disk))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (disk_now.m_time, disk_now.last_seen),
            (at(1), at(2)),
            "unchanged: only last_seen moves"
        );
        assert_eq!(disk_now.metrics, Some(json!({ "ReadOps": 3 })));
        assert_eq!(
            inventory
                .resource_snapshots(customer_id, &key_of(&disk), 8, true)
                .await
                .unwrap()
                .len(),
            1
        );
        // The tag filter sees the current tags.
        let staging = ResourceQuery {
            tags: vec![TagCondition {
                key: "env".to_owned(),
                operator: TagOperator::Equal,
                values: vec!["staging".to_owned()],
            }],
            ..all(ResourceState::All)
        };
        assert_eq!(
            ids(store.as_ref(), customer_id, &staging).await,
            vec!["i-web"]
        );

        // Third run: eu-west-1's EC2 scan failed (not a complete scope) and the volume is
        // gone. db is absent but outside the complete scopes: untouched. The volume is
        // deleted.
        let third = record(
            store.as_ref(),
            customer_id,
            connection_id,
            at(3),
            &scopes(&[("us-east-1", ec2), ("us-east-1", vol)]),
            &[web2.clone()],
        )
        .await;
        assert_eq!(third, diff(0, 0, 1, 1, 0));
        let db_after = inventory
            .get_resource(customer_id, &key_of(&db))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(db_after.d_time, None);
        assert_eq!(db_after.last_seen, at(2));
        let disk_after = inventory
            .get_resource(customer_id, &key_of(&disk))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(disk_after.d_time, Some(at(3)), "deleted, still searchable");
        assert_eq!(
            ids(store.as_ref(), customer_id, &all(ResourceState::Deleted)).await,
            vec!["vol-1"]
        );
        assert_eq!(
            ids(store.as_ref(), customer_id, &all(ResourceState::Live)).await,
            vec!["i-web", "i-db"]
        );

        // A run that sees the deleted volume again revives it with a new snapshot.
        let fourth = record(
            store.as_ref(),
            customer_id,
            connection_id,
            at(4),
            &all_scopes,
            &[web2.clone(), db2.clone(), disk2.clone()],
        )
        .await;
        assert_eq!(fourth, diff(0, 0, 2, 0, 1));
        let revived = inventory
            .get_resource(customer_id, &key_of(&disk))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(revived.d_time, None);
        assert_eq!(revived.m_time, at(4));
        assert_eq!(revived.c_time, at(1));
        assert_eq!(
            inventory
                .resource_snapshots(customer_id, &key_of(&disk), 8, true)
                .await
                .unwrap()
                .len(),
            2
        );

        // Absent within scope again: deleted once, not again on the next run.
        let fifth = record(
            store.as_ref(),
            customer_id,
            connection_id,
            at(5),
            &all_scopes,
            &[web2.clone(), db2.clone()],
        )
        .await;
        assert_eq!(fifth, diff(0, 0, 2, 1, 0));
        let sixth = record(
            store.as_ref(),
            customer_id,
            connection_id,
            at(6),
            &all_scopes,
            &[web2.clone(), db2.clone()],
        )
        .await;
        assert_eq!(sixth, diff(0, 0, 2, 0, 0));
        assert_eq!(
            inventory
                .get_resource(customer_id, &key_of(&disk))
                .await
                .unwrap()
                .unwrap()
                .d_time,
            Some(at(5))
        );

        // Another account's run never deletes this account's resources.
        let other_connection = connect_aws(store.as_ref(), customer_id, OTHER_ACCOUNT).await;
        let other = store
            .inventory()
            .record_discovery(DiscoveryWrite {
                customer_id,
                connection_id: other_connection,
                account_id: OTHER_ACCOUNT,
                now: at(7),
                complete_scopes: &all_scopes,
                resources: &[],
            })
            .await
            .unwrap();
        assert_eq!(other, diff(0, 0, 0, 0, 0));
        assert_eq!(
            ids(store.as_ref(), customer_id, &all(ResourceState::Live)).await,
            vec!["i-web", "i-db"]
        );

        // Deleting the connection deletes its resources.
        assert_eq!(
            store
                .delete_connections(customer_id, "aws", &[ACCOUNT.to_owned()])
                .await
                .unwrap(),
            1
        );
        assert!(ids(store.as_ref(), customer_id, &all(ResourceState::All))
            .await
            .is_empty());
    })
    .await;
}

#[tokio::test]
async fn a_resource_listed_twice_counts_once() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let connection_id = connect_aws(store.as_ref(), customer_id, ACCOUNT).await;
        let a = instance("i-a", "us-east-1", "running", &[]);
        let b = instance("i-a", "us-east-1", "stopped", &[]);
        let result = record(
            store.as_ref(),
            customer_id,
            connection_id,
            at(1),
            &[],
            &[a, b],
        )
        .await;
        assert_eq!(result, diff(1, 0, 0, 0, 0));
        let got = store
            .inventory()
            .get_resource(customer_id, &key_of(&instance("i-a", "us-east-1", "", &[])))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(got.properties["State"], "stopped", "the last listing wins");
    })
    .await;
}

/// Five resources for the filter tests, first seen an hour apart (i-1 oldest).
async fn seed_filters(store: &dyn MetadataStore, customer_id: i64) -> i64 {
    let connection_id = connect_aws(store, customer_id, ACCOUNT).await;
    let list = [
        instance(
            "i-1",
            "us-east-1",
            "running",
            &[("env", "prod"), ("team", "web")],
        ),
        instance(
            "i-2",
            "us-east-1",
            "stopped",
            &[("env", "dev"), ("team", "")],
        ),
        instance("i-3", "eu-west-1", "running", &[("env", "prod")]),
        volume("vol-4", "us-east-1"),
        volume("vol-5", "eu-west-1"),
    ];
    for (n, resource) in list.iter().enumerate() {
        record(
            store,
            customer_id,
            connection_id,
            at(n as i64 + 1),
            &[],
            std::slice::from_ref(resource),
        )
        .await;
    }
    // vol-5 deleted at hour 10.
    record(
        store,
        customer_id,
        connection_id,
        at(10),
        &scopes(&[("eu-west-1", resource_types::EC2_VOLUME)]),
        &[],
    )
    .await;
    connection_id
}

fn tag(key: &str, operator: TagOperator, values: &[&str]) -> TagCondition {
    TagCondition {
        key: key.to_owned(),
        operator,
        values: values.iter().map(|v| (*v).to_owned()).collect(),
    }
}

#[tokio::test]
async fn every_filter_and_tag_operator() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        seed_filters(store.as_ref(), customer_id).await;
        let s = store.as_ref();
        let base = all(ResourceState::All);
        let q = |f: &dyn Fn(&mut ResourceQuery)| {
            let mut query = base.clone();
            f(&mut query);
            query
        };

        assert_eq!(
            ids(s, customer_id, &base).await,
            vec!["vol-5", "vol-4", "i-3", "i-2", "i-1"],
            "newest first by default"
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.regions = vec!["eu-west-1".into()])
            )
            .await,
            vec!["vol-5", "i-3"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.account_ids = vec![OTHER_ACCOUNT.into()])
            )
            .await,
            Vec::<String>::new()
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.account_ids = vec![ACCOUNT.into()])
            )
            .await
            .len(),
            5
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.resource_types = vec![resource_types::EC2_VOLUME.into()])
            )
            .await,
            vec!["vol-5", "vol-4"]
        );
        assert_eq!(
            ids(s, customer_id, &q(&|q| q.state = ResourceState::Deleted)).await,
            vec!["vol-5"]
        );
        assert_eq!(
            ids(s, customer_id, &q(&|q| q.deleted_before = Some(at(10)))).await,
            Vec::<String>::new()
        );
        assert_eq!(
            ids(s, customer_id, &q(&|q| q.deleted_before = Some(at(11)))).await,
            vec!["vol-5"]
        );
        assert_eq!(
            ids(s, customer_id, &q(&|q| q.created_before = Some(at(3)))).await,
            vec!["i-2", "i-1"]
        );
        // The window: existed at some moment of it.
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| {
                    q.window_start = Some(at(11));
                    q.window_end = Some(at(12));
                })
            )
            .await,
            vec!["vol-4", "i-3", "i-2", "i-1"],
            "vol-5 was deleted before the window"
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| {
                    q.window_start = Some(at(0));
                    q.window_end = Some(at(2));
                })
            )
            .await,
            vec!["i-1"]
        );
        // Ids or ARNs.
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.resource_ids = vec![
                    "vol-4".into(),
                    format!("arn:aws:ec2:us-east-1:{ACCOUNT}:instance/i-2"),
                ])
            )
            .await,
            vec!["vol-4", "i-2"]
        );
        // Search: id, ARN or tag value, case-insensitive; LIKE wildcards taken literally.
        assert_eq!(
            ids(s, customer_id, &q(&|q| q.search = Some("VOL-".into()))).await,
            vec!["vol-5", "vol-4"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.search = Some("instance/i-3".into()))
            )
            .await,
            vec!["i-3"]
        );
        assert_eq!(
            ids(s, customer_id, &q(&|q| q.search = Some("PROD".into()))).await,
            vec!["i-3", "i-1"]
        );
        assert_eq!(
            ids(s, customer_id, &q(&|q| q.search = Some("i_%".into()))).await,
            Vec::<String>::new()
        );
        // Properties: nested, through lists, booleans and numbers as text.
        let param = |path: &str, value: &str| ParamCondition {
            flat_path: path.to_owned(),
            value: value.to_owned(),
        };
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.params = vec![param("State", "stopped")])
            )
            .await,
            vec!["i-2"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.params = vec![param("Placement.AvailabilityZone", "eu-west-1a")])
            )
            .await,
            vec!["i-3"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.params = vec![param("SecurityGroups[].GroupId", "sg-i-2")])
            )
            .await,
            vec!["i-2"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.params = vec![param("SecurityGroups[].GroupId", "sg-1")])
            )
            .await,
            vec!["i-3", "i-2", "i-1"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.params = vec![param("EbsOptimized", "false")])
            )
            .await,
            vec!["i-3", "i-2", "i-1"]
        );
        assert_eq!(
            ids(s, customer_id, &q(&|q| q.params = vec![param("Size", "8")])).await,
            vec!["vol-5", "vol-4"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.params = vec![param("Bad\"Path", "x")])
            )
            .await,
            Vec::<String>::new()
        );
        // Tag operators.
        let by_tag = |condition: TagCondition| {
            let mut query = base.clone();
            query.tags = vec![condition];
            query
        };
        assert_eq!(
            ids(
                s,
                customer_id,
                &by_tag(tag("env", TagOperator::Equal, &["prod"]))
            )
            .await,
            vec!["i-3", "i-1"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &by_tag(tag("env", TagOperator::Equal, &["prod", "dev"]))
            )
            .await,
            vec!["i-3", "i-2", "i-1"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &by_tag(tag("ENV", TagOperator::Equal, &["prod"]))
            )
            .await,
            Vec::<String>::new(),
            "tag keys are case-sensitive"
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &by_tag(tag("env", TagOperator::NotEqual, &["prod"]))
            )
            .await,
            vec!["vol-5", "vol-4", "i-2"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &by_tag(tag("team", TagOperator::Exists, &[]))
            )
            .await,
            vec!["i-2", "i-1"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &by_tag(tag("team", TagOperator::NotExists, &[]))
            )
            .await,
            vec!["vol-5", "vol-4", "i-3"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &by_tag(tag("team", TagOperator::Empty, &[]))
            )
            .await,
            vec!["i-2"]
        );
        assert_eq!(
            ids(
                s,
                customer_id,
                &by_tag(tag("team", TagOperator::NotEmpty, &[]))
            )
            .await,
            vec!["i-1"]
        );
        // Several conditions are AND-ed.
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| q.tags = vec![
                    tag("env", TagOperator::Equal, &["prod"]),
                    tag("team", TagOperator::NotExists, &[]),
                ])
            )
            .await,
            vec!["i-3"]
        );
        assert_eq!(
            ids(s, customer_id, &q(&|q| q.not_tagged = true)).await,
            vec!["vol-5", "vol-4"]
        );
        // Everything at once.
        assert_eq!(
            ids(
                s,
                customer_id,
                &q(&|q| {
                    q.account_ids = vec![ACCOUNT.into()];
                    q.regions = vec!["us-east-1".into()];
                    q.resource_types = vec![resource_types::EC2_INSTANCE.into()];
                    q.state = ResourceState::Live;
                    q.tags = vec![tag("env", TagOperator::Equal, &["prod"])];
                })
            )
            .await,
            vec!["i-1"]
        );
    })
    .await;
}

#[tokio::test]
async fn pages_are_stable_in_every_order() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let connection_id = connect_aws(store.as_ref(), customer_id, ACCOUNT).await;
        // Twelve resources seen in one run: the same c_time, ties broken by the key.
        let list: Vec<DiscoveredResource> = (0..12)
            .map(|n| instance(&format!("i-{n:02}"), "us-east-1", "running", &[]))
            .collect();
        record(
            store.as_ref(),
            customer_id,
            connection_id,
            at(1),
            &[],
            &list,
        )
        .await;
        for order_by in [
            ResourceOrder::CTime,
            ResourceOrder::MTime,
            ResourceOrder::DTime,
            ResourceOrder::ResourceId,
            ResourceOrder::ResourceType,
            ResourceOrder::Region,
            ResourceOrder::AccountId,
        ] {
            for order_desc in [true, false] {
                let mut pages = Vec::new();
                for offset in [0, 5, 10] {
                    let query = ResourceQuery {
                        count: 5,
                        offset,
                        order_by,
                        order_desc,
                        ..ResourceQuery::default()
                    };
                    let page = store
                        .inventory()
                        .list_resources(customer_id, &query)
                        .await
                        .unwrap();
                    pages.extend(page.into_iter().map(|r| r.key.resource_id));
                    assert_eq!(
                        store
                            .inventory()
                            .count_matching_resources(customer_id, &query)
                            .await
                            .unwrap(),
                        12,
                        "the count ignores count and offset"
                    );
                }
                let mut expected: Vec<String> = (0..12).map(|n| format!("i-{n:02}")).collect();
                if order_desc {
                    expected.reverse();
                }
                assert_eq!(pages, expected, "{order_by:?} desc={order_desc}");
            }
        }
        // count 0 means the default page.
        let query = ResourceQuery::default();
        assert_eq!(
            store
                .inventory()
                .list_resources(customer_id, &query)
                .await
                .unwrap()
                .len(),
            12
        );
    })
    .await;
}

#[tokio::test]
async fn counts_params_trend_and_live_resources() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        seed_filters(store.as_ref(), customer_id).await;
        let inventory = store.inventory();
        let ec2 = resource_types::EC2_INSTANCE;
        let vol = resource_types::EC2_VOLUME;

        let counts = inventory
            .resource_type_counts(customer_id, &[], false)
            .await
            .unwrap();
        let got: Vec<_> = counts
            .iter()
            .map(|c| (c.region.as_str(), c.resource_type.as_str(), c.count))
            .collect();
        assert_eq!(
            got,
            vec![
                ("eu-west-1", ec2, 1),
                ("us-east-1", ec2, 2),
                ("us-east-1", vol, 1)
            ]
        );
        assert!(counts.iter().all(|c| c.account_id == ACCOUNT));
        let with_deleted = inventory
            .resource_type_counts(customer_id, &[ACCOUNT.to_owned()], true)
            .await
            .unwrap();
        assert_eq!(with_deleted.iter().map(|c| c.count).sum::<u64>(), 5);
        assert!(inventory
            .resource_type_counts(customer_id, &[OTHER_ACCOUNT.to_owned()], true)
            .await
            .unwrap()
            .is_empty());

        let params = inventory
            .resource_params(customer_id, &[ec2.to_owned()])
            .await
            .unwrap();
        let paths: Vec<&str> = params.iter().map(|(_, p)| p.flat_path.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "CoreCount",
                "EbsOptimized",
                "InstanceId",
                "InstanceType",
                "Placement.AvailabilityZone",
                "SecurityGroups[].GroupId",
                "State"
            ]
        );
        assert!(params.iter().all(|(t, _)| t == ec2));
        let every_type = inventory.resource_params(customer_id, &[]).await.unwrap();
        assert!(every_type
            .iter()
            .any(|(t, p)| t == vol && p.flat_path == "VolumeType"));

        // Resources were first seen on the 20th (hours 1–5); vol-5 deleted at hour 10.
        let trend = inventory
            .resource_trend(customer_id, &[], day(19), day(21))
            .await
            .unwrap();
        let got: Vec<_> = trend
            .iter()
            .map(|p| (p.date, p.resource_type.as_str(), p.live))
            .collect();
        assert_eq!(
            got,
            vec![
                (day(20), ec2, 3),
                (day(20), vol, 1),
                (day(21), ec2, 3),
                (day(21), vol, 1),
            ]
        );
        // Only the accounts asked for.
        assert_eq!(
            inventory
                .resource_trend(customer_id, &[ACCOUNT.to_owned()], day(19), day(21))
                .await
                .unwrap(),
            trend
        );
        assert!(inventory
            .resource_trend(customer_id, &[OTHER_ACCOUNT.to_owned()], day(19), day(21))
            .await
            .unwrap()
            .is_empty());

        // Ids and ARNs of every resource, the deleted vol-5 included.
        let identifiers = inventory.resource_identifiers(customer_id).await.unwrap();
        assert!(identifiers.iter().any(|id| id == "vol-5"));
        assert!(identifiers
            .iter()
            .any(|id| id == &format!("arn:aws:ec2:us-east-1:{ACCOUNT}:instance/i-1")));
        assert_eq!(identifiers.len(), 5 + 3, "5 ids and the 3 instances' ARNs");

        let live = inventory
            .live_resources(customer_id, &[vol.to_owned()])
            .await
            .unwrap();
        assert_eq!(
            live.iter()
                .map(|r| r.key.resource_id.as_str())
                .collect::<Vec<_>>(),
            vec!["vol-4"]
        );
        assert_eq!(
            inventory
                .live_resources(customer_id, &[])
                .await
                .unwrap()
                .len(),
            4
        );
    })
    .await;
}

#[tokio::test]
async fn another_customer_sees_nothing() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other_id, other_owner) = create_customer(store.as_ref(), "otto@other.test").await;
        seed_filters(store.as_ref(), customer_id).await;
        let inventory = store.inventory();
        let key = key_of(&instance("i-1", "us-east-1", "", &[]));

        assert!(ids(store.as_ref(), other_id, &all(ResourceState::All))
            .await
            .is_empty());
        assert_eq!(inventory.get_resource(other_id, &key).await.unwrap(), None);
        assert!(inventory
            .resource_snapshots(other_id, &key, 8, true)
            .await
            .unwrap()
            .is_empty());
        assert!(inventory
            .resource_type_counts(other_id, &[], true)
            .await
            .unwrap()
            .is_empty());
        assert!(inventory
            .resource_params(other_id, &[])
            .await
            .unwrap()
            .is_empty());
        assert!(inventory
            .resource_trend(other_id, &[], day(19), day(22))
            .await
            .unwrap()
            .is_empty());
        assert!(inventory
            .resource_identifiers(other_id)
            .await
            .unwrap()
            .is_empty());
        assert!(inventory
            .live_resources(other_id, &[])
            .await
            .unwrap()
            .is_empty());

        // Standard tags, runs and dismissals are per tenant too.
        let tag = inventory
            .create_standard_tag(
                customer_id,
                &StandardTagInput {
                    key: "env".into(),
                    values: vec!["prod".into()],
                },
            )
            .await
            .unwrap();
        assert!(inventory
            .list_standard_tags(other_id)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            inventory
                .update_standard_tag(
                    other_id,
                    tag.id,
                    &StandardTagInput {
                        key: "x".into(),
                        values: vec![]
                    }
                )
                .await
                .unwrap(),
            None
        );
        assert!(!inventory
            .delete_standard_tag(other_id, tag.id)
            .await
            .unwrap());
        // The other tenant may use the same key.
        inventory
            .create_standard_tag(
                other_id,
                &StandardTagInput {
                    key: "env".into(),
                    values: vec![],
                },
            )
            .await
            .unwrap();
        assert!(matches!(
            inventory
                .request_discovery(customer_id, at(1), 24)
                .await
                .unwrap(),
            DiscoveryRequest::Queued(_)
        ));
        assert!(inventory
            .list_discovery_runs(other_id, 10)
            .await
            .unwrap()
            .is_empty());
        assert!(matches!(
            inventory
                .request_discovery(other_id, at(1), 24)
                .await
                .unwrap(),
            DiscoveryRequest::Queued(_)
        ));
        inventory
            .dismiss_recommendation(customer_id, "ebs-unattached:vol-4", owner.id, at(1))
            .await
            .unwrap();
        assert!(inventory
            .dismissed_recommendations(other_id)
            .await
            .unwrap()
            .is_empty());
        assert!(!inventory
            .restore_recommendation(other_id, "ebs-unattached:vol-4")
            .await
            .unwrap());
        let _ = other_owner;
    })
    .await;
}

#[tokio::test]
async fn standard_tags_crud_and_duplicate_keys() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let inventory = store.inventory();
        let input = |key: &str, values: &[&str]| StandardTagInput {
            key: key.to_owned(),
            values: values.iter().map(|v| (*v).to_owned()).collect(),
        };
        assert!(inventory
            .list_standard_tags(customer_id)
            .await
            .unwrap()
            .is_empty());
        let env = inventory
            .create_standard_tag(customer_id, &input("env", &["prod", "dev"]))
            .await
            .unwrap();
        assert_eq!(
            (env.key.as_str(), env.values.clone()),
            ("env", vec!["prod".to_owned(), "dev".to_owned()])
        );
        let owner = inventory
            .create_standard_tag(customer_id, &input("owner", &[]))
            .await
            .unwrap();
        let err = inventory
            .create_standard_tag(customer_id, &input("env", &[]))
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Conflict), "{err:?}");
        // Keys are case-sensitive, as AWS tag keys are.
        let upper = inventory
            .create_standard_tag(customer_id, &input("Env", &[]))
            .await
            .unwrap();
        assert_eq!(
            inventory.list_standard_tags(customer_id).await.unwrap(),
            vec![env.clone(), owner.clone(), upper.clone()]
        );

        let updated = inventory
            .update_standard_tag(customer_id, owner.id, &input("team", &["web"]))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(updated.id, owner.id);
        assert_eq!(
            (updated.key.as_str(), updated.values.clone()),
            ("team", vec!["web".to_owned()])
        );
        let err = inventory
            .update_standard_tag(customer_id, owner.id, &input("env", &[]))
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Conflict), "{err:?}");
        // Keeping its own key is no conflict.
        inventory
            .update_standard_tag(customer_id, owner.id, &input("team", &[]))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            inventory
                .update_standard_tag(customer_id, 999_999, &input("x", &[]))
                .await
                .unwrap(),
            None
        );

        assert!(inventory
            .delete_standard_tag(customer_id, env.id)
            .await
            .unwrap());
        assert!(!inventory
            .delete_standard_tag(customer_id, env.id)
            .await
            .unwrap());
        let keys: Vec<String> = inventory
            .list_standard_tags(customer_id)
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.key)
            .collect();
        assert_eq!(keys, vec!["team", "Env"]);
        // The key is free again.
        inventory
            .create_standard_tag(customer_id, &input("env", &[]))
            .await
            .unwrap();
    })
    .await;
}

fn finish(now: DateTime<Utc>, state: DiscoveryRunState) -> DiscoveryFinish {
    DiscoveryFinish {
        now,
        state,
        summary: json!({ ACCOUNT: { "created": 1 } }),
    }
}

#[tokio::test]
async fn on_demand_discovery_is_single_and_limited_per_day() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let inventory = store.inventory();
        let morning = Utc.with_ymd_and_hms(2026, 11, 20, 8, 0, 0).unwrap();

        let DiscoveryRequest::Queued(first) = inventory
            .request_discovery(customer_id, morning, 2)
            .await
            .unwrap()
        else {
            panic!("the first request queues a run");
        };
        assert_eq!(
            inventory
                .request_discovery(customer_id, morning, 2)
                .await
                .unwrap(),
            DiscoveryRequest::AlreadyRunning,
            "a queued run"
        );
        let claims = inventory
            .claim_due_discoveries(morning, Duration::zero(), 10)
            .await
            .unwrap();
        assert_eq!(claims.len(), 1);
        assert_eq!(claims[0].run_id, first);
        assert_eq!(claims[0].customer_id, customer_id);
        assert_eq!(claims[0].trigger, DiscoveryTrigger::OnDemand);
        assert_eq!(
            inventory
                .request_discovery(customer_id, morning, 2)
                .await
                .unwrap(),
            DiscoveryRequest::AlreadyRunning,
            "a running run"
        );
        inventory
            .finish_discovery(
                first,
                finish(morning + Duration::minutes(5), DiscoveryRunState::Succeeded),
            )
            .await
            .unwrap();

        let DiscoveryRequest::Queued(second) = inventory
            .request_discovery(customer_id, morning + Duration::hours(1), 2)
            .await
            .unwrap()
        else {
            panic!("the second request of the day queues a run");
        };
        inventory
            .claim_due_discoveries(morning + Duration::hours(1), Duration::zero(), 10)
            .await
            .unwrap();
        inventory
            .finish_discovery(
                second,
                finish(morning + Duration::hours(2), DiscoveryRunState::Partial),
            )
            .await
            .unwrap();
        assert_eq!(
            inventory
                .request_discovery(customer_id, morning + Duration::hours(15), 2)
                .await
                .unwrap(),
            DiscoveryRequest::LimitReached
        );
        // A new UTC day starts a new allowance.
        let tomorrow = Utc.with_ymd_and_hms(2026, 11, 21, 0, 0, 1).unwrap();
        assert!(matches!(
            inventory
                .request_discovery(customer_id, tomorrow, 2)
                .await
                .unwrap(),
            DiscoveryRequest::Queued(_)
        ));

        let runs = inventory
            .list_discovery_runs(customer_id, 10)
            .await
            .unwrap();
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0].state, DiscoveryRunState::Queued);
        assert_eq!(runs[1].id, second);
        assert_eq!(runs[1].state, DiscoveryRunState::Partial);
        assert_eq!(runs[1].started_at, Some(morning + Duration::hours(1)));
        assert_eq!(runs[1].finished_at, Some(morning + Duration::hours(2)));
        assert_eq!(runs[1].summary, Some(json!({ ACCOUNT: { "created": 1 } })));
        assert_eq!(runs[2].id, first);
        assert_eq!(runs[2].trigger, DiscoveryTrigger::OnDemand);
        assert_eq!(runs[2].state, DiscoveryRunState::Succeeded);
        assert_eq!(
            inventory
                .list_discovery_runs(customer_id, 1)
                .await
                .unwrap()
                .len(),
            1
        );
    })
    .await;
}

#[tokio::test]
async fn concurrent_requests_queue_one_run() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let requests = (0..8).map(|_| {
            let store = store.clone();
            async move {
                store
                    .inventory()
                    .request_discovery(customer_id, at(1), 24)
                    .await
                    .unwrap()
            }
        });
        let answers: Vec<DiscoveryRequest> = futures_join_all(requests).await;
        let queued = answers
            .iter()
            .filter(|a| matches!(a, DiscoveryRequest::Queued(_)))
            .count();
        assert_eq!(queued, 1, "{answers:?}");
        assert!(answers.iter().all(|a| matches!(
            a,
            DiscoveryRequest::Queued(_) | DiscoveryRequest::AlreadyRunning
        )));
        assert_eq!(
            store
                .inventory()
                .list_discovery_runs(customer_id, 10)
                .await
                .unwrap()
                .len(),
            1
        );
    })
    .await;
}

/// Runs the futures at once on tokio tasks and answers their results in order.
async fn futures_join_all<F, T>(futures: impl Iterator<Item = F>) -> Vec<T>
where
    F: std::future::Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut results = Vec::with_capacity(handles.len());
    for handle in handles {
        results.push(handle.await.unwrap());
    }
    results
}

#[tokio::test]
async fn scheduled_discovery_follows_the_interval() {
    for_each_backend(|store| async move {
        let (with_aws, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (without, _) = create_customer(store.as_ref(), "otto@other.test").await;
        connect_aws(store.as_ref(), with_aws, ACCOUNT).await;
        let inventory = store.inventory();
        let six_hours = Duration::hours(6);

        // Never ran: due now; the tenant without an AWS connection never is.
        let claims = inventory
            .claim_due_discoveries(at(1), six_hours, 10)
            .await
            .unwrap();
        assert_eq!(claims.len(), 1);
        assert_eq!(claims[0].customer_id, with_aws);
        assert_eq!(claims[0].trigger, DiscoveryTrigger::Scheduled);
        // Running: not claimed again, and an on-demand request waits.
        assert!(inventory
            .claim_due_discoveries(at(2), six_hours, 10)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            inventory
                .request_discovery(with_aws, at(2), 24)
                .await
                .unwrap(),
            DiscoveryRequest::AlreadyRunning
        );
        inventory
            .finish_discovery(
                claims[0].run_id,
                finish(at(2), DiscoveryRunState::Succeeded),
            )
            .await
            .unwrap();
        // Finished at hour 2: due again after hour 8.
        assert!(inventory
            .claim_due_discoveries(at(7), six_hours, 10)
            .await
            .unwrap()
            .is_empty());
        let next = inventory
            .claim_due_discoveries(at(9), six_hours, 10)
            .await
            .unwrap();
        assert_eq!(next.len(), 1);
        assert_eq!(next[0].customer_id, with_aws);
        inventory
            .finish_discovery(next[0].run_id, finish(at(10), DiscoveryRunState::Failed))
            .await
            .unwrap();
        // A zero interval schedules nothing; a limit of 0 claims nothing.
        assert!(inventory
            .claim_due_discoveries(at(100), Duration::zero(), 10)
            .await
            .unwrap()
            .is_empty());
        assert!(inventory
            .claim_due_discoveries(at(100), six_hours, 0)
            .await
            .unwrap()
            .is_empty());
        // Queued on-demand runs come first, then scheduled ones, up to the limit.
        let DiscoveryRequest::Queued(on_demand) = inventory
            .request_discovery(without, at(100), 24)
            .await
            .unwrap()
        else {
            panic!("queued");
        };
        let claims = inventory
            .claim_due_discoveries(at(100), six_hours, 1)
            .await
            .unwrap();
        assert_eq!(claims.len(), 1);
        assert_eq!(claims[0].run_id, on_demand);
        let claims = inventory
            .claim_due_discoveries(at(100), six_hours, 1)
            .await
            .unwrap();
        assert_eq!(claims.len(), 1);
        assert_eq!(claims[0].customer_id, with_aws);
        // finish on a run that is not running changes nothing.
        inventory
            .finish_discovery(
                claims[0].run_id,
                finish(at(101), DiscoveryRunState::Succeeded),
            )
            .await
            .unwrap();
        inventory
            .finish_discovery(claims[0].run_id, finish(at(102), DiscoveryRunState::Failed))
            .await
            .unwrap();
        let runs = inventory.list_discovery_runs(with_aws, 1).await.unwrap();
        assert_eq!(runs[0].state, DiscoveryRunState::Succeeded);
        assert_eq!(runs[0].finished_at, Some(at(101)));

        // A run a stopped server left running fails, and the tenant can ask again.
        assert_eq!(
            inventory
                .fail_interrupted_discoveries(at(103), at(99))
                .await
                .unwrap(),
            0,
            "started after the bound"
        );
        assert_eq!(
            inventory
                .fail_interrupted_discoveries(at(103), at(103))
                .await
                .unwrap(),
            1
        );
        let runs = inventory.list_discovery_runs(without, 1).await.unwrap();
        assert_eq!(runs[0].state, DiscoveryRunState::Failed);
        assert_eq!(
            runs[0].summary,
            Some(json!({ "error": costscope_store::INTERRUPTED_DISCOVERY }))
        );
        assert!(matches!(
            inventory
                .request_discovery(without, at(104), 24)
                .await
                .unwrap(),
            DiscoveryRequest::Queued(_)
        ));
    })
    .await;
}

#[tokio::test]
async fn dismissed_recommendations_are_remembered() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let inventory = store.inventory();
        assert!(inventory
            .dismissed_recommendations(customer_id)
            .await
            .unwrap()
            .is_empty());
        inventory
            .dismiss_recommendation(customer_id, "gp2:vol-2", owner.id, at(1))
            .await
            .unwrap();
        inventory
            .dismiss_recommendation(customer_id, "eip:eipalloc-1", owner.id, at(1))
            .await
            .unwrap();
        // Again: no change, no error.
        inventory
            .dismiss_recommendation(customer_id, "gp2:vol-2", owner.id, at(2))
            .await
            .unwrap();
        assert_eq!(
            inventory
                .dismissed_recommendations(customer_id)
                .await
                .unwrap(),
            vec!["eip:eipalloc-1", "gp2:vol-2"]
        );
        assert!(inventory
            .restore_recommendation(customer_id, "gp2:vol-2")
            .await
            .unwrap());
        assert!(!inventory
            .restore_recommendation(customer_id, "gp2:vol-2")
            .await
            .unwrap());
        assert_eq!(
            inventory
                .dismissed_recommendations(customer_id)
                .await
                .unwrap(),
            vec!["eip:eipalloc-1"]
        );
    })
    .await;
}
