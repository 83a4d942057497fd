//! Cloud connections (issue 13) on every backend: SQLite always, PostgreSQL when
//! `COSTSCOPE_TEST_POSTGRES_URL` names a server (each test gets its own database).

mod support;
use support::{create_customer, for_each_backend};

use std::collections::HashSet;

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use costscope_store::{
    CloudConnection, IngestFile, IngestUpload, MemberAccount, MetadataStore, NewCloudConnection,
    NewIngestJob, StoreError, SyncOutcome, SyncState, SyncedPeriod, REGISTRATION_FAILED,
    REGISTRATION_RUNNING, REGISTRATION_SUCCEEDED,
};
use serde_json::{json, Value};

/// A fixed clock: `at(m)` is `m` minutes after noon on 2026-11-23.
fn at(minutes: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap() + Duration::minutes(minutes)
}

fn aws_settings(bucket: &str) -> Value {
    json!({ "role_arn": "arn:aws:iam::123456789012:role/costscope", "bucket": bucket })
}

struct Connect<'a> {
    customer_id: i64,
    provider: &'a str,
    account_id: &'a str,
    name: &'a str,
    settings: Value,
    secret: Option<&'a str>,
    parent_id: Option<i64>,
}

impl<'a> Connect<'a> {
    fn aws(customer_id: i64, account_id: &'a str, name: &'a str) -> Self {
        Self {
            customer_id,
            provider: "aws",
            account_id,
            name,
            settings: aws_settings("costscope-exports"),
            secret: None,
            parent_id: None,
        }
    }

    async fn try_create(&self, store: &dyn MetadataStore) -> Result<CloudConnection, StoreError> {
        store
            .create_connection(NewCloudConnection {
                customer_id: self.customer_id,
                provider: self.provider,
                account_id: self.account_id,
                account_name: self.name,
                organization_id: None,
                parent_id: self.parent_id,
                settings: &self.settings,
                encrypted_secret: self.secret,
                created_by_user_id: None,
                now: at(0),
            })
            .await
    }

    async fn create(&self, store: &dyn MetadataStore) -> CloudConnection {
        self.try_create(store).await.unwrap()
    }
}

fn members(list: &[(&str, &str)]) -> Vec<MemberAccount> {
    list.iter()
        .map(|(id, name)| MemberAccount {
            account_id: (*id).to_owned(),
            account_name: (*name).to_owned(),
        })
        .collect()
}

fn ids(connections: &[CloudConnection]) -> Vec<i64> {
    connections.iter().map(|connection| connection.id).collect()
}

fn period(month: u32, fingerprint: &str, job: Option<i64>) -> SyncedPeriod {
    SyncedPeriod {
        billing_period: NaiveDate::from_ymd_opt(2026, month, 1).unwrap(),
        fingerprint: fingerprint.to_owned(),
        ingest_job_id: job,
        synced_at: at(i64::from(month)),
    }
}

#[tokio::test]
async fn a_connection_round_trips_without_its_secret() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let settings = aws_settings("costscope-exports");
        let created = store
            .create_connection(NewCloudConnection {
                customer_id,
                provider: "aws",
                account_id: "123456789012",
                account_name: "Production",
                organization_id: Some("r-ab12"),
                parent_id: None,
                settings: &settings,
                encrypted_secret: Some("v1:sealed-secret-bytes"),
                created_by_user_id: Some(owner.id),
                now: at(0),
            })
            .await
            .unwrap();
        assert_eq!(created.customer_id, customer_id);
        assert_eq!(created.provider, "aws");
        assert_eq!(created.account_id, "123456789012");
        assert_eq!(created.account_name, "Production");
        assert_eq!(created.organization_id.as_deref(), Some("r-ab12"));
        assert_eq!(created.parent_id, None);
        assert_eq!(created.settings, settings);
        assert!(created.has_secret);
        assert_eq!(created.created_by_user_id, Some(owner.id));
        assert_eq!(created.created_at, at(0));
        assert_eq!(created.registration, None);
        assert_eq!(created.sync, Default::default());
        assert!(
            !format!("{created:?}").contains("sealed-secret"),
            "the secret is not part of a connection"
        );

        let got = store.get_connection(customer_id, created.id).await.unwrap();
        assert_eq!(got.as_ref(), Some(&created));
        let found = store
            .find_connection(customer_id, "aws", "123456789012")
            .await
            .unwrap();
        assert_eq!(found.as_ref(), Some(&created));
        assert_eq!(
            store
                .find_connection(customer_id, "gcp", "123456789012")
                .await
                .unwrap(),
            None
        );
        assert_eq!(
            store.list_connections(customer_id).await.unwrap(),
            vec![created.clone()]
        );
        assert_eq!(
            store
                .connection_secret(customer_id, created.id)
                .await
                .unwrap()
                .as_deref(),
            Some("v1:sealed-secret-bytes")
        );

        // Without a secret, and with JSON null for settings (stored as `{}`).
        let bare = Connect {
            settings: Value::Null,
            ..Connect::aws(customer_id, "210987654321", "Staging")
        }
        .create(store.as_ref())
        .await;
        assert!(!bare.has_secret);
        assert_eq!(bare.settings, json!({}));
        assert_eq!(
            store.connection_secret(customer_id, bare.id).await.unwrap(),
            None
        );
    })
    .await;
}

