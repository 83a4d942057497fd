//! One suite for every backend: SQLite always, PostgreSQL when
//! `COSTSCOPE_TEST_POSTGRES_URL` names a server (each test gets its own database).

mod support;
use support::{create_customer, email, for_each_backend, now};

use chrono::{DateTime, Duration, Utc};
use costscope_core::{Email, Role, User, UserStatus};
use costscope_store::{
    connect, MetadataStore, NewCloudAccount, NewCustomer, NewInvitation, StoreError, UserChanges,
};

async fn invite(
    store: &dyn MetadataStore,
    customer_id: i64,
    by: i64,
    address: &str,
    token_hash: &str,
) -> User {
    let address = email(address);
    store
        .invite_user(NewInvitation {
            customer_id,
            email: &address,
            role: Role::User,
            invited_by: by,
            token_hash,
            expires_at: now() + Duration::days(7),
            now: now(),
        })
        .await
        .unwrap()
}

/// The invitation can be neither looked up nor accepted at `at`.
async fn assert_invitation_unusable(
    store: &dyn MetadataStore,
    token_hash: &str,
    at: DateTime<Utc>,
) {
    assert!(store
        .find_invitation(token_hash, at)
        .await
        .unwrap()
        .is_none());
    assert!(store
        .accept_invitation(token_hash, "Pat", "x", at)
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn create_customer_with_owner_stores_both() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let customer = store.get_customer(customer_id).await.unwrap().unwrap();
        assert_eq!(customer.name, "Acme");
        assert_eq!(customer.tier, 0);
        assert!(!customer.is_demo);
        assert_eq!(owner.role, Role::Owner);
        assert_eq!(owner.status, UserStatus::Active);
        assert_eq!(owner.customer_id, customer_id);
        assert_eq!(store.get_owner(customer_id).await.unwrap().unwrap(), owner);
        let login = store
            .find_login(&email("OLIVE@acme.test"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(login.user, owner);
        assert_eq!(login.password_hash.as_deref(), Some("hash"));
    })
    .await;
}

#[tokio::test]
async fn email_is_unique_case_insensitively_and_a_failed_signup_leaves_no_customer() {
    for_each_backend(|store| async move {
        let (first_customer, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let taken = Email::parse("olive@acme.test").unwrap();
        let err = store
            .create_customer_with_owner(NewCustomer {
                name: "Other",
                trial_end: now(),
                is_demo: false,
                owner_name: "Other",
                owner_email: &taken,
                owner_password_hash: "hash",
                now: now(),
            })
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Conflict), "{err:?}");
        assert!(
            store
                .get_customer(first_customer + 1)
                .await
                .unwrap()
                .is_none(),
            "transaction rolled back"
        );
    })
    .await;
}

#[tokio::test]
async fn set_trial_end_moves_the_trial() {
    for_each_backend(|store| async move {
        let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let new_end = now() + Duration::days(3);
        store.set_trial_end(customer_id, new_end).await.unwrap();
        assert_eq!(
            store
                .get_customer(customer_id)
                .await
                .unwrap()
                .unwrap()
                .trial_end,
            new_end
        );
    })
    .await;
}

#[tokio::test]
async fn list_users_puts_the_owner_first_then_sorts_by_name() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let zed = invite(store.as_ref(), customer_id, owner.id, "zed@acme.test", "t1").await;
        store
            .update_user(
                customer_id,
                zed.id,
                UserChanges {
                    name: Some("Zed Zulu"),
                    role: None,
                },
            )
            .await
            .unwrap();
        let amy = invite(store.as_ref(), customer_id, owner.id, "amy@acme.test", "t2").await;
        store
            .update_user(
                customer_id,
                amy.id,
                UserChanges {
                    name: Some("Amy Alpha"),
                    role: None,
                },
            )
            .await
            .unwrap();

        let names: Vec<String> = store
            .list_users(customer_id)
            .await
            .unwrap()
            .into_iter()
            .map(|u| u.name)
            .collect();
        assert_eq!(names, ["Olive Owner", "Amy Alpha", "Zed Zulu"]);
    })
    .await;
}

