//! The service-account JSON key a GCP connection is made with.

use std::fmt;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::Value;

/// The spec's message for a key file that is not readable JSON (the web shows it; the server
/// answers it with 422).
pub const INVALID_KEY_FILE: &str =
    "Invalid JSON file. Please upload a valid service account key file.";

/// Why a key file is not a usable service-account key. The message names what is wrong and
/// never quotes the private key.
#[derive(Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// Not JSON at all (or empty): the spec's own message, [`INVALID_KEY_FILE`].
    #[error("{}", INVALID_KEY_FILE)]
    NotJson,
    /// JSON, but not an object.
    #[error("The key file is not a service account key: it is not a JSON object")]
    NotAnObject,
    /// `type` is something else (`authorized_user`, `external_account`, …).
    #[error("The key file is not a service account key: \"type\" is {found}")]
    NotServiceAccount { found: String },
    /// A required field is absent, empty or not text.
    #[error("The key file has no \"{0}\"")]
    Missing(&'static str),
    /// `private_key` is not an RSA private key in PEM form.
    #[error("The key file's \"private_key\" is not an RSA private key in PEM form")]
    InvalidPrivateKey,
    /// `client_email` is not an email address.
    #[error("The key file's \"client_email\" is not an email address")]
    InvalidClientEmail,
    /// `token_uri` is not an http(s) URL.
    #[error("The key file's \"token_uri\" is not an http or https URL")]
    InvalidTokenUri,
}

impl fmt::Debug for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyError({self})")
    }
}

/// A parsed service-account key: the identity (`client_email`), the key id and the RSA key
/// that signs OAuth2 JWT-bearer assertions, and the token endpoint they go to.
#[derive(Clone)]
pub struct ServiceAccountKey {
    project_id: String,
    private_key_id: String,
    client_email: String,
    token_uri: String,
    signing_key: EncodingKey,
}

impl fmt::Debug for ServiceAccountKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServiceAccountKey")
            .field("project_id", &self.project_id)
            .field("private_key_id", &self.private_key_id)
            .field("client_email", &self.client_email)
            .field("token_uri", &self.token_uri)
            .field("private_key", &"[redacted]")
            .finish()
    }
}

impl ServiceAccountKey {
    /// Reads a key file as Google issues it (`type` `service_account`, `project_id`,
    /// `private_key_id`, `private_key`, `client_email`, `token_uri`, …). The private key must
    /// be an RSA PEM that really signs.
    pub fn parse(json: &str) -> Result<Self, KeyError> {
        let value: Value = serde_json::from_str(json.trim_start_matches('\u{feff}'))
            .map_err(|_| KeyError::NotJson)?;
        let object = value.as_object().ok_or(KeyError::NotAnObject)?;
        match object.get("type") {
            None | Some(Value::Null) => return Err(KeyError::Missing("type")),
            Some(Value::String(kind)) if kind == "service_account" => {}
            Some(other) => {
                return Err(KeyError::NotServiceAccount {
                    found: shown_value(other),
                })
            }
        }
        let text = |name: &'static str| -> Result<String, KeyError> {
            match object.get(name) {
                Some(Value::String(value)) if !value.trim().is_empty() => {
                    Ok(value.trim().to_owned())
                }
                _ => Err(KeyError::Missing(name)),
            }
        };
        let project_id = text("project_id")?;
        let private_key_id = text("private_key_id")?;
        let private_key = text("private_key")?;
        let client_email = text("client_email")?;
        let token_uri = text("token_uri")?;
        let signing_key = signing_key(&private_key)?;
        if !plausible_email(&client_email) {
            return Err(KeyError::InvalidClientEmail);
        }
        match reqwest::Url::parse(&token_uri) {
            Ok(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {}
            _ => return Err(KeyError::InvalidTokenUri),
        }
        Ok(Self {
            project_id,
            private_key_id,
            client_email,
            token_uri,
            signing_key,
        })
    }

    /// The project the service account belongs to.
    pub fn project_id(&self) -> &str {
        &self.project_id
    }

    pub fn private_key_id(&self) -> &str {
        &self.private_key_id
    }

    /// The service account's identity, e.g. `costscope@my-project.iam.gserviceaccount.com`.
    pub fn client_email(&self) -> &str {
        &self.client_email
    }

    /// Where the OAuth2 JWT-bearer assertion is exchanged for an access token.
    pub fn token_uri(&self) -> &str {
        &self.token_uri
    }

    /// A signed RS256 JWT with this key (its `kid` the key's id).
    pub(crate) fn sign<T: serde::Serialize>(&self, claims: &T) -> Result<String, KeyError> {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(self.private_key_id.clone());
        jsonwebtoken::encode(&header, claims, &self.signing_key)
            .map_err(|_| KeyError::InvalidPrivateKey)
    }
}

/// The key, checked by signing a message with it (ring checks the key's structure then).
fn signing_key(pem: &str) -> Result<EncodingKey, KeyError> {
    // A key pasted through some tools keeps `\n` escaped.
    let pem = if pem.contains("\\n") && !pem.contains('\n') {
        pem.replace("\\n", "\n")
    } else {
        pem.to_owned()
    };
    let key = EncodingKey::from_rsa_pem(pem.as_bytes()).map_err(|_| KeyError::InvalidPrivateKey)?;
    jsonwebtoken::crypto::sign(b"costscope key check", &key, Algorithm::RS256)
        .map_err(|_| KeyError::InvalidPrivateKey)?;
    Ok(key)
}

fn plausible_email(email: &str) -> bool {
    match email.split_once('@') {
        Some((user, domain)) => {
            !user.is_empty()
                && domain.contains('.')
                && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        }
        None => false,
    }
}

/// A short, quoted rendering of an unexpected `type` value.
fn shown_value(value: &Value) -> String {
    let shown = match value {
        Value::String(text) => serde_json::to_string(text).unwrap_or_default(),
        other => other.to_string(),
    };
    if shown.chars().count() > 60 {
        let cut: String = shown.chars().take(57).collect();
        format!("{cut}…")
    } else {
        shown
    }
}