#[tokio::test]
async fn a_second_connection_of_the_same_account_conflicts() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other_id, _) = create_customer(store.as_ref(), "otto@other.test").await;
        Connect::aws(customer_id, "123456789012", "Production")
            .create(store.as_ref())
            .await;
        let err = Connect::aws(customer_id, "123456789012", "Again")
            .try_create(store.as_ref())
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Conflict), "{err:?}");
        // The same id under another provider, or for another customer, is another account.
        Connect {
            provider: "gcp",
            ..Connect::aws(customer_id, "123456789012", "A GCP project")
        }
        .create(store.as_ref())
        .await;
        Connect::aws(other_id, "123456789012", "Theirs")
            .create(store.as_ref())
            .await;
        assert_eq!(store.list_connections(customer_id).await.unwrap().len(), 2);
        assert_eq!(store.list_connections(other_id).await.unwrap().len(), 1);
    })
    .await;
}

#[tokio::test]
async fn another_customer_never_reads_changes_deletes_or_requests_a_connection() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other_id, _) = create_customer(store.as_ref(), "otto@other.test").await;
        let ours = Connect {
            secret: Some("v1:ours"),
            ..Connect::aws(customer_id, "123456789012", "Production")
        }
        .create(store.as_ref())
        .await;
        store
            .replace_member_accounts(
                customer_id,
                ours.id,
                &members(&[("111111111111", "M")]),
                at(1),
            )
            .await
            .unwrap();
        let before = store.list_connections(customer_id).await.unwrap();
        assert_eq!(before.len(), 2);

        assert_eq!(store.get_connection(other_id, ours.id).await.unwrap(), None);
        assert_eq!(
            store
                .find_connection(other_id, "aws", "123456789012")
                .await
                .unwrap(),
            None
        );
        assert!(store.list_connections(other_id).await.unwrap().is_empty());
        assert!(store
            .list_cloud_accounts(other_id)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            store.connection_secret(other_id, ours.id).await.unwrap(),
            None
        );
        assert!(!store
            .update_connection_settings(other_id, ours.id, &json!({"bucket": "evil"}), Some(None))
            .await
            .unwrap());
        assert_eq!(
            store
                .delete_connections(other_id, "aws", &["123456789012".to_owned()])
                .await
                .unwrap(),
            0
        );
        store
            .replace_member_accounts(other_id, ours.id, &members(&[("999999999999", "X")]), at(2))
            .await
            .unwrap();
        assert!(!store
            .start_registration_check(other_id, ours.id, at(3), at(0))
            .await
            .unwrap());
        assert!(!store.request_sync(other_id, ours.id, at(4)).await.unwrap());
        // A member account cannot be put under another customer's organisation.
        let err = Connect {
            parent_id: Some(ours.id),
            settings: json!({}),
            ..Connect::aws(other_id, "222222222222", "Sneaky member")
        }
        .try_create(store.as_ref())
        .await
        .unwrap_err();
        assert!(matches!(err, StoreError::Corrupt(_)), "{err:?}");
        assert!(store.list_connections(other_id).await.unwrap().is_empty());

        assert_eq!(store.list_connections(customer_id).await.unwrap(), before);
        assert_eq!(
            store
                .connection_secret(customer_id, ours.id)
                .await
                .unwrap()
                .as_deref(),
            Some("v1:ours")
        );
        // No check was started and no sync requested by the other customer's calls.
        let ours_now = store
            .get_connection(customer_id, ours.id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(ours_now.registration, None);
        assert_eq!(ours_now.sync.requested_at, None);
    })
    .await;
}

#[tokio::test]
async fn settings_and_secret_are_replaced_kept_or_cleared() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let connection = Connect {
            settings: json!({}),
            secret: Some("v1:first"),
            ..Connect::aws(customer_id, "123456789012", "Production")
        }
        .create(store.as_ref())
        .await;

        let settings = aws_settings("second-bucket");
        assert!(store
            .update_connection_settings(customer_id, connection.id, &settings, None)
            .await
            .unwrap());
        let got = store
            .get_connection(customer_id, connection.id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(got.settings, settings);
        assert!(got.has_secret, "None keeps the secret");
        assert_eq!(
            store
                .connection_secret(customer_id, connection.id)
                .await
                .unwrap()
                .as_deref(),
            Some("v1:first")
        );

        assert!(store
            .update_connection_settings(
                customer_id,
                connection.id,
                &settings,
                Some(Some("v1:second"))
            )
            .await
            .unwrap());
        assert_eq!(
            store
                .connection_secret(customer_id, connection.id)
                .await
                .unwrap()
                .as_deref(),
            Some("v1:second")
        );

        assert!(store
            .update_connection_settings(customer_id, connection.id, &settings, Some(None))
            .await
            .unwrap());
        let got = store
            .get_connection(customer_id, connection.id)
            .await
            .unwrap()
            .unwrap();
        assert!(!got.has_secret);
        assert_eq!(
            store
                .connection_secret(customer_id, connection.id)
                .await
                .unwrap(),
            None
        );
        assert!(!store
            .update_connection_settings(customer_id, connection.id + 1000, &settings, None)
            .await
            .unwrap());
    })
    .await;
}