#[tokio::test]
async fn invitation_is_found_accepted_once_and_then_gone() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let pending = invite(
            store.as_ref(),
            customer_id,
            owner.id,
            "pat@acme.test",
            "invite-hash",
        )
        .await;
        assert_eq!(pending.status, UserStatus::Pending);
        assert!(store
            .find_login(&email("pat@acme.test"))
            .await
            .unwrap()
            .unwrap()
            .password_hash
            .is_none());

        let details = store
            .find_invitation("invite-hash", now())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(details.email, "pat@acme.test");
        assert_eq!(details.customer_name, "Acme");
        assert_eq!(details.invited_by, "Olive Owner");
        assert_eq!(details.user_id, pending.id);

        let active = store
            .accept_invitation("invite-hash", "Pat Person", "pw-hash", now())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(active.status, UserStatus::Active);
        assert_eq!(active.name, "Pat Person");

        assert_invitation_unusable(store.as_ref(), "invite-hash", now()).await;
    })
    .await;
}

#[tokio::test]
async fn expired_invitation_is_not_found() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        invite(
            store.as_ref(),
            customer_id,
            owner.id,
            "pat@acme.test",
            "invite-hash",
        )
        .await;
        assert_invitation_unusable(store.as_ref(), "invite-hash", now() + Duration::days(8)).await;
    })
    .await;
}

#[tokio::test]
async fn refresh_token_rotates_once_and_revoked_or_expired_tokens_do_not() {
    for_each_backend(|store| async move {
        let (_, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let in_30_days = now() + Duration::days(30);
        store
            .insert_refresh_token(owner.id, "r1", in_30_days)
            .await
            .unwrap();

        let user = store
            .rotate_refresh_token("r1", "r2", in_30_days, now())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(user.id, owner.id);
        assert!(store
            .rotate_refresh_token("r1", "r3", in_30_days, now())
            .await
            .unwrap()
            .is_none());

        store.revoke_refresh_token("r2", now()).await.unwrap();
        assert!(store
            .rotate_refresh_token("r2", "r4", in_30_days, now())
            .await
            .unwrap()
            .is_none());

        store
            .insert_refresh_token(owner.id, "r5", now() + Duration::seconds(1))
            .await
            .unwrap();
        let after_expiry = now() + Duration::seconds(2);
        assert!(store
            .rotate_refresh_token("r5", "r6", in_30_days, after_expiry)
            .await
            .unwrap()
            .is_none());
    })
    .await;
}

#[tokio::test]
async fn replaying_a_rotated_refresh_token_revokes_its_whole_family_only() {
    for_each_backend(|store| async move {
        let (_, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let in_30_days = now() + Duration::days(30);
        let rotate = |old: &'static str, new: &'static str| {
            let store = store.clone();
            async move {
                store
                    .rotate_refresh_token(old, new, in_30_days, now())
                    .await
                    .unwrap()
                    .is_some()
            }
        };
        store
            .insert_refresh_token(owner.id, "a1", in_30_days)
            .await
            .unwrap();
        store
            .insert_refresh_token(owner.id, "b1", in_30_days)
            .await
            .unwrap();
        assert!(rotate("a1", "a2").await);
        assert!(rotate("a2", "a3").await);

        assert!(!rotate("a1", "x").await, "a rotated token is refused");
        assert!(
            !rotate("a3", "a4").await,
            "and its live successor is revoked with it"
        );
        assert!(
            rotate("b1", "b2").await,
            "another sign-in's family is untouched"
        );
    })
    .await;
}

#[tokio::test]
async fn update_user_changes_only_the_given_fields() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let pat = invite(store.as_ref(), customer_id, owner.id, "pat@acme.test", "t").await;
        let admin = store
            .update_user(
                customer_id,
                pat.id,
                UserChanges {
                    name: None,
                    role: Some(Role::Admin),
                },
            )
            .await
            .unwrap()
            .unwrap();
        assert_eq!(admin.role, Role::Admin);
        assert_eq!(admin.name, pat.name);
        let renamed = store
            .update_user(
                customer_id,
                pat.id,
                UserChanges {
                    name: Some("Pat Person"),
                    role: None,
                },
            )
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (renamed.name.as_str(), renamed.role),
            ("Pat Person", Role::Admin)
        );
    })
    .await;
}

