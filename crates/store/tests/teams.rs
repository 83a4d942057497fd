//! Microsoft Teams integrations on every backend (SQLite always, PostgreSQL when
//! `COSTSCOPE_TEST_POSTGRES_URL` names a server): a sign-in taken once before it expires,
//! tokens, the team and channel picked becoming a notification channel of type `teams`,
//! removal from either side, and tenancy.

mod support;
use support::{create_customer, for_each_backend};

use chrono::{DateTime, TimeZone, Utc};
use costscope_core::notify::ChannelKind;
use costscope_store::{
    ChannelCreation, MetadataStore, NewChannel, NewSignIn, TeamsConfiguration, TeamsSelection,
    TeamsTokens,
};

fn at(minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 10, minute, 0).unwrap()
}

async fn start(store: &dyn MetadataStore, customer_id: i64, state: &str) -> i64 {
    store
        .teams()
        .start_sign_in(NewSignIn {
            customer_id,
            state,
            verifier: "v1:sealed-verifier",
            redirect_uri: "https://costs.acme.test/teams-oauth-callback",
            expires_at: at(10),
            now: at(0),
        })
        .await
        .unwrap()
}

async fn sign_in(store: &dyn MetadataStore, customer_id: i64, state: &str) -> i64 {
    let id = start(store, customer_id, state).await;
    let taken = store
        .teams()
        .take_sign_in(customer_id, state, at(1))
        .await
        .unwrap()
        .expect("the sign-in");
    assert_eq!(taken.integration_id, id);
    assert!(store
        .teams()
        .save_tokens(
            customer_id,
            id,
            TeamsTokens {
                access_token: "v1:access",
                refresh_token: "v1:refresh",
                expires_at: at(59),
            },
        )
        .await
        .unwrap());
    id
}

fn selection<'a>(customer_id: i64, integration_id: i64, channel: &'a str) -> TeamsSelection<'a> {
    TeamsSelection {
        customer_id,
        integration_id,
        team_id: "team-1",
        team_channel_id: "19:abc@thread.tacv2",
        team_name: "Ops",
        team_channel_name: channel,
        channel_name: channel,
        target: "v1:sealed-path",
        target_hint: "Ops / Alerts",
        now: at(2),
        max_channels: 20,
    }
}

#[tokio::test]
async fn a_sign_in_is_taken_once_by_its_tenant_before_it_expires() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, _) = create_customer(store.as_ref(), "bob@other.test").await;
        let teams = store.teams();
        let id = start(store.as_ref(), acme, "state-1").await;
        assert!(
            teams
                .take_sign_in(other, "state-1", at(1))
                .await
                .unwrap()
                .is_none(),
            "another tenant's"
        );
        assert!(
            teams
                .take_sign_in(acme, "state-1", at(10))
                .await
                .unwrap()
                .is_none(),
            "expired"
        );
        let taken = teams
            .take_sign_in(acme, "state-1", at(9))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(taken.integration_id, id);
        assert_eq!(taken.verifier, "v1:sealed-verifier");
        assert_eq!(
            taken.redirect_uri,
            "https://costs.acme.test/teams-oauth-callback"
        );
        assert!(
            teams
                .take_sign_in(acme, "state-1", at(9))
                .await
                .unwrap()
                .is_none(),
            "once"
        );

        let integration = teams.integration(acme, id).await.unwrap().unwrap();
        assert_eq!(integration.access_token, None);
        assert!(teams.integration(other, id).await.unwrap().is_none());
        let tokens = TeamsTokens {
            access_token: "v1:a",
            refresh_token: "v1:r",
            expires_at: at(59),
        };
        assert!(!teams.save_tokens(other, id, tokens).await.unwrap());
        assert!(teams.save_tokens(acme, id, tokens).await.unwrap());
        let integration = teams.integration(acme, id).await.unwrap().unwrap();
        assert_eq!(integration.access_token.as_deref(), Some("v1:a"));
        assert_eq!(integration.refresh_token.as_deref(), Some("v1:r"));
        assert_eq!(integration.expires_at, Some(at(59)));
    })
    .await;
}

#[tokio::test]
async fn a_new_sign_in_clears_abandoned_ones_of_its_tenant() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let teams = store.teams();
        let abandoned = start(store.as_ref(), acme, "state-old").await;
        let signed_in = sign_in(store.as_ref(), acme, "state-signed").await;
        // Eleven minutes later: the first sign-in expired, the signed-in one stays.
        let id = teams
            .start_sign_in(NewSignIn {
                customer_id: acme,
                state: "state-new",
                verifier: "v1:x",
                redirect_uri: "https://costs.acme.test/teams-oauth-callback",
                expires_at: at(21),
                now: at(11),
            })
            .await
            .unwrap();
        assert!(teams.integration(acme, abandoned).await.unwrap().is_none());
        assert!(teams.integration(acme, signed_in).await.unwrap().is_some());
        assert!(teams.integration(acme, id).await.unwrap().is_some());
    })
    .await;
}