#[tokio::test]
async fn connections_are_listed_by_provider_and_name_with_members_under_their_organisation() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let zeta = Connect::aws(customer_id, "300000000000", "Zeta org")
            .create(store.as_ref())
            .await;
        let alpha = Connect::aws(customer_id, "100000000000", "alpha org")
            .create(store.as_ref())
            .await;
        let project = Connect {
            provider: "gcp",
            ..Connect::aws(customer_id, "my-project", "A project")
        }
        .create(store.as_ref())
        .await;
        let azure = Connect {
            provider: "azure",
            ..Connect::aws(customer_id, "sub-1", "Billing export")
        }
        .create(store.as_ref())
        .await;
        store
            .replace_member_accounts(
                customer_id,
                zeta.id,
                &members(&[("300000000002", "Zeta b"), ("300000000001", "Zeta a")]),
                at(1),
            )
            .await
            .unwrap();
        store
            .replace_member_accounts(
                customer_id,
                alpha.id,
                &members(&[("100000000001", "Beta")]),
                at(1),
            )
            .await
            .unwrap();

        let listed = store.list_connections(customer_id).await.unwrap();
        let names: Vec<&str> = listed.iter().map(|c| c.account_name.as_str()).collect();
        assert_eq!(
            names,
            [
                "alpha org",
                "Beta",
                "Zeta org",
                "Zeta a",
                "Zeta b",
                "Billing export",
                "A project"
            ]
        );
        let parents: Vec<Option<i64>> = listed.iter().map(|c| c.parent_id).collect();
        assert_eq!(
            parents,
            [
                None,
                Some(alpha.id),
                None,
                Some(zeta.id),
                Some(zeta.id),
                None,
                None
            ]
        );
        assert_eq!(listed[5].id, azure.id);
        assert_eq!(listed[6].id, project.id);
        let member = &listed[1];
        assert_eq!(member.provider, "aws");
        assert_eq!(member.settings, json!({}));
        assert!(!member.has_secret);
        assert_eq!(member.created_at, at(1));

        // The plain account list still has every row, members included.
        let accounts = store.list_cloud_accounts(customer_id).await.unwrap();
        assert_eq!(accounts.len(), 7);
        assert!(accounts.iter().any(|a| a.account_id == "300000000001"));
    })
    .await;
}

#[tokio::test]
async fn member_accounts_are_added_renamed_and_removed_but_own_connections_stay() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let org = store
            .create_connection(NewCloudConnection {
                customer_id,
                provider: "aws",
                account_id: "100000000000",
                account_name: "Management",
                organization_id: Some("r-ab12"),
                parent_id: None,
                settings: &aws_settings("exports"),
                encrypted_secret: None,
                created_by_user_id: None,
                now: at(0),
            })
            .await
            .unwrap();
        let own = Connect {
            secret: Some("v1:own"),
            ..Connect::aws(customer_id, "100000000003", "Connected on its own")
        }
        .create(store.as_ref())
        .await;

        // The organisation lists itself, two members, the account connected on its own, and
        // one member twice.
        store
            .replace_member_accounts(
                customer_id,
                org.id,
                &members(&[
                    ("100000000000", "Management"),
                    ("100000000001", "Dev"),
                    ("100000000002", "Test"),
                    ("100000000003", "Renamed by the org"),
                    ("100000000002", "Test"),
                ]),
                at(1),
            )
            .await
            .unwrap();
        let member_rows = |listed: &[CloudConnection]| -> Vec<(String, String)> {
            listed
                .iter()
                .filter(|c| c.parent_id == Some(org.id))
                .map(|c| (c.account_id.clone(), c.account_name.clone()))
                .collect()
        };
        let listed = store.list_connections(customer_id).await.unwrap();
        assert_eq!(
            member_rows(&listed),
            [
                ("100000000001".to_owned(), "Dev".to_owned()),
                ("100000000002".to_owned(), "Test".to_owned())
            ]
        );
        let dev = listed
            .iter()
            .find(|c| c.account_id == "100000000001")
            .unwrap()
            .clone();
        assert_eq!(dev.organization_id.as_deref(), Some("r-ab12"));
        assert_eq!(
            store
                .get_connection(customer_id, own.id)
                .await
                .unwrap()
                .as_ref(),
            Some(&own),
            "an account connected on its own is left as it is"
        );
        assert_eq!(
            store
                .get_connection(customer_id, org.id)
                .await
                .unwrap()
                .as_ref(),
            Some(&org)
        );

        // Dev renamed, Test gone, Prod new; the own account no longer listed stays.
        store
            .replace_member_accounts(
                customer_id,
                org.id,
                &members(&[("100000000001", "Development"), ("100000000004", "Prod")]),
                at(2),
            )
            .await
            .unwrap();
        let listed = store.list_connections(customer_id).await.unwrap();
        assert_eq!(
            member_rows(&listed),
            [
                ("100000000001".to_owned(), "Development".to_owned()),
                ("100000000004".to_owned(), "Prod".to_owned())
            ]
        );
        let renamed = listed
            .iter()
            .find(|c| c.account_id == "100000000001")
            .unwrap();
        assert_eq!(renamed.id, dev.id, "a renamed member keeps its id");
        assert_eq!(renamed.created_at, at(1));
        assert!(store
            .get_connection(customer_id, own.id)
            .await
            .unwrap()
            .is_some());
        assert!(store
            .find_connection(customer_id, "aws", "100000000002")
            .await
            .unwrap()
            .is_none());

        // A member is not an organisation: nothing is listed under it.
        store
            .replace_member_accounts(
                customer_id,
                dev.id,
                &members(&[("555555555555", "X")]),
                at(3),
            )
            .await
            .unwrap();
        assert!(store
            .find_connection(customer_id, "aws", "555555555555")
            .await
            .unwrap()
            .is_none());

        // An empty list removes every member.
        store
            .replace_member_accounts(customer_id, org.id, &[], at(4))
            .await
            .unwrap();
        let listed = store.list_connections(customer_id).await.unwrap();
        assert!(member_rows(&listed).is_empty());
        assert_eq!(ids(&listed).len(), 2);
    })
    .await;
}

