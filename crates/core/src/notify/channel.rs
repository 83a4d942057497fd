//! A notification channel's type, the rules of a new channel (docs/NOTIFICATIONS.md "Rules",
//! with its messages) and the hint shown instead of its target.

use serde::{Deserialize, Serialize};
use url::{Host, Url};
use utoipa::ToSchema;

use crate::{Email, FieldError};

/// A tenant's channels at most.
pub const MAX_CHANNELS: usize = 20;
/// A channel name's length at most, in characters (after trimming).
pub const MAX_NAME_CHARS: usize = 100;
/// A URL target's length at most, in characters.
pub const MAX_URL_CHARS: usize = 2048;
/// A webhook secret's length bounds, in characters.
pub const SECRET_CHARS: std::ops::RangeInclusive<usize> = 16..=256;
/// What a generated webhook secret starts with (then 48 hex digits).
pub const GENERATED_SECRET_PREFIX: &str = "whsec_";

pub const TYPE_MESSAGE: &str = "Choose a channel type: email, slack, teams_webhook or webhook";
pub const NAME_REQUIRED: &str = "Name is required";
pub const NAME_TOO_LONG: &str = "Name must be at most 100 characters";
pub const EMAIL_INVALID: &str = "Enter a valid email address";
pub const EMAIL_NEEDS_SMTP: &str = "E-mail channels need SMTP configured on the server";
pub const URL_INVALID: &str = "Enter a URL that starts with https://";
pub const URL_TOO_LONG: &str = "The URL must be at most 2048 characters";
pub const SECRET_NOT_TAKEN: &str = "Only webhook channels take a secret";
pub const SECRET_LENGTH: &str = "The secret must be 16 to 256 characters";
pub const TOO_MANY_CHANNELS: &str = "A tenant may have at most 20 channels";
/// A budget's `channelIds` names a channel that is not one of the tenant's (422).
pub const UNKNOWN_CHANNEL: &str = "Unknown channel";

/// The 422 of a create when the tenant already has [`MAX_CHANNELS`] channels (under
/// `details.channels`: no field of the form is at fault).
pub const fn too_many_channels() -> FieldError {
    FieldError::new("channels", TOO_MANY_CHANNELS)
}

/// The 409 message of a create whose (trimmed) name another channel of the tenant has.
pub fn name_taken(name: &str) -> String {
    format!("A channel named \"{name}\" already exists")
}

/// How a channel is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChannelKind {
    /// A plain-text mail through the server's SMTP server.
    Email,
    /// A Slack incoming-webhook URL.
    Slack,
    /// A Teams Workflows (Power Automate) incoming-webhook URL.
    TeamsWebhook,
    /// Any HTTPS endpoint, sent the signed JSON envelope.
    Webhook,
    /// A Teams channel reached through Microsoft Graph as a signed-in user (docs/NOTIFICATIONS.md
    /// "Microsoft Teams through Microsoft Graph"): made by the Teams connect flow, never by
    /// `POST /v1/channels`.
    Teams,
}

impl ChannelKind {
    /// Every type a channel may have.
    pub const ALL: [ChannelKind; 5] = [
        ChannelKind::Email,
        ChannelKind::Slack,
        ChannelKind::TeamsWebhook,
        ChannelKind::Webhook,
        ChannelKind::Teams,
    ];
    /// The types `POST /v1/channels` creates (a `teams` channel comes from the Teams connect
    /// flow).
    pub const CREATABLE: [ChannelKind; 4] = [
        ChannelKind::Email,
        ChannelKind::Slack,
        ChannelKind::TeamsWebhook,
        ChannelKind::Webhook,
    ];

    /// The wire and stored name.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChannelKind::Email => "email",
            ChannelKind::Slack => "slack",
            ChannelKind::TeamsWebhook => "teams_webhook",
            ChannelKind::Webhook => "webhook",
            ChannelKind::Teams => "teams",
        }
    }

    /// Exactly one of the stored names.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }

    /// Exactly one of the four names `POST /v1/channels` takes.
    pub fn parse_creatable(text: &str) -> Option<Self> {
        Self::CREATABLE
            .into_iter()
            .find(|kind| kind.as_str() == text)
    }

    /// Whether the target is a URL (the webhook types; e-mail's is an address, a Teams
    /// channel's the Graph path of its channel).
    pub const fn takes_url(self) -> bool {
        !matches!(self, ChannelKind::Email | ChannelKind::Teams)
    }
}

/// A create body as received; `None` for a missing field.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChannelInput<'a> {
    pub kind: Option<&'a str>,
    pub name: Option<&'a str>,
    pub target: Option<&'a str>,
    /// An empty string counts as no secret.
    pub secret: Option<&'a str>,
}