#[tokio::test]
async fn deleting_a_user_ends_their_sessions() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let pat = invite(store.as_ref(), customer_id, owner.id, "pat@acme.test", "t").await;
        store
            .insert_refresh_token(pat.id, "pat-refresh", now() + Duration::days(30))
            .await
            .unwrap();

        assert!(store.delete_user(customer_id, pat.id).await.unwrap());

        assert!(store.get_user(customer_id, pat.id).await.unwrap().is_none());
        let rotated = store
            .rotate_refresh_token("pat-refresh", "new", now() + Duration::days(1), now())
            .await
            .unwrap();
        assert!(rotated.is_none());
        assert!(
            !store.delete_user(customer_id, pat.id).await.unwrap(),
            "already gone"
        );
    })
    .await;
}

#[tokio::test]
async fn a_customer_cannot_read_change_or_delete_another_customers_user() {
    for_each_backend(|store| async move {
        let (customer_a, owner_a) = create_customer(store.as_ref(), "a@a.test").await;
        let (customer_b, owner_b) = create_customer(store.as_ref(), "b@b.test").await;
        let b_member = invite(
            store.as_ref(),
            customer_b,
            owner_b.id,
            "member@b.test",
            "tb",
        )
        .await;

        assert!(store
            .get_user(customer_a, b_member.id)
            .await
            .unwrap()
            .is_none());
        let changes = UserChanges {
            name: Some("Hijacked"),
            role: Some(Role::Admin),
        };
        assert!(store
            .update_user(customer_a, b_member.id, changes)
            .await
            .unwrap()
            .is_none());
        assert!(!store.delete_user(customer_a, b_member.id).await.unwrap());
        assert!(!store.delete_user(customer_a, owner_b.id).await.unwrap());

        assert_eq!(
            store
                .get_user(customer_b, b_member.id)
                .await
                .unwrap()
                .unwrap(),
            b_member
        );
        let a_users: Vec<i64> = store
            .list_users(customer_a)
            .await
            .unwrap()
            .iter()
            .map(|u| u.id)
            .collect();
        assert_eq!(a_users, [owner_a.id]);
        assert_eq!(
            store.get_owner(customer_a).await.unwrap().unwrap().id,
            owner_a.id
        );
    })
    .await;
}

#[tokio::test]
async fn cloud_accounts_are_listed_per_customer_and_unique_within_it() {
    for_each_backend(|store| async move {
        let (customer_a, _) = create_customer(store.as_ref(), "a@a.test").await;
        let (customer_b, _) = create_customer(store.as_ref(), "b@b.test").await;
        assert!(store
            .list_cloud_accounts(customer_a)
            .await
            .unwrap()
            .is_empty());

        let account = NewCloudAccount {
            provider: "aws",
            account_id: "123456789012",
            account_name: "prod",
            now: now(),
        };
        let added = store
            .add_cloud_account(customer_a, account.clone())
            .await
            .unwrap();
        assert_eq!(added.customer_id, customer_a);
        let err = store
            .add_cloud_account(customer_a, account.clone())
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::Conflict), "{err:?}");
        store.add_cloud_account(customer_b, account).await.unwrap();

        let a_accounts = store.list_cloud_accounts(customer_a).await.unwrap();
        assert_eq!(a_accounts, vec![added]);
        assert_eq!(
            store.list_cloud_accounts(customer_b).await.unwrap().len(),
            1
        );
    })
    .await;
}

#[tokio::test]
async fn ping_answers_and_unknown_url_schemes_are_refused() {
    for_each_backend(|store| async move {
        store.ping().await.unwrap();
    })
    .await;
    assert!(matches!(
        connect("mysql://localhost/x").await.unwrap_err(),
        StoreError::UnsupportedUrl
    ));
}

mod ingest_jobs {
    use chrono::NaiveDate;
    use costscope_store::{
        ClaimedIngestJob, IngestBillingPeriod, IngestFile, IngestJobStatus, IngestLease,
        IngestOutcome, IngestResult, IngestTotals, IngestUpload, NewIngestJob,
    };

    use super::*;