#[tokio::test]
async fn deleting_a_connection_takes_its_members_and_sync_records_but_not_its_loads() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let org = Connect::aws(customer_id, "100000000000", "Org")
            .create(store.as_ref())
            .await;
        let keep = Connect::aws(customer_id, "200000000000", "Keep")
            .create(store.as_ref())
            .await;
        store
            .replace_member_accounts(
                customer_id,
                org.id,
                &members(&[("100000000001", "Dev")]),
                at(1),
            )
            .await
            .unwrap();
        let job = store
            .create_ingest_job(NewIngestJob {
                customer_id,
                created_by_user_id: Some(owner.id),
                created_by: "AWS sync",
                upload: Some(IngestUpload {
                    format: None,
                    files: &[IngestFile {
                        name: "part-0.csv.gz".to_owned(),
                        bytes: 10,
                        format: None,
                        rows: None,
                    }],
                }),
                source: Some("AWS export s3://exports/focus, 2026-10"),
                cloud_account_id: Some(org.id),
                now: at(2),
            })
            .await
            .unwrap();
        store
            .record_synced_period(org.id, &period(10, "etag-1", Some(job)))
            .await
            .unwrap();
        store
            .record_synced_period(keep.id, &period(10, "etag-k", None))
            .await
            .unwrap();

        assert_eq!(
            store
                .delete_connections(
                    customer_id,
                    "aws",
                    &["100000000000".to_owned(), "not-connected".to_owned()]
                )
                .await
                .unwrap(),
            1
        );
        assert_eq!(
            store
                .delete_connections(customer_id, "aws", &[])
                .await
                .unwrap(),
            0
        );
        assert_eq!(
            store
                .delete_connections(customer_id, "gcp", &["200000000000".to_owned()])
                .await
                .unwrap(),
            0,
            "only the named provider's"
        );
        let listed = store.list_connections(customer_id).await.unwrap();
        assert_eq!(
            ids(&listed),
            [keep.id],
            "the member went with its organisation"
        );
        assert!(store.synced_periods(org.id).await.unwrap().is_empty());
        assert_eq!(store.synced_periods(keep.id).await.unwrap().len(), 1);
        let job = store
            .get_ingest_job(customer_id, job)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(job.cloud_account_id, None, "the load stays, unlinked");
        assert_eq!(
            job.source.as_deref(),
            Some("AWS export s3://exports/focus, 2026-10")
        );

        // Deleting a member on its own.
        store
            .replace_member_accounts(
                customer_id,
                keep.id,
                &members(&[("200000000001", "M")]),
                at(3),
            )
            .await
            .unwrap();
        assert_eq!(
            store
                .delete_connections(customer_id, "aws", &["200000000001".to_owned()])
                .await
                .unwrap(),
            1
        );
        assert_eq!(
            ids(&store.list_connections(customer_id).await.unwrap()),
            [keep.id]
        );
    })
    .await;
}

#[tokio::test]
async fn a_registration_check_runs_once_at_a_time_unless_stale() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let connection = Connect::aws(customer_id, "123456789012", "Production")
            .create(store.as_ref())
            .await;
        let id = connection.id;
        let check = |c: Option<CloudConnection>| c.unwrap().registration.unwrap();

        assert!(store
            .start_registration_check(customer_id, id, at(0), at(-10))
            .await
            .unwrap());
        let running = check(store.get_connection(customer_id, id).await.unwrap());
        assert_eq!(running.state, REGISTRATION_RUNNING);
        assert_eq!((running.started_at, running.finished_at), (at(0), None));
        assert_eq!(running.details, None);

        // Refused while running and fresh.
        assert!(!store
            .start_registration_check(customer_id, id, at(1), at(-9))
            .await
            .unwrap());
        assert_eq!(
            check(store.get_connection(customer_id, id).await.unwrap()).started_at,
            at(0)
        );

        // Taken to have died with its server once older than stale_before.
        assert!(store
            .start_registration_check(customer_id, id, at(20), at(10))
            .await
            .unwrap());
        assert_eq!(
            check(store.get_connection(customer_id, id).await.unwrap()).started_at,
            at(20)
        );

        store
            .finish_registration_check(
                id,
                REGISTRATION_FAILED,
                "NoSuchBucket: bucket x does not exist",
                at(21),
            )
            .await
            .unwrap();
        let failed = check(store.get_connection(customer_id, id).await.unwrap());
        assert_eq!(failed.state, REGISTRATION_FAILED);
        assert_eq!(
            failed.details.as_deref(),
            Some("NoSuchBucket: bucket x does not exist")
        );
        assert_eq!(failed.finished_at, Some(at(21)));

        // Finishing a check that is not running changes nothing.
        store
            .finish_registration_check(id, REGISTRATION_SUCCEEDED, "late", at(22))
            .await
            .unwrap();
        assert_eq!(
            check(store.get_connection(customer_id, id).await.unwrap()),
            failed
        );

        // A finished check can be started again at once, and its old answer is cleared.
        assert!(store
            .start_registration_check(customer_id, id, at(23), at(13))
            .await
            .unwrap());
        let again = check(store.get_connection(customer_id, id).await.unwrap());
        assert_eq!(again.state, REGISTRATION_RUNNING);
        assert_eq!((again.details, again.finished_at), (None, None));
        store
            .finish_registration_check(
                id,
                REGISTRATION_SUCCEEDED,
                "Found 2 billing periods",
                at(24),
            )
            .await
            .unwrap();
        let succeeded = check(store.get_connection(customer_id, id).await.unwrap());
        assert_eq!(succeeded.state, REGISTRATION_SUCCEEDED);
        assert_eq!(
            succeeded.details.as_deref(),
            Some("Found 2 billing periods")
        );
    })
    .await;
}