/// A channel that passed every rule but the tenant's (unique name, at most 20).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidChannel {
    pub kind: ChannelKind,
    /// Trimmed.
    pub name: String,
    /// An e-mail address (trimmed, lower-cased) or a URL (as parsed, e.g. `https://a.test/`).
    pub target: String,
    /// A webhook's own secret; `None` asks the server to generate one.
    pub secret: Option<String>,
}

/// Checks every rule of a new channel at once; the errors name the field they are about
/// (`type`, `name`, `target`, `secret`). `smtp_configured`: whether the server can send mail.
pub fn validate_channel(
    input: ChannelInput<'_>,
    smtp_configured: bool,
) -> Result<ValidChannel, Vec<FieldError>> {
    let mut errors = Vec::new();
    let kind = input
        .kind
        .map(str::trim)
        .and_then(ChannelKind::parse_creatable);
    if kind.is_none() {
        errors.push(FieldError::new("type", TYPE_MESSAGE));
    }
    let name = input.name.unwrap_or_default().trim();
    if name.is_empty() {
        errors.push(FieldError::new("name", NAME_REQUIRED));
    } else if name.chars().count() > MAX_NAME_CHARS {
        errors.push(FieldError::new("name", NAME_TOO_LONG));
    }
    let secret = input.secret.filter(|secret| !secret.is_empty());
    let mut target = None;
    if let Some(kind) = kind {
        let text = input.target.unwrap_or_default().trim();
        let checked = if kind.takes_url() {
            parse_url(text)
        } else {
            parse_address(text, smtp_configured)
        };
        match checked {
            Ok(valid) => target = Some(valid),
            Err(message) => errors.push(FieldError::new("target", message)),
        }
        if let Some(secret) = secret {
            if kind != ChannelKind::Webhook {
                errors.push(FieldError::new("secret", SECRET_NOT_TAKEN));
            } else if !SECRET_CHARS.contains(&secret.chars().count()) {
                errors.push(FieldError::new("secret", SECRET_LENGTH));
            }
        }
    }
    match (kind, target) {
        (Some(kind), Some(target)) if errors.is_empty() => Ok(ValidChannel {
            kind,
            name: name.to_owned(),
            target,
            secret: secret.map(str::to_owned),
        }),
        _ => Err(errors),
    }
}

fn parse_address(text: &str, smtp_configured: bool) -> Result<String, &'static str> {
    if !smtp_configured {
        return Err(EMAIL_NEEDS_SMTP);
    }
    Email::parse(text)
        .map(|email| email.as_str().to_owned())
        .map_err(|_| EMAIL_INVALID)
}

/// `https://…` anywhere; `http://` only to this machine (`localhost`, `127.0.0.0/8`, `[::1]`),
/// for receivers on the server itself and for tests. The host is judged as the HTTP client
/// will parse it (`http://localhost@evil.test` is evil.test, `http://127.1` is 127.0.0.1).
fn parse_url(text: &str) -> Result<String, &'static str> {
    if text.chars().count() > MAX_URL_CHARS {
        return Err(URL_TOO_LONG);
    }
    let url = Url::parse(text).map_err(|_| URL_INVALID)?;
    let allowed = match (url.scheme(), url.host()) {
        ("https", Some(_)) => true,
        ("http", Some(Host::Domain(domain))) => domain == "localhost",
        ("http", Some(Host::Ipv4(ip))) => ip.is_loopback(),
        ("http", Some(Host::Ipv6(ip))) => ip.is_loopback(),
        _ => false,
    };
    if allowed {
        Ok(url.into())
    } else {
        Err(URL_INVALID)
    }
}

/// What answers show instead of a target (a webhook URL carries its own credentials): the
/// e-mail address, or the URL's scheme and host (with a port when it names one) followed by
/// `/…`. (A `teams` channel's hint is its team and channel names: [`super::teams::target_hint`].)
pub fn target_hint(kind: ChannelKind, target: &str) -> String {
    if !kind.takes_url() {
        return target.to_owned();
    }
    match Url::parse(target) {
        Ok(url) => {
            let host = url.host_str().unwrap_or_default();
            match url.port() {
                Some(port) => format!("{}://{host}:{port}/…", url.scheme()),
                None => format!("{}://{host}/…", url.scheme()),
            }
        }
        Err(_) => "…".to_owned(),
    }
}

