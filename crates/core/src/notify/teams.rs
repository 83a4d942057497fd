//! Microsoft Teams through Microsoft Graph (docs/NOTIFICATIONS.md "Microsoft Teams through
//! Microsoft Graph"): the contract's messages, the scopes asked for, the redirect URI rule,
//! when a token is refreshed, and what a `teams` channel is called and shows. The message
//! itself is [`super::render::teams_graph`].

use chrono::{DateTime, TimeDelta, Utc};
use url::Url;

use super::channel::MAX_NAME_CHARS;

pub const NOT_CONFIGURED: &str = "Microsoft Teams is not configured on this server";
pub const SIGN_IN_NOT_STARTED: &str =
    "The Microsoft sign-in expired or was not started here; connect again";
pub const REDIRECT_URI_MESSAGE: &str = "redirect_uri must point to /teams-oauth-callback";
pub const NONE_CONFIGURED: &str = "No Microsoft Teams channel is configured";
pub const SIGN_IN_EXPIRED: &str = "Microsoft Teams sign-in expired; connect the channel again";
pub const MANAGERS_ONLY: &str = "Only owners and admins can manage Microsoft Teams";
pub const NO_TEAMS_CHANNEL: &str = "No Microsoft Teams channel found.";
pub const NOT_IN_TEAMS: &str = "That team or channel is not among the signed-in user's";

/// The path of the page the identity platform returns to.
pub const CALLBACK_PATH: &str = "/teams-oauth-callback";
/// What the sign-in asks for (space-separated, as the authorisation URL carries them).
pub const SCOPES: &str =
    "offline_access User.Read Team.ReadBasic.All Channel.ReadBasic.All ChannelMessage.Send";
/// How long a started sign-in may take to come back.
pub const SIGN_IN_MINUTES: i64 = 10;
/// A token with less than this left is refreshed before use.
pub const REFRESH_MARGIN_MINUTES: i64 = 5;

/// When a sign-in started at `now` expires.
pub fn sign_in_expiry(now: DateTime<Utc>) -> DateTime<Utc> {
    now + TimeDelta::minutes(SIGN_IN_MINUTES)
}

/// Whether a token expiring at `expires_at` is refreshed before being used at `now`: fewer
/// than [`REFRESH_MARGIN_MINUTES`] left.
pub fn needs_refresh(expires_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    expires_at - now < TimeDelta::minutes(REFRESH_MARGIN_MINUTES)
}

/// A redirect URI is `{public_url}/teams-oauth-callback`, or the same path on the origin of
/// the page that asks (`page_origins`: the request's `Origin`, and its `Host` over http and
/// https); nothing else (no query, no fragment, no user info). Answers it as parsed.
pub fn check_redirect_uri(
    redirect_uri: &str,
    public_url: &str,
    page_origins: &[String],
) -> Result<String, &'static str> {
    let url = Url::parse(redirect_uri.trim()).map_err(|_| REDIRECT_URI_MESSAGE)?;
    let shaped = matches!(url.scheme(), "http" | "https")
        && url.path() == CALLBACK_PATH
        && url.query().is_none()
        && url.fragment().is_none()
        && url.username().is_empty()
        && url.password().is_none();
    if !shaped {
        return Err(REDIRECT_URI_MESSAGE);
    }
    let origin = url.origin().ascii_serialization();
    let public = Url::parse(public_url).map(|public| public.origin().ascii_serialization());
    let allowed = public.as_deref() == Ok(origin.as_str())
        || page_origins.iter().any(|page| {
            Url::parse(page)
                .map(|page| page.origin().ascii_serialization() == origin)
                .unwrap_or(false)
        });
    if allowed {
        Ok(url.into())
    } else {
        Err(REDIRECT_URI_MESSAGE)
    }
}

/// What the channel answers show instead of a target: `{team} / {channel}`.
pub fn target_hint(team_name: &str, channel_name: &str) -> String {
    format!("{team_name} / {channel_name}")
}

/// The notification channel's name: `Teams: {team} / {channel}`, cut to the channel names'
/// 100 characters (the last one `…`).
pub fn channel_name(team_name: &str, channel_name: &str) -> String {
    let name = format!("Teams: {}", target_hint(team_name, channel_name));
    if name.chars().count() <= MAX_NAME_CHARS {
        return name;
    }
    let mut cut: String = name.chars().take(MAX_NAME_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn a_token_is_refreshed_when_fewer_than_five_minutes_remain() {
        let now = Utc.with_ymd_and_hms(2026, 11, 28, 10, 0, 0).unwrap();
        assert!(!needs_refresh(now + TimeDelta::minutes(5), now));
        assert!(needs_refresh(now + TimeDelta::seconds(299), now));
        assert!(needs_refresh(now - TimeDelta::minutes(1), now));
        assert!(!needs_refresh(now + TimeDelta::hours(1), now));
        assert_eq!(sign_in_expiry(now), now + TimeDelta::minutes(10));
    }

    #[test]
    fn the_redirect_uri_is_the_callback_on_the_public_url_or_the_pages_origin() {
        let public = "https://costs.acme.test";
        assert_eq!(
            check_redirect_uri("https://costs.acme.test/teams-oauth-callback", public, &[]),
            Ok("https://costs.acme.test/teams-oauth-callback".to_owned())
        );
        let page = vec!["http://localhost:5173".to_owned()];
        assert!(
            check_redirect_uri("http://localhost:5173/teams-oauth-callback", public, &page).is_ok()
        );
        for refused in [
            "https://costs.acme.test/elsewhere",
            "https://evil.test/teams-oauth-callback",
            "https://costs.acme.test/teams-oauth-callback?next=/x",
            "https://costs.acme.test/teams-oauth-callback#x",
            "https://user@costs.acme.test/teams-oauth-callback",
            "http://costs.acme.test/teams-oauth-callback",
            "javascript:alert(1)",
            "",
        ] {
            assert_eq!(
                check_redirect_uri(refused, public, &page),
                Err(REDIRECT_URI_MESSAGE),
                "{refused}"
            );
        }
    }

    #[test]
    fn names_and_hints_of_a_teams_channel() {
        assert_eq!(target_hint("Ops", "Alerts"), "Ops / Alerts");
        assert_eq!(channel_name("Ops", "Alerts"), "Teams: Ops / Alerts");
        let long = channel_name(&"t".repeat(80), &"c".repeat(80));
        assert_eq!(long.chars().count(), 100);
        assert!(long.ends_with('…'));
    }
}