#[tokio::test]
async fn due_syncs_are_claimed_requested_first_and_members_and_settingless_skipped() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other_id, _) = create_customer(store.as_ref(), "otto@other.test").await;
        let never = Connect::aws(customer_id, "100000000000", "Never synced")
            .create(store.as_ref())
            .await;
        let recent = Connect::aws(customer_id, "200000000000", "Recent")
            .create(store.as_ref())
            .await;
        let old = Connect::aws(customer_id, "300000000000", "Old")
            .create(store.as_ref())
            .await;
        let requested = Connect::aws(other_id, "400000000000", "Requested")
            .create(store.as_ref())
            .await;
        let settingless = Connect {
            settings: json!({}),
            ..Connect::aws(customer_id, "500000000000", "No export yet")
        }
        .create(store.as_ref())
        .await;
        store
            .replace_member_accounts(
                customer_id,
                old.id,
                &members(&[("300000000001", "Member")]),
                at(0),
            )
            .await
            .unwrap();

        // First round at t=0: all four with settings have never synced.
        let first = store
            .claim_due_syncs(at(0), at(-360), at(-60), 10)
            .await
            .unwrap();
        assert_eq!(
            ids(&first).into_iter().collect::<HashSet<_>>(),
            HashSet::from([never.id, recent.id, old.id, requested.id])
        );
        for claimed in &first {
            assert_eq!(claimed.sync.state, Some(SyncState::Running));
            assert_eq!(claimed.sync.started_at, Some(at(0)));
        }
        let stored = store
            .get_connection(customer_id, old.id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stored.sync.state, Some(SyncState::Running));
        assert!(
            store
                .claim_due_syncs(at(1), at(-359), at(-59), 10)
                .await
                .unwrap()
                .is_empty(),
            "running syncs are not claimed twice"
        );
        for id in [never.id, old.id, requested.id] {
            store
                .finish_sync(
                    id,
                    &SyncOutcome::Succeeded {
                        details: "Loaded 1".into(),
                    },
                    at(2),
                )
                .await
                .unwrap();
        }
        store
            .finish_sync(
                recent.id,
                &SyncOutcome::Succeeded {
                    details: "x".into(),
                },
                at(250),
            )
            .await
            .unwrap();
        // At t=280 with a 6 h interval nothing that started at 0 is due yet: only the
        // requested one is.
        assert!(store
            .request_sync(other_id, requested.id, at(270))
            .await
            .unwrap());
        let recent_claim = store
            .claim_due_syncs(at(280), at(-80), at(220), 10)
            .await
            .unwrap();
        assert_eq!(
            ids(&recent_claim),
            [requested.id],
            "a requested sync is due at once"
        );
        assert_eq!(
            recent_claim[0].sync.requested_at, None,
            "the claim clears the request"
        );
        store
            .finish_sync(
                requested.id,
                &SyncOutcome::Succeeded {
                    details: "y".into(),
                },
                at(281),
            )
            .await
            .unwrap();

        // Past 6 h after t=0: `never`, `old` and `recent` (started at 0) are due, `requested`
        // (started at 280) is not; the asked-for one comes first.
        assert!(store
            .request_sync(customer_id, old.id, at(300))
            .await
            .unwrap());
        let due = store
            .claim_due_syncs(at(370), at(10), at(310), 2)
            .await
            .unwrap();
        assert_eq!(due.len(), 2, "the limit holds");
        assert_eq!(due[0].id, old.id, "requested first");
        let rest = store
            .claim_due_syncs(at(371), at(11), at(311), 10)
            .await
            .unwrap();
        assert_eq!(
            ids(&due)
                .into_iter()
                .chain(ids(&rest))
                .collect::<HashSet<_>>(),
            HashSet::from([never.id, old.id, recent.id])
        );
        assert_eq!(due.len() + rest.len(), 3);
        // Never the member or the connection without settings.
        let settingless_now = store
            .get_connection(customer_id, settingless.id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(settingless_now.sync.state, None);
        for connection in store.list_connections(customer_id).await.unwrap() {
            if connection.parent_id.is_some() {
                assert_eq!(
                    connection.sync.state, None,
                    "members never sync on their own"
                );
            }
        }
    })
    .await;
}