#[tokio::test]
async fn a_picked_channel_becomes_a_teams_channel_removed_from_either_side() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, _) = create_customer(store.as_ref(), "bob@other.test").await;
        let teams = store.teams();
        let id = sign_in(store.as_ref(), acme, "state-1").await;

        assert_eq!(
            teams.configure(selection(other, id, "Teams: Ops / Alerts")).await.unwrap(),
            TeamsConfiguration::NotFound
        );
        let configured = match teams.configure(selection(acme, id, "Teams: Ops / Alerts")).await.unwrap() {
            TeamsConfiguration::Configured(configured) => configured,
            other => panic!("{other:?}"),
        };
        let channel_id = configured.channel_id.expect("a channel");
        assert_eq!(configured.team_id.as_deref(), Some("team-1"));
        assert_eq!(configured.team_channel_id.as_deref(), Some("19:abc@thread.tacv2"));
        assert_eq!(configured.configured_at, Some(at(2)));
        let channels = store.channels().list_channels(acme).await.unwrap();
        assert_eq!(channels.len(), 1);
        assert_eq!(channels[0].id, channel_id);
        assert_eq!(channels[0].kind, ChannelKind::Teams);
        assert_eq!(channels[0].name, "Teams: Ops / Alerts");
        assert_eq!(channels[0].target_hint, "Ops / Alerts");
        assert_eq!(
            teams.integration_of_channel(acme, channel_id).await.unwrap().map(|i| i.id),
            Some(id)
        );
        assert!(teams.integration_of_channel(other, channel_id).await.unwrap().is_none());
        assert_eq!(teams.configured(acme).await.unwrap().len(), 1);
        assert!(teams.configured(other).await.unwrap().is_empty());

        // Picked again: the same channel, renamed.
        let again = teams.configure(selection(acme, id, "Teams: Ops / Costs")).await.unwrap();
        assert!(matches!(again, TeamsConfiguration::Configured(ref c) if c.channel_id == Some(channel_id)));
        let channels = store.channels().list_channels(acme).await.unwrap();
        assert_eq!(channels.len(), 1);
        assert_eq!(channels[0].name, "Teams: Ops / Costs");

        // Removed through the Teams routes: the channel goes too.
        assert!(!teams.delete_integration(other, id).await.unwrap());
        assert!(teams.delete_integration(acme, id).await.unwrap());
        assert!(store.channels().list_channels(acme).await.unwrap().is_empty());
        assert!(teams.integration(acme, id).await.unwrap().is_none());

        // Removed as a channel: the integration goes too.
        let id = sign_in(store.as_ref(), acme, "state-2").await;
        let TeamsConfiguration::Configured(configured) =
            teams.configure(selection(acme, id, "Teams: Ops / Alerts")).await.unwrap()
        else {
            panic!("not configured");
        };
        assert!(store.channels().delete_channel(acme, configured.channel_id.unwrap()).await.unwrap());
        assert!(teams.integration(acme, id).await.unwrap().is_none());
        assert!(teams.configured(acme).await.unwrap().is_empty());
    })
    .await;
}

#[tokio::test]
async fn a_teams_channel_keeps_the_tenants_unique_names_and_limit() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let channels = store.channels();
        let taken = NewChannel {
            customer_id: acme,
            kind: ChannelKind::Slack,
            name: "Teams: Ops / Alerts",
            target: "v1:t",
            target_hint: "https://hooks.slack.com/…",
            secret: None,
            now: at(0),
            max_channels: 20,
        };
        assert!(matches!(
            channels.create_channel(taken).await.unwrap(),
            ChannelCreation::Created(_)
        ));
        let id = sign_in(store.as_ref(), acme, "state-1").await;
        assert_eq!(
            store
                .teams()
                .configure(selection(acme, id, "Teams: Ops / Alerts"))
                .await
                .unwrap(),
            TeamsConfiguration::Refused(ChannelCreation::NameTaken)
        );
        let full = TeamsSelection {
            max_channels: 1,
            ..selection(acme, id, "Teams: Ops / Other")
        };
        assert_eq!(
            store.teams().configure(full).await.unwrap(),
            TeamsConfiguration::Refused(ChannelCreation::LimitReached)
        );
        assert_eq!(
            channels.list_channels(acme).await.unwrap().len(),
            1,
            "nothing written"
        );
        assert_eq!(
            store
                .teams()
                .integration(acme, id)
                .await
                .unwrap()
                .unwrap()
                .channel_id,
            None
        );
    })
    .await;
}