    /// The lease of a claim by `holder` at `at`, for a minute.
    fn lease_of(holder: &str, at: DateTime<Utc>) -> IngestLease<'_> {
        IngestLease {
            holder,
            now: at,
            until: at + chrono::Duration::minutes(1),
        }
    }

    /// A claim by the test's one worker at `at`.
    fn lease(at: DateTime<Utc>) -> IngestLease<'static> {
        lease_of("worker", at)
    }

    /// The id of what `store` claims for `holder` at `at`, and whether it was taken over.
    async fn claim_as(
        store: &dyn MetadataStore,
        holder: &str,
        at: DateTime<Utc>,
    ) -> Option<(i64, bool)> {
        store
            .claim_next_ingest_job(lease_of(holder, at))
            .await
            .unwrap()
            .map(|ClaimedIngestJob { job, taken_over }| (job.id, taken_over))
    }

    fn file(name: &str, bytes: u64) -> IngestFile {
        IngestFile {
            name: name.to_owned(),
            bytes,
            format: None,
            rows: None,
        }
    }

    /// Creates a receiving job and queues it with `files`.
    async fn queue(store: &dyn MetadataStore, owner: &User, files: &[IngestFile]) -> i64 {
        let id = store
            .create_ingest_job(NewIngestJob {
                customer_id: owner.customer_id,
                created_by_user_id: Some(owner.id),
                created_by: &owner.name,
                upload: None,
                source: None,
                cloud_account_id: None,
                now: now(),
            })
            .await
            .unwrap();
        let upload = IngestUpload {
            format: Some("focus"),
            files,
        };
        assert!(store.queue_ingest_job(id, upload).await.unwrap());
        id
    }

    #[tokio::test]
    async fn a_receiving_job_is_invisible_until_queued() {
        for_each_backend(|store| async move {
            let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let id = store
                .create_ingest_job(NewIngestJob {
                    customer_id,
                    created_by_user_id: Some(owner.id),
                    created_by: &owner.name,
                    upload: None,
                    source: None,
                    cloud_account_id: None,
                    now: now(),
                })
                .await
                .unwrap();
            assert!(store
                .get_ingest_job(customer_id, id)
                .await
                .unwrap()
                .is_none());
            assert!(store
                .list_ingest_jobs(customer_id, 100)
                .await
                .unwrap()
                .is_empty());
            assert!(store
                .claim_next_ingest_job(lease(now()))
                .await
                .unwrap()
                .is_none());

            let files = [file("focus.csv", 1234)];
            let upload = IngestUpload {
                format: None,
                files: &files,
            };
            assert!(store.queue_ingest_job(id, upload).await.unwrap());
            assert!(
                !store.queue_ingest_job(id, upload).await.unwrap(),
                "only a receiving job is queued"
            );
            let job = store
                .get_ingest_job(customer_id, id)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(job.status, IngestJobStatus::Queued);
            assert_eq!(job.files, files);
            assert_eq!(job.format, None);
            assert_eq!(job.created_by, "Olive Owner");
            assert_eq!(job.created_by_user_id, Some(owner.id));
            assert_eq!((job.rows, job.replaced_rows), (0, 0));
            assert!(job.started_at.is_none() && job.finished_at.is_none());
        })
        .await;
    }

    #[tokio::test]
    async fn delete_ingest_job_forgets_only_a_receiving_job() {
        for_each_backend(|store| async move {
            let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let queued = queue(store.as_ref(), &owner, &[file("a.csv", 1)]).await;
            store.delete_ingest_job(queued).await.unwrap();
            assert!(store
                .get_ingest_job(customer_id, queued)
                .await
                .unwrap()
                .is_some());

            let receiving = store
                .create_ingest_job(NewIngestJob {
                    customer_id,
                    created_by_user_id: None,
                    created_by: "x",
                    upload: None,
                    source: None,
                    cloud_account_id: None,
                    now: now(),
                })
                .await
                .unwrap();
            store.delete_ingest_job(receiving).await.unwrap();
            let files = [file("b.csv", 1)];
            let upload = IngestUpload {
                format: None,
                files: &files,
            };
            assert!(!store.queue_ingest_job(receiving, upload).await.unwrap());
        })
        .await;
    }

    #[tokio::test]
    async fn receiving_jobs_older_than_the_bound_are_forgotten_and_no_others() {
        for_each_backend(|store| async move {
            let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let receiving_since = |at| NewIngestJob {
                customer_id,
                created_by_user_id: None,
                created_by: "x",
                upload: None,
                source: None,
                cloud_account_id: None,
                now: at,
            };
            let two_days_ago = now() - Duration::days(2);
            let abandoned = store
                .create_ingest_job(receiving_since(two_days_ago))
                .await
                .unwrap();
            let receiving = store
                .create_ingest_job(receiving_since(now()))
                .await
                .unwrap();
            let queued = queue(store.as_ref(), &owner, &[file("a.csv", 1)]).await;

            let forgotten = store
                .delete_abandoned_receiving_ingest_jobs(now() - Duration::days(1))
                .await
                .unwrap();
            assert_eq!(forgotten, vec![abandoned]);
            let files = [file("b.csv", 1)];
            let upload = IngestUpload {
                format: None,
                files: &files,
            };
            assert!(!store.queue_ingest_job(abandoned, upload).await.unwrap());
            assert!(store.queue_ingest_job(receiving, upload).await.unwrap());
            assert!(store
                .get_ingest_job(customer_id, queued)
                .await
                .unwrap()
                .is_some());
            let again = store
                .delete_abandoned_receiving_ingest_jobs(now() + Duration::days(1))
                .await
                .unwrap();
            assert!(again.is_empty(), "only receiving jobs: {again:?}");
        })
        .await;
    }

    #[tokio::test]
    async fn ingest_jobs_are_tenant_scoped_and_listed_newest_first() {
        for_each_backend(|store| async move {
            let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let (other_id, other) = create_customer(store.as_ref(), "otto@other.test").await;
            let first = queue(store.as_ref(), &owner, &[file("1.csv", 1)]).await;
            let second = queue(store.as_ref(), &owner, &[file("2.csv", 2)]).await;
            let theirs = queue(store.as_ref(), &other, &[file("3.csv", 3)]).await;

            assert!(store
                .get_ingest_job(customer_id, theirs)
                .await
                .unwrap()
                .is_none());
            assert!(store
                .get_ingest_job(other_id, first)
                .await
                .unwrap()
                .is_none());
            let ids: Vec<i64> = store
                .list_ingest_jobs(customer_id, 100)
                .await
                .unwrap()
                .iter()
                .map(|job| job.id)
                .collect();
            assert_eq!(ids, vec![second, first]);
            assert_eq!(
                store.list_ingest_jobs(customer_id, 1).await.unwrap().len(),
                1
            );
        })
        .await;
    }

    #[tokio::test]
    async fn claim_takes_the_oldest_queued_job_once() {
        for_each_backend(|store| async move {
            let (_, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let (_, other) = create_customer(store.as_ref(), "otto@other.test").await;
            let first = queue(store.as_ref(), &owner, &[file("1.csv", 1)]).await;
            let second = queue(store.as_ref(), &other, &[file("2.csv", 2)]).await;
            let at = now();

            let claimed = store
                .claim_next_ingest_job(lease(at))
                .await
                .unwrap()
                .unwrap();
            assert!(!claimed.taken_over);
            let claimed = claimed.job;
            assert_eq!(
                (claimed.id, claimed.status),
                (first, IngestJobStatus::Running)
            );
            assert_eq!(claimed.started_at, Some(at));
            assert_eq!(claimed.lease_holder.as_deref(), Some("worker"));
            assert_eq!(
                claimed.lease_expires_at,
                Some(at + chrono::Duration::minutes(1))
            );
            let claimed = store
                .claim_next_ingest_job(lease(at))
                .await
                .unwrap()
                .unwrap();
            assert_eq!(claimed.job.id, second);
            assert!(store
                .claim_next_ingest_job(lease(at))
                .await
                .unwrap()
                .is_none());
        })
        .await;
    }

    /// Fair between tenants: never two running loads of one tenant, and the tenant whose last
    /// load started longest ago (never: first) goes next.
    #[tokio::test]
    async fn claims_take_turns_between_tenants() {
        for_each_backend(|store| async move {
            let (a_id, a) = create_customer(store.as_ref(), "ann@a.test").await;
            let (_, b) = create_customer(store.as_ref(), "bob@b.test").await;
            let a1 = queue(store.as_ref(), &a, &[file("a1.csv", 1)]).await;
            let a2 = queue(store.as_ref(), &a, &[file("a2.csv", 1)]).await;
            let a3 = queue(store.as_ref(), &a, &[file("a3.csv", 1)]).await;
            let b1 = queue(store.as_ref(), &b, &[file("b1.csv", 1)]).await;
            let claim = || {
                let store = store.clone();
                async move {
                    store
                        .claim_next_ingest_job(lease(now()))
                        .await
                        .unwrap()
                        .map(|claimed| claimed.job.id)
                }
            };
            let done = |id: i64| {
                let store = store.clone();
                async move {
                    store
                        .finish_ingest_job(id, &IngestOutcome::Failed("x".into()), now())
                        .await
                        .unwrap()
                }
            };

            assert_eq!(claim().await, Some(a1));
            // A's next waits while a1 runs; B's upload, queued after it, goes.
            assert_eq!(claim().await, Some(b1));
            assert_eq!(claim().await, None);
            done(a1).await;
            assert_eq!(claim().await, Some(a2));
            done(a2).await;
            done(b1).await;
            assert_eq!(claim().await, Some(a3));
            let usage = store
                .ingest_usage(a_id, now() - chrono::Duration::days(1))
                .await
                .unwrap();
            assert_eq!((usage.loads, usage.bytes, usage.stored_rows), (3, 3, 0));
        })
        .await;
    }

    #[tokio::test]
    async fn concurrent_claims_never_take_the_same_job() {
        for_each_backend(|store| async move {
            // One upload of each of six tenants (a tenant's second waits for its first).
            let mut queued = Vec::new();
            for n in 0..6 {
                let (_, owner) =
                    create_customer(store.as_ref(), &format!("owner{n}@acme.test")).await;
                queued.push(queue(store.as_ref(), &owner, &[file(&format!("{n}.csv"), n)]).await);
            }
            let claims = (0..10).map(|_| {
                let store = store.clone();
                tokio::spawn(
                    async move { store.claim_next_ingest_job(lease(now())).await.unwrap() },
                )
            });
            let mut claimed = Vec::new();
            for claim in claims {
                if let Some(job) = claim.await.unwrap() {
                    claimed.push(job.job.id);
                }
            }
            claimed.sort_unstable();
            assert_eq!(claimed, queued);
        })
        .await;
    }

    #[tokio::test]
    async fn finish_records_the_outcome() {
        for_each_backend(|store| async move {
            let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let ok = queue(store.as_ref(), &owner, &[file("cur.csv", 10)]).await;
            let bad = queue(store.as_ref(), &owner, &[file("bad.csv", 10)]).await;
            store.claim_next_ingest_job(lease(now())).await.unwrap();
            let result = IngestResult {
                files: vec![IngestFile {
                    name: "cur.csv".into(),
                    bytes: 10,
                    format: Some("aws-cur2".into()),
                    rows: Some(3),
                }],
                rows: 3,
                replaced_rows: 2,
                billing_periods: vec![IngestBillingPeriod {
                    provider: "aws".into(),
                    billing_account_id: "999999999999".into(),
                    billing_period_start: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
                }],
                totals: vec![IngestTotals {
                    provider: "aws".into(),
                    rows: 3,
                    billed_cost: 12.345678901,
                    effective_cost: 11.5,
                    list_cost: 13.0,
                    currency: "USD".into(),
                }],
            };
            let at = now();
            store
                .finish_ingest_job(ok, &IngestOutcome::Succeeded(result.clone()), at)
                .await
                .unwrap();
            // The tenant's next upload is claimed once its first has ended.
            let claimed = store.claim_next_ingest_job(lease(now())).await.unwrap();
            assert_eq!(claimed.map(|claimed| claimed.job.id), Some(bad));
            store
                .finish_ingest_job(bad, &IngestOutcome::Failed("bad.csv: row 2".into()), at)
                .await
                .unwrap();

            let job = store
                .get_ingest_job(customer_id, ok)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(job.status, IngestJobStatus::Succeeded);
            assert_eq!(job.files, result.files);
            assert_eq!((job.rows, job.replaced_rows), (3, 2));
            assert_eq!(job.billing_periods, result.billing_periods);
            assert_eq!(job.totals, result.totals);
            assert_eq!(job.finished_at, Some(at));
            assert_eq!(job.error, None);
            let job = store
                .get_ingest_job(customer_id, bad)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(job.status, IngestJobStatus::Failed);
            assert_eq!(job.error.as_deref(), Some("bad.csv: row 2"));
            assert_eq!(job.rows, 0);

            // A late second outcome (a server that lost the job's lease) changes nothing.
            store
                .finish_ingest_job(ok, &IngestOutcome::Failed("late".into()), at)
                .await
                .unwrap();
            let job = store
                .get_ingest_job(customer_id, ok)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(job.status, IngestJobStatus::Succeeded);
            assert_eq!(job.error, None);
        })
        .await;
    }

    #[tokio::test]
    async fn a_job_started_by_the_command_line_is_running_at_once() {
        for_each_backend(|store| async move {
            let (customer_id, _) = create_customer(store.as_ref(), "olive@acme.test").await;
            let files = [file("cur.csv", 5)];
            let at = now();
            let id = store
                .create_ingest_job(NewIngestJob {
                    customer_id,
                    created_by_user_id: None,
                    created_by: "command line",
                    upload: Some(IngestUpload {
                        format: Some("aws-cur2"),
                        files: &files,
                    }),
                    source: None,
                    cloud_account_id: None,
                    now: at,
                })
                .await
                .unwrap();
            let job = store
                .get_ingest_job(customer_id, id)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(job.status, IngestJobStatus::Running);
            assert_eq!(job.started_at, Some(at));
            assert_eq!(job.format.as_deref(), Some("aws-cur2"));
            assert_eq!(job.created_by, "command line");
            assert!(
                store
                    .claim_next_ingest_job(lease(now()))
                    .await
                    .unwrap()
                    .is_none(),
                "never claimed by a worker while its lease may still be taken"
            );
        })
        .await;
    }

    /// What a server killed during a load leaves: a running job whose lease nobody renews.
    /// Another server takes it over once the lease has expired, not before, and never a job
    /// whose holder keeps renewing.
    #[tokio::test]
    async fn a_running_job_is_taken_over_once_its_lease_has_expired() {
        for_each_backend(|store| async move {
            let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let (_, other) = create_customer(store.as_ref(), "otto@other.test").await;
            let dead = queue(store.as_ref(), &owner, &[file("1.csv", 1)]).await;
            let alive = queue(store.as_ref(), &other, &[file("2.csv", 1)]).await;
            let start = now();
            let minutes = |n: i64| start + chrono::Duration::minutes(n);
            assert_eq!(
                claim_as(store.as_ref(), "a", start).await,
                Some((dead, false))
            );
            assert_eq!(
                claim_as(store.as_ref(), "b", start).await,
                Some((alive, false))
            );

            // Within the lease nothing is taken; "b" renews, "a" does not.
            assert_eq!(claim_as(store.as_ref(), "c", minutes(1)).await, None);
            assert!(store.hold_ingest_job(alive, "b", minutes(3)).await.unwrap());
            assert!(
                !store.hold_ingest_job(alive, "c", minutes(3)).await.unwrap(),
                "another holder's job"
            );

            assert_eq!(
                claim_as(store.as_ref(), "c", minutes(2)).await,
                Some((dead, true))
            );
            assert_eq!(
                claim_as(store.as_ref(), "d", minutes(2)).await,
                None,
                "taken once"
            );
            let job = store
                .get_ingest_job(customer_id, dead)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(job.status, IngestJobStatus::Running);
            assert_eq!(job.lease_holder.as_deref(), Some("c"));
            assert_eq!(job.lease_expires_at, Some(minutes(3)));
            assert!(
                !store.hold_ingest_job(dead, "a", minutes(4)).await.unwrap(),
                "the stopped holder cannot renew a job taken over"
            );
            store
                .finish_ingest_job(dead, &IngestOutcome::Failed("x".into()), minutes(2))
                .await
                .unwrap();
            assert!(!store.hold_ingest_job(dead, "c", minutes(4)).await.unwrap());
            assert_eq!(
                claim_as(store.as_ref(), "d", minutes(10)).await,
                Some((alive, true)),
                "a finished job is never taken; a lease renewed then abandoned is"
            );
        })
        .await;
    }

    /// A direct load starts its receiving job running under its own lease, never claimed while
    /// it renews it; a job left running without a lease (before leases existed) is taken over
    /// once a lease's time has passed since it started.
    #[tokio::test]
    async fn a_started_direct_load_is_its_loaders_and_a_job_without_lease_is_taken_later() {
        for_each_backend(|store| async move {
            let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let files = [file("cur.csv", 5)];
            let upload = IngestUpload {
                format: Some("focus"),
                files: &files,
            };
            let start = now();
            let minutes = |n: i64| start + chrono::Duration::minutes(n);
            let direct = store
                .create_ingest_job(NewIngestJob {
                    customer_id,
                    created_by_user_id: None,
                    created_by: "command line",
                    upload: None,
                    source: None,
                    cloud_account_id: None,
                    now: start,
                })
                .await
                .unwrap();
            assert!(store
                .start_ingest_job(direct, upload, lease_of("cli", start))
                .await
                .unwrap());
            assert!(
                !store
                    .start_ingest_job(direct, upload, lease_of("cli", start))
                    .await
                    .unwrap(),
                "only a receiving job starts"
            );
            let job = store
                .get_ingest_job(customer_id, direct)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(job.status, IngestJobStatus::Running);
            assert_eq!(job.started_at, Some(start));
            assert_eq!(job.files, files);
            assert_eq!(job.lease_holder.as_deref(), Some("cli"));
            assert_eq!(job.lease_expires_at, Some(minutes(1)));
            let legacy = store
                .create_ingest_job(NewIngestJob {
                    customer_id,
                    created_by_user_id: Some(owner.id),
                    created_by: &owner.name,
                    upload: Some(upload),
                    source: None,
                    cloud_account_id: None,
                    now: start,
                })
                .await
                .unwrap();

            assert!(store
                .hold_ingest_job(direct, "cli", minutes(3))
                .await
                .unwrap());
            assert_eq!(claim_as(store.as_ref(), "server", start).await, None);
            assert_eq!(
                claim_as(store.as_ref(), "server", minutes(2)).await,
                Some((legacy, true))
            );
            assert_eq!(claim_as(store.as_ref(), "server", minutes(2)).await, None);
            assert_eq!(
                claim_as(store.as_ref(), "server", minutes(4)).await,
                Some((direct, true))
            );
        })
        .await;
    }

    /// At startup a server ends a lease its data's earlier process held: the job is taken at
    /// the next claim. Only the holder's lease is released.
    #[tokio::test]
    async fn a_released_job_is_taken_over_at_once() {
        for_each_backend(|store| async move {
            let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let id = queue(store.as_ref(), &owner, &[file("1.csv", 1)]).await;
            let start = now();
            assert_eq!(
                claim_as(store.as_ref(), "old", start).await,
                Some((id, false))
            );
            assert!(!store.release_ingest_job(id, "someone").await.unwrap());
            assert_eq!(claim_as(store.as_ref(), "new", start).await, None);
            assert!(store.release_ingest_job(id, "old").await.unwrap());
            let running = store.running_ingest_jobs().await.unwrap();
            assert_eq!(running.len(), 1);
            assert_eq!(running[0].id, id);
            assert_eq!(
                claim_as(store.as_ref(), "new", start).await,
                Some((id, true))
            );
            let job = store
                .get_ingest_job(customer_id, id)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(job.lease_holder.as_deref(), Some("new"));
        })
        .await;
    }

    #[tokio::test]
    async fn concurrent_claims_take_an_abandoned_job_once() {
        for_each_backend(|store| async move {
            let (_, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
            let dead = queue(store.as_ref(), &owner, &[file("1.csv", 1)]).await;
            let start = now();
            assert_eq!(
                claim_as(store.as_ref(), "dead", start).await,
                Some((dead, false))
            );
            let later = start + chrono::Duration::minutes(2);
            let claims = (0..10).map(|n| {
                let store = store.clone();
                tokio::spawn(async move { claim_as(store.as_ref(), &format!("s{n}"), later).await })
            });
            let mut taken = Vec::new();
            for claim in claims {
                taken.extend(claim.await.unwrap());
            }
            assert_eq!(taken, vec![(dead, true)]);
        })
        .await;
    }
}