#[tokio::test]
async fn a_sync_left_running_by_a_stopped_server_is_claimed_again() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let connection = Connect::aws(customer_id, "123456789012", "Production")
            .create(store.as_ref())
            .await;
        assert_eq!(
            ids(&store
                .claim_due_syncs(at(0), at(-360), at(-60), 5)
                .await
                .unwrap()),
            [connection.id]
        );
        // 30 minutes on, with a one-hour staleness: still running elsewhere.
        assert!(store
            .claim_due_syncs(at(30), at(-330), at(-30), 5)
            .await
            .unwrap()
            .is_empty());
        // 90 minutes on: stale, claimed again.
        let again = store
            .claim_due_syncs(at(90), at(-270), at(30), 5)
            .await
            .unwrap();
        assert_eq!(ids(&again), [connection.id]);
        assert_eq!(again[0].sync.started_at, Some(at(90)));
    })
    .await;
}

#[tokio::test]
async fn concurrent_claims_never_claim_a_connection_twice() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let mut all = HashSet::new();
        for n in 0..24 {
            let account = format!("{:012}", 100_000_000_000_i64 + n);
            let name = format!("Account {n}");
            let connection = Connect::aws(customer_id, &account, &name)
                .create(store.as_ref())
                .await;
            all.insert(connection.id);
        }
        let claim = || {
            let store = store.clone();
            tokio::spawn(async move { store.claim_due_syncs(at(0), at(-360), at(-60), 7).await })
        };
        let handles = [claim(), claim(), claim(), claim(), claim()];
        let mut claimed = Vec::new();
        for handle in handles {
            claimed.extend(ids(&handle.await.unwrap().unwrap()));
        }
        claimed.extend(ids(&store
            .claim_due_syncs(at(0), at(-360), at(-60), 100)
            .await
            .unwrap()));
        let unique: HashSet<i64> = claimed.iter().copied().collect();
        assert_eq!(unique.len(), claimed.len(), "claimed twice: {claimed:?}");
        assert_eq!(unique, all);
    })
    .await;
}

#[tokio::test]
async fn finishing_a_sync_keeps_a_request_made_while_it_ran() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let connection = Connect::aws(customer_id, "123456789012", "Production")
            .create(store.as_ref())
            .await;
        let id = connection.id;
        assert!(store.request_sync(customer_id, id, at(0)).await.unwrap());
        assert_eq!(
            store
                .get_connection(customer_id, id)
                .await
                .unwrap()
                .unwrap()
                .sync
                .requested_at,
            Some(at(0))
        );
        assert_eq!(
            ids(&store
                .claim_due_syncs(at(1), at(-359), at(-59), 5)
                .await
                .unwrap()),
            [id]
        );
        assert_eq!(
            store
                .get_connection(customer_id, id)
                .await
                .unwrap()
                .unwrap()
                .sync
                .requested_at,
            None,
            "set until a sync starts"
        );
        // Finished without a new request: nothing asked for.
        store
            .finish_sync(
                id,
                &SyncOutcome::Failed {
                    error: "AccessDenied: role x".into(),
                },
                at(2),
            )
            .await
            .unwrap();
        let failed = store
            .get_connection(customer_id, id)
            .await
            .unwrap()
            .unwrap()
            .sync;
        assert_eq!(failed.state, Some(SyncState::Failed));
        assert_eq!(failed.error.as_deref(), Some("AccessDenied: role x"));
        assert_eq!(failed.details, None);
        assert_eq!(
            (failed.started_at, failed.finished_at),
            (Some(at(1)), Some(at(2)))
        );
        assert_eq!(failed.requested_at, None);
        assert!(store
            .claim_due_syncs(at(3), at(-357), at(-57), 5)
            .await
            .unwrap()
            .is_empty());

        // "Sync now" pressed while the next sync runs stays for the next round.
        assert!(store.request_sync(customer_id, id, at(4)).await.unwrap());
        assert_eq!(
            ids(&store
                .claim_due_syncs(at(5), at(-355), at(-55), 5)
                .await
                .unwrap()),
            [id]
        );
        assert!(store.request_sync(customer_id, id, at(6)).await.unwrap());
        store
            .finish_sync(
                id,
                &SyncOutcome::Succeeded {
                    details: "Loaded 2 billing periods".into(),
                },
                at(7),
            )
            .await
            .unwrap();
        let succeeded = store
            .get_connection(customer_id, id)
            .await
            .unwrap()
            .unwrap()
            .sync;
        assert_eq!(succeeded.state, Some(SyncState::Succeeded));
        assert_eq!(succeeded.error, None, "a success clears the last error");
        assert_eq!(
            succeeded.details.as_deref(),
            Some("Loaded 2 billing periods")
        );
        assert_eq!(succeeded.requested_at, Some(at(6)));
        assert_eq!(
            ids(&store
                .claim_due_syncs(at(8), at(-352), at(-52), 5)
                .await
                .unwrap()),
            [id],
            "the kept request is due"
        );

        // Finishing a sync that is not running changes nothing.
        store
            .finish_sync(
                id,
                &SyncOutcome::Succeeded {
                    details: "a".into(),
                },
                at(9),
            )
            .await
            .unwrap();
        store
            .finish_sync(id, &SyncOutcome::Failed { error: "b".into() }, at(10))
            .await
            .unwrap();
        let sync = store
            .get_connection(customer_id, id)
            .await
            .unwrap()
            .unwrap()
            .sync;
        assert_eq!(sync.state, Some(SyncState::Succeeded));
        assert_eq!(sync.details.as_deref(), Some("a"));
        assert_eq!(sync.finished_at, Some(at(9)));
    })
    .await;
}

