//! The registration check of a connection (spec 2 §3 registration job: `State` 1 in progress,
//! 6 succeeded, 7 failed): build the connection's billing-export source, `check()` it (AWS:
//! assume the role with the tenant's external id and list the export location), and for an
//! AWS organisation list its member accounts through AWS Organizations. At most one check runs
//! per connection (the store starts it atomically); one left running by a stopped server is
//! taken as dead after [`STALE_AFTER`] and started again.

use chrono::Duration;
use costscope_connectors::aws::list_organization_accounts;
use costscope_connectors::settings::AwsExportSettings;
use costscope_connectors::SourceError;
use costscope_store::{
    CloudConnection, MemberAccount, REGISTRATION_FAILED, REGISTRATION_SUCCEEDED,
};

use crate::cloud::sources::{own_aws_identity, source_for};
use crate::state::AppState;

/// A running check older than this died with its server.
pub const STALE_AFTER: Duration = Duration::minutes(5);
/// The longest a check may take (well under [`STALE_AFTER`]).
pub const TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// Starts a check of the connection in the background unless one is running. Answers whether
/// one was started.
pub async fn start(state: &AppState, connection: &CloudConnection) -> Result<bool, anyhow::Error> {
    let now = state.clock.now();
    let started = state
        .store
        .start_registration_check(
            connection.customer_id,
            connection.id,
            now,
            now - STALE_AFTER,
        )
        .await?;
    if started {
        let state = state.clone();
        let connection = connection.clone();
        tokio::spawn(async move { run(state, connection).await });
    }
    Ok(started)
}

/// Runs the check to its end and records it; a check that panics or runs past [`TIME_LIMIT`]
/// is recorded as failed, with words saying so.
async fn run(state: AppState, connection: CloudConnection) {
    let task = tokio::spawn({
        let state = state.clone();
        let connection = connection.clone();
        async move { tokio::time::timeout(TIME_LIMIT, check(&state, &connection)).await }
    });
    let outcome = match task.await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(_elapsed)) => Err(format!(
            "The check did not finish within {} seconds; the cloud did not answer in time. \
             Try again later.",
            TIME_LIMIT.as_secs()
        )),
        Err(error) => {
            tracing::error!(connection_id = connection.id, %error, "the registration check panicked");
            Err("The check stopped on an internal error; try again.".to_owned())
        }
    };
    let (result, details) = match outcome {
        Ok(details) => (REGISTRATION_SUCCEEDED, details),
        Err(reason) => (REGISTRATION_FAILED, reason),
    };
    tracing::info!(
        connection_id = connection.id,
        provider = %connection.provider,
        state = result,
        "registration check finished"
    );
    let now = state.clock.now();
    if let Err(error) = state
        .store
        .finish_registration_check(connection.id, result, &details, now)
        .await
    {
        tracing::error!(connection_id = connection.id, %error, "recording a registration check");
        return;
    }
    // A connection that works and never synced: its first sync need not wait for the schedule.
    if result == REGISTRATION_SUCCEEDED && connection.sync.state.is_none() {
        state.sync_wake.notify_one();
    }
}

/// What was found, or why the connection cannot be read (in words a person can act on).
async fn check(state: &AppState, connection: &CloudConnection) -> Result<String, String> {
    let source = source_for(state, connection)
        .await
        .map_err(|error| error.message)?;
    let mut details = source.check().await.map_err(|error| error.message)?;
    if connection.provider == "aws" && connection.organization_id.is_some() {
        let members = organization_members(state, connection)
            .await
            .map_err(|error| error.message)?;
        state
            .store
            .replace_member_accounts(
                connection.customer_id,
                connection.id,
                &members,
                state.clock.now(),
            )
            .await
            .map_err(|error| {
                tracing::error!(connection_id = connection.id, %error, "recording member accounts");
                "The member accounts could not be recorded; try again.".to_owned()
            })?;
        details.push_str(&match members.len() {
            1 => "; 1 member account listed through AWS Organizations".to_owned(),
            n => format!("; {n} member accounts listed through AWS Organizations"),
        });
    }
    Ok(details)
}

/// The organisation's accounts other than its management account (the connection itself),
/// listed through AWS Organizations with the connection's role.
async fn organization_members(
    state: &AppState,
    connection: &CloudConnection,
) -> Result<Vec<MemberAccount>, SourceError> {
    let settings: AwsExportSettings = serde_json::from_value(connection.settings.clone())
        .map_err(|_| {
            SourceError::new(format!(
                "The AWS connection {} has no role to list its organisation with; register it again",
                connection.account_id
            ))
        })?;
    let sdk = own_aws_identity(&state.config.cloud).await;
    let accounts = list_organization_accounts(&sdk, &settings).await?;
    Ok(accounts
        .into_iter()
        .filter(|account| account.account_id != connection.account_id)
        .map(|account| MemberAccount {
            account_id: account.account_id,
            account_name: account.name,
        })
        .collect())
}