/// A webhook secret generated for a channel created without one: `whsec_` and the 24 random
/// bytes (which the caller draws from the OS) in hex.
pub fn generated_secret(random: &[u8; 24]) -> String {
    format!("{GENERATED_SECRET_PREFIX}{}", hex::encode(random))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(kind: &'a str, name: &'a str, target: &'a str) -> ChannelInput<'a> {
        ChannelInput {
            kind: Some(kind),
            name: Some(name),
            target: Some(target),
            secret: None,
        }
    }

    fn errors(input: ChannelInput<'_>, smtp: bool) -> Vec<(&'static str, &'static str)> {
        validate_channel(input, smtp)
            .unwrap_err()
            .into_iter()
            .map(|error| (error.field, error.message))
            .collect()
    }

    #[test]
    fn a_valid_channel_of_each_type_is_trimmed_and_normalised() {
        let email =
            validate_channel(input("email", "  Ops mail ", " Ops@Acme.Test "), true).unwrap();
        assert_eq!(
            email,
            ValidChannel {
                kind: ChannelKind::Email,
                name: "Ops mail".to_owned(),
                target: "ops@acme.test".to_owned(),
                secret: None,
            }
        );
        let slack = validate_channel(
            input(
                "slack",
                "Slack",
                "https://hooks.slack.com/services/T0/B0/xyz",
            ),
            false,
        )
        .unwrap();
        assert_eq!(slack.kind, ChannelKind::Slack);
        assert_eq!(slack.target, "https://hooks.slack.com/services/T0/B0/xyz");
        let teams = validate_channel(
            input(
                "teams_webhook",
                "Teams",
                "https://prod.westus.logic.azure.com:443/workflows/1",
            ),
            false,
        )
        .unwrap();
        assert_eq!(teams.kind, ChannelKind::TeamsWebhook);
        assert_eq!(
            teams.target,
            "https://prod.westus.logic.azure.com/workflows/1"
        );
        let webhook = validate_channel(
            ChannelInput {
                secret: Some("0123456789abcdef"),
                ..input("webhook", "Hook", "http://127.0.0.1:8080/hook")
            },
            false,
        )
        .unwrap();
        assert_eq!(webhook.secret.as_deref(), Some("0123456789abcdef"));
        assert_eq!(webhook.target, "http://127.0.0.1:8080/hook");
    }

    #[test]
    fn an_empty_body_names_the_type_and_the_name() {
        assert_eq!(
            errors(ChannelInput::default(), true),
            vec![("type", TYPE_MESSAGE), ("name", NAME_REQUIRED)]
        );
        assert_eq!(
            errors(input("sms", "x", "+4412345"), true),
            vec![("type", TYPE_MESSAGE)]
        );
        assert_eq!(
            errors(input("Slack", "x", "https://a.test/"), true),
            vec![("type", TYPE_MESSAGE)],
            "the names are exact"
        );
        assert_eq!(
            errors(input("teams", "x", "https://a.test/"), true),
            vec![("type", TYPE_MESSAGE)],
            "Teams through Graph comes from its connect flow"
        );
    }

    #[test]
    fn a_name_is_one_to_a_hundred_characters_after_trimming() {
        assert_eq!(
            errors(input("slack", "   ", "https://a.test/"), true),
            vec![("name", NAME_REQUIRED)]
        );
        let hundred = "é".repeat(100);
        assert!(validate_channel(input("slack", &hundred, "https://a.test/"), true).is_ok());
        let long = "é".repeat(101);
        assert_eq!(
            errors(input("slack", &long, "https://a.test/"), true),
            vec![("name", NAME_TOO_LONG)]
        );
    }

    #[test]
    fn an_email_target_is_an_address_and_needs_smtp() {
        assert_eq!(
            errors(input("email", "Ops", "not-an-address"), true),
            vec![("target", EMAIL_INVALID)]
        );
        assert_eq!(
            errors(input("email", "Ops", ""), true),
            vec![("target", EMAIL_INVALID)]
        );
        assert_eq!(
            errors(input("email", "Ops", "ops@acme.test"), false),
            vec![("target", EMAIL_NEEDS_SMTP)]
        );
    }

    #[test]
    fn a_url_target_is_https_or_http_to_this_machine() {
        for ok in [
            "https://hooks.example.com/x",
            "https://10.0.0.1/x",
            "http://localhost:3000/hook",
            "http://LOCALHOST/hook",
            "http://127.0.0.1/hook",
            "http://127.9.8.7:81/hook",
            "http://127.1/hook",
            "http://[::1]:9000/hook",
        ] {
            assert!(
                validate_channel(input("webhook", "Hook", ok), false).is_ok(),
                "{ok}"
            );
        }
        for refused in [
            "",
            "hooks.example.com/x",
            "ftp://hooks.example.com/x",
            "http://hooks.example.com/x",
            "http://10.0.0.1/x",
            "http://localhost@evil.example.com/x",
            "http://localhost.evil.example.com/x",
            "http://[::2]/x",
            "https://",
            "javascript:alert(1)",
        ] {
            assert_eq!(
                errors(input("slack", "Hook", refused), false),
                vec![("target", URL_INVALID)],
                "{refused}"
            );
        }
    }

    #[test]
    fn a_url_is_at_most_2048_characters() {
        let base = "https://a.test/";
        let longest = format!("{base}{}", "a".repeat(MAX_URL_CHARS - base.len()));
        assert!(validate_channel(input("slack", "S", &longest), false).is_ok());
        let longer = format!("{longest}a");
        assert_eq!(
            errors(input("slack", "S", &longer), false),
            vec![("target", URL_TOO_LONG)]
        );
    }

    #[test]
    fn only_webhooks_take_a_secret_of_16_to_256_characters() {
        let with = |kind: &'static str, secret: &'static str| ChannelInput {
            secret: Some(secret),
            ..input(kind, "C", "https://a.test/")
        };
        assert_eq!(
            errors(with("slack", "0123456789abcdef"), false),
            vec![("secret", SECRET_NOT_TAKEN)]
        );
        assert_eq!(
            errors(with("teams_webhook", "x"), false),
            vec![("secret", SECRET_NOT_TAKEN)]
        );
        assert!(
            validate_channel(with("slack", ""), false).is_ok(),
            "empty is no secret"
        );
        assert_eq!(
            errors(with("webhook", "fifteen-chars!!"), false),
            vec![("secret", SECRET_LENGTH)]
        );
        let longest: &'static str = Box::leak("s".repeat(256).into_boxed_str());
        assert!(validate_channel(with("webhook", longest), false).is_ok());
        let longer: &'static str = Box::leak("s".repeat(257).into_boxed_str());
        assert_eq!(
            errors(with("webhook", longer), false),
            vec![("secret", SECRET_LENGTH)]
        );
        assert_eq!(
            validate_channel(with("webhook", ""), false).unwrap().secret,
            None,
            "generated by the server"
        );
    }

    #[test]
    fn every_broken_rule_is_reported_at_once() {
        assert_eq!(
            errors(
                ChannelInput {
                    secret: Some("short"),
                    ..input("webhook", "", "http://example.com/")
                },
                true
            ),
            vec![
                ("name", NAME_REQUIRED),
                ("target", URL_INVALID),
                ("secret", SECRET_LENGTH),
            ]
        );
    }

    #[test]
    fn hints_show_the_address_or_the_scheme_and_host_only() {
        assert_eq!(
            target_hint(ChannelKind::Email, "ops@acme.test"),
            "ops@acme.test"
        );
        assert_eq!(
            target_hint(
                ChannelKind::Slack,
                "https://hooks.slack.com/services/T0/B0/secret-token"
            ),
            "https://hooks.slack.com/…"
        );
        assert_eq!(
            target_hint(
                ChannelKind::Webhook,
                "https://user:pw@hooks.acme.test/x?k=v"
            ),
            "https://hooks.acme.test/…"
        );
        assert_eq!(
            target_hint(ChannelKind::Webhook, "http://127.0.0.1:8080/hook"),
            "http://127.0.0.1:8080/…"
        );
        assert_eq!(
            target_hint(ChannelKind::TeamsWebhook, "http://[::1]:9/x"),
            "http://[::1]:9/…"
        );
    }

    #[test]
    fn messages_of_the_tenant_rules() {
        assert_eq!(name_taken("Ops"), "A channel named \"Ops\" already exists");
        assert_eq!(too_many_channels().field, "channels");
        assert_eq!(
            too_many_channels().message,
            "A tenant may have at most 20 channels"
        );
    }

    #[test]
    fn a_generated_secret_is_whsec_and_48_hex_digits() {
        let secret = generated_secret(&[0xab; 24]);
        assert_eq!(secret, format!("whsec_{}", "ab".repeat(24)));
        assert_eq!(secret.len(), 6 + 48);
        assert!(SECRET_CHARS.contains(&secret.len()));
    }

    #[test]
    fn kinds_parse_from_their_exact_names() {
        for kind in ChannelKind::ALL {
            assert_eq!(ChannelKind::parse(kind.as_str()), Some(kind));
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                serde_json::json!(kind.as_str())
            );
        }
        for kind in ChannelKind::CREATABLE {
            assert_eq!(ChannelKind::parse_creatable(kind.as_str()), Some(kind));
        }
        assert_eq!(ChannelKind::parse("teams"), Some(ChannelKind::Teams));
        assert_eq!(ChannelKind::parse_creatable("teams"), None);
        assert!(!ChannelKind::Email.takes_url());
        assert!(!ChannelKind::Teams.takes_url());
        assert!(ChannelKind::Webhook.takes_url());
    }
}