#[tokio::test]
async fn sync_now_on_a_member_account_asks_its_organisation() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let org = Connect::aws(customer_id, "100000000000", "Org")
            .create(store.as_ref())
            .await;
        store
            .replace_member_accounts(
                customer_id,
                org.id,
                &members(&[("100000000001", "Dev")]),
                at(0),
            )
            .await
            .unwrap();
        let member = store
            .find_connection(customer_id, "aws", "100000000001")
            .await
            .unwrap()
            .unwrap();
        assert!(store
            .request_sync(customer_id, member.id, at(5))
            .await
            .unwrap());
        assert_eq!(
            store
                .get_connection(customer_id, org.id)
                .await
                .unwrap()
                .unwrap()
                .sync
                .requested_at,
            Some(at(5))
        );
        assert_eq!(
            store
                .get_connection(customer_id, member.id)
                .await
                .unwrap()
                .unwrap()
                .sync
                .requested_at,
            None
        );
        assert!(!store
            .request_sync(customer_id, org.id + 1000, at(5))
            .await
            .unwrap());
    })
    .await;
}

#[tokio::test]
async fn period_fingerprints_are_recorded_and_replaced() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let a = Connect::aws(customer_id, "100000000000", "A")
            .create(store.as_ref())
            .await;
        let b = Connect::aws(customer_id, "200000000000", "B")
            .create(store.as_ref())
            .await;
        assert!(store.synced_periods(a.id).await.unwrap().is_empty());
        store
            .record_synced_period(a.id, &period(10, "etag-oct", None))
            .await
            .unwrap();
        store
            .record_synced_period(a.id, &period(9, "etag-sep", None))
            .await
            .unwrap();
        store
            .record_synced_period(b.id, &period(10, "etag-b", None))
            .await
            .unwrap();
        assert_eq!(
            store.synced_periods(a.id).await.unwrap(),
            [period(9, "etag-sep", None), period(10, "etag-oct", None)]
        );

        let replaced = SyncedPeriod {
            synced_at: at(100),
            ..period(10, "etag-oct-2", None)
        };
        store.record_synced_period(a.id, &replaced).await.unwrap();
        assert_eq!(
            store.synced_periods(a.id).await.unwrap(),
            [period(9, "etag-sep", None), replaced]
        );
        assert_eq!(
            store.synced_periods(b.id).await.unwrap(),
            [period(10, "etag-b", None)]
        );
    })
    .await;
}

#[tokio::test]
async fn the_aws_external_id_is_created_once_per_customer() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other_id, _) = create_customer(store.as_ref(), "otto@other.test").await;
        let (s1, s2) = (store.clone(), store.clone());
        let (first, second) = tokio::join!(
            tokio::spawn(async move { s1.aws_external_id(customer_id, "candidate-1").await }),
            tokio::spawn(async move { s2.aws_external_id(customer_id, "candidate-2").await }),
        );
        let (first, second) = (first.unwrap().unwrap(), second.unwrap().unwrap());
        assert_eq!(first, second, "two first calls answer the same id");
        assert!(first == "candidate-1" || first == "candidate-2");
        assert_eq!(
            store
                .aws_external_id(customer_id, "candidate-3")
                .await
                .unwrap(),
            first
        );
        assert_eq!(
            store.aws_external_id(other_id, "theirs").await.unwrap(),
            "theirs"
        );
        assert!(store
            .aws_external_id(other_id + 1000, "nobody")
            .await
            .is_err());
    })
    .await;
}

