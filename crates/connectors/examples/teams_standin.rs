//! Runs the local Microsoft identity platform and Microsoft Graph stand-in
//! (`costscope_connectors::testing::teams`) for the browser end-to-end test of Microsoft Teams
//! (docs/NOTIFICATIONS.md "Microsoft Teams through Microsoft Graph"), until it is stopped.
//!
//! ```text
//! cargo run -p costscope-connectors --features test-support --example teams_standin -- \
//!     [--teams '[{"id": "team-1", "name": "FinOps", "channels": [{"id": "19:a@thread.tacv2", "name": "Alerts"}]}]']
//! ```
//!
//! - `--teams`: the teams the signed-in user is a member of, with their channels, as a JSON
//!   array. Absent: one team `Costscope E2E` with the channels `Alerts` and `General`.
//!
//! Its authorisation endpoint approves every well-formed request at once (no sign-in page): a
//! browser sent there is redirected straight back to the redirect URI with a code and the state.
//!
//! Once listening it prints one line of JSON: `{"authority", "graph_url", "client_id",
//! "client_secret", "control_url", "teams"}` — the first four are the server's `[teams]`
//! settings; `control_url` serves `GET /messages`, the messages posted to channels so far
//! (`[{"team_id", "channel_id", "body"}]`, in order), for the test to check what was delivered.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use costscope_connectors::testing::teams::{TeamsStandIn, CLIENT_ID, CLIENT_SECRET};
use serde_json::{json, Value};
use std::sync::Arc;

fn usage(problem: &str) -> ! {
    eprintln!("{problem}\nusage: teams_standin [--teams JSON]");
    std::process::exit(2)
}

fn default_teams() -> Value {
    json!([{
        "id": "e2e-team-costscope",
        "name": "Costscope E2E",
        "channels": [
            {"id": "19:e2e-alerts@thread.tacv2", "name": "Alerts"},
            {"id": "19:e2e-general@thread.tacv2", "name": "General"},
        ],
    }])
}

/// `(id, name)` of a team or a channel.
type Named = (String, String);

/// `(id, name, [(channel id, channel name)])` of each team in `--teams`.
fn parse_teams(teams: &Value) -> Vec<(String, String, Vec<Named>)> {
    let text = |value: &Value, what: &str| {
        value
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| usage(&format!("--teams: {what} must be a string")))
    };
    let Some(list) = teams.as_array() else {
        usage("--teams must be a JSON array")
    };
    list.iter()
        .map(|team| {
            let channels = team["channels"]
                .as_array()
                .unwrap_or_else(|| usage("--teams: each team needs a channels array"))
                .iter()
                .map(|channel| {
                    (
                        text(&channel["id"], "a channel's id"),
                        text(&channel["name"], "a channel's name"),
                    )
                })
                .collect();
            (
                text(&team["id"], "a team's id"),
                text(&team["name"], "a team's name"),
                channels,
            )
        })
        .collect()
}

async fn messages(State(standin): State<Arc<TeamsStandIn>>) -> Json<Value> {
    Json(Value::Array(
        standin
            .messages()
            .into_iter()
            .map(|message| {
                json!({
                    "team_id": message.team_id,
                    "channel_id": message.channel_id,
                    "body": message.body,
                })
            })
            .collect(),
    ))
}

#[tokio::main]
async fn main() {
    let mut teams = default_teams();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--teams" => {
                let value = args
                    .next()
                    .unwrap_or_else(|| usage("--teams needs a value"));
                teams = serde_json::from_str(&value)
                    .unwrap_or_else(|e| usage(&format!("--teams is not JSON: {e}")));
            }
            other => usage(&format!("unknown argument {other}")),
        }
    }
    let parsed = parse_teams(&teams);

    let standin = Arc::new(TeamsStandIn::start().await);
    for (id, name, channels) in &parsed {
        let channels: Vec<(&str, &str)> = channels
            .iter()
            .map(|(id, name)| (id.as_str(), name.as_str()))
            .collect();
        standin.add_team(id, name, &channels);
    }

    let control = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| usage(&format!("cannot bind the control port: {e}")));
    let control_url = format!(
        "http://{}",
        control
            .local_addr()
            .unwrap_or_else(|e| usage(&format!("control port: {e}")))
    );
    let router = Router::new()
        .route("/messages", get(messages))
        .with_state(standin.clone());
    tokio::spawn(async move {
        let _ = axum::serve(control, router).await;
    });

    println!(
        "{}",
        json!({
            "authority": standin.authority(),
            "graph_url": standin.graph_url(),
            "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET,
            "control_url": control_url,
            "teams": teams,
        })
    );
    let _ = tokio::signal::ctrl_c().await;
}