#[tokio::test]
async fn an_ingest_job_keeps_its_source_and_connection() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let connection = Connect::aws(customer_id, "123456789012", "Production")
            .create(store.as_ref())
            .await;
        let synced = store
            .create_ingest_job(NewIngestJob {
                customer_id,
                created_by_user_id: None,
                created_by: "Sync",
                upload: None,
                source: Some("AWS export s3://exports/focus, 2026-10"),
                cloud_account_id: Some(connection.id),
                now: at(0),
            })
            .await
            .unwrap();
        let files = [IngestFile {
            name: "part-0.parquet".to_owned(),
            bytes: 5,
            format: None,
            rows: None,
        }];
        assert!(store
            .queue_ingest_job(
                synced,
                IngestUpload {
                    format: None,
                    files: &files
                }
            )
            .await
            .unwrap());
        let claimed = store
            .claim_next_ingest_job(costscope_store::IngestLease {
                holder: "worker",
                now: at(2),
                until: at(3),
            })
            .await
            .unwrap()
            .unwrap()
            .job;
        assert_eq!(claimed.id, synced);
        assert_eq!(claimed.cloud_account_id, Some(connection.id));
        assert_eq!(
            claimed.source.as_deref(),
            Some("AWS export s3://exports/focus, 2026-10")
        );
        let uploaded = store
            .create_ingest_job(NewIngestJob {
                customer_id,
                created_by_user_id: Some(owner.id),
                created_by: &owner.name,
                upload: Some(IngestUpload {
                    format: None,
                    files: &files,
                }),
                source: None,
                cloud_account_id: None,
                now: at(1),
            })
            .await
            .unwrap();

        let job = store
            .get_ingest_job(customer_id, synced)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            job.source.as_deref(),
            Some("AWS export s3://exports/focus, 2026-10")
        );
        assert_eq!(job.cloud_account_id, Some(connection.id));
        let listed = store.list_ingest_jobs(customer_id, 10).await.unwrap();
        let upload = listed.iter().find(|j| j.id == uploaded).unwrap();
        assert_eq!(
            (upload.source.as_deref(), upload.cloud_account_id),
            (None, None)
        );
        assert_eq!(
            listed
                .iter()
                .find(|j| j.id == synced)
                .unwrap()
                .source
                .as_deref(),
            Some("AWS export s3://exports/focus, 2026-10")
        );
    })
    .await;
}

#[tokio::test]
async fn without_a_schedule_only_asked_for_and_never_synced_connections_are_due() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let synced = Connect::aws(customer_id, "100000000000", "Synced")
            .create(store.as_ref())
            .await;
        let no_schedule = DateTime::<Utc>::MIN_UTC;
        assert_eq!(
            ids(&store
                .claim_due_syncs(at(0), no_schedule, no_schedule, 5)
                .await
                .unwrap()),
            [synced.id]
        );
        store
            .finish_sync(
                synced.id,
                &SyncOutcome::Succeeded {
                    details: "ok".into(),
                },
                at(1),
            )
            .await
            .unwrap();
        let never = Connect::aws(customer_id, "200000000000", "Never")
            .create(store.as_ref())
            .await;
        // Years later, with the earliest representable bounds (PostgreSQL cannot store them).
        let later = at(60 * 24 * 365 * 3);
        assert_eq!(
            ids(&store
                .claim_due_syncs(later, no_schedule, no_schedule, 5)
                .await
                .unwrap()),
            [never.id]
        );
        assert!(store
            .request_sync(customer_id, synced.id, later)
            .await
            .unwrap());
        assert_eq!(
            ids(&store
                .claim_due_syncs(later, no_schedule, no_schedule, 5)
                .await
                .unwrap()),
            [synced.id]
        );
    })
    .await;
}

#[tokio::test]
async fn registering_a_member_again_makes_it_a_connection_of_its_own() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other_id, _) = create_customer(store.as_ref(), "otto@other.test").await;
        let org = Connect::aws(customer_id, "100000000000", "Org")
            .create(store.as_ref())
            .await;
        let listed = members(&[("100000000001", "Dev")]);
        store
            .replace_member_accounts(customer_id, org.id, &listed, at(0))
            .await
            .unwrap();
        let member = store
            .find_connection(customer_id, "aws", "100000000001")
            .await
            .unwrap()
            .unwrap();
        assert!(!store
            .rename_connection(other_id, member.id, "Stolen", None)
            .await
            .unwrap());
        assert!(store
            .rename_connection(customer_id, member.id, "Dev on its own", Some("r-ab12"))
            .await
            .unwrap());
        let own = store
            .get_connection(customer_id, member.id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(own.account_name, "Dev on its own");
        assert_eq!(own.organization_id.as_deref(), Some("r-ab12"));
        assert_eq!(own.parent_id, None);
        // The organisation listing it again leaves it as it is now.
        store
            .replace_member_accounts(customer_id, org.id, &listed, at(1))
            .await
            .unwrap();
        assert_eq!(
            store.get_connection(customer_id, member.id).await.unwrap(),
            Some(own)
        );
    })
    .await;
}

/// The daily upload quotas count what people upload; a sync's loads (with a `source`) count
/// only towards the stored rows.
#[tokio::test]
async fn sync_loads_do_not_use_up_the_daily_upload_quotas() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let connection = Connect::aws(customer_id, "100000000000", "Prod")
            .create(store.as_ref())
            .await;
        let files = |name: &str, bytes: u64| {
            vec![IngestFile {
                name: name.to_owned(),
                bytes,
                format: None,
                rows: None,
            }]
        };
        let uploaded = files("upload.csv", 100);
        let synced = files("part-0.csv.gz", 5000);
        for (files, source, cloud_account_id) in [
            (&uploaded, None, None),
            (
                &synced,
                Some("AWS sync · 100000000000 · 2026-11"),
                Some(connection.id),
            ),
        ] {
            store
                .create_ingest_job(NewIngestJob {
                    customer_id,
                    created_by_user_id: source.is_none().then_some(owner.id),
                    created_by: "someone",
                    upload: Some(IngestUpload {
                        format: None,
                        files,
                    }),
                    source,
                    cloud_account_id,
                    now: at(1),
                })
                .await
                .unwrap();
        }
        let usage = store.ingest_usage(customer_id, at(0)).await.unwrap();
        assert_eq!((usage.loads, usage.bytes), (1, 100));
    })
    .await;
}
