//! The signature of a webhook body (docs/NOTIFICATIONS.md "Signed webhooks"):
//! `X-Costscope-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`, with
//! `X-Costscope-Timestamp: <timestamp>` in Unix seconds. Signing the timestamp with the body
//! lets a receiver refuse replays older than [`REPLAY_WINDOW_SECONDS`].

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const EVENT_HEADER: &str = "X-Costscope-Event";
pub const DELIVERY_HEADER: &str = "X-Costscope-Delivery";
pub const TIMESTAMP_HEADER: &str = "X-Costscope-Timestamp";
pub const SIGNATURE_HEADER: &str = "X-Costscope-Signature";
/// A receiver refuses timestamps further than this from its own clock, either way.
pub const REPLAY_WINDOW_SECONDS: i64 = 5 * 60;
const PREFIX: &str = "sha256=";

type HmacSha256 = Hmac<Sha256>;

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> HmacSha256 {
    let mut mac =
        HmacSha256::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The `X-Costscope-Signature` value of `body` sent at `timestamp`.
pub fn sign(secret: &str, timestamp: i64, body: &[u8]) -> String {
    format!(
        "{PREFIX}{}",
        hex::encode(mac(secret, timestamp, body).finalize().into_bytes())
    )
}

/// Why a receiver refuses a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the signature does not match the body")]
    Mismatch,
    #[error("the timestamp is outside the replay window")]
    Stale,
}

/// What a receiver does (the reference for the documentation): the signature recomputed over
/// the raw body and compared in constant time, then the timestamp within
/// [`REPLAY_WINDOW_SECONDS`] of `now` (Unix seconds).
pub fn verify(
    secret: &str,
    timestamp: i64,
    body: &[u8],
    signature: &str,
    now: i64,
) -> Result<(), VerifyError> {
    let expected = signature
        .strip_prefix(PREFIX)
        .and_then(|digits| hex::decode(digits).ok())
        .ok_or(VerifyError::Mismatch)?;
    mac(secret, timestamp, body)
        .verify_slice(&expected)
        .map_err(|_| VerifyError::Mismatch)?;
    if (now - timestamp).abs() > REPLAY_WINDOW_SECONDS {
        return Err(VerifyError::Stale);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_hmac_sha256_of_timestamp_dot_body() {
        // The HMAC (checked against RFC 4231 below) of the whole "timestamp.body" message.
        let signature = sign("Jefe", 1795689602, b"{\"id\":1}");
        assert!(signature.starts_with("sha256="));
        assert_eq!(signature.len(), 7 + 64);
        let mut reference = HmacSha256::new_from_slice(b"Jefe").unwrap();
        reference.update(b"1795689602.{\"id\":1}");
        assert_eq!(
            signature,
            format!("sha256={}", hex::encode(reference.finalize().into_bytes()))
        );
    }

    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        let mut mac = HmacSha256::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(mac.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_receiver_accepts_the_signed_body_in_the_window_only() {
        let body = br#"{"id":1842,"event":"budget_alert"}"#;
        let at = 1_795_689_602;
        let signature = sign("whsec_0123456789abcdef", at, body);
        assert_eq!(
            verify("whsec_0123456789abcdef", at, body, &signature, at + 299),
            Ok(())
        );
        assert_eq!(
            verify("whsec_0123456789abcdef", at, body, &signature, at - 300),
            Ok(())
        );
        assert_eq!(
            verify("whsec_0123456789abcdef", at, body, &signature, at + 301),
            Err(VerifyError::Stale)
        );
        assert_eq!(
            verify("another-secret-value", at, body, &signature, at),
            Err(VerifyError::Mismatch)
        );
        assert_eq!(
            verify("whsec_0123456789abcdef", at + 1, body, &signature, at),
            Err(VerifyError::Mismatch),
            "the timestamp is signed"
        );
        assert_eq!(
            verify("whsec_0123456789abcdef", at, b"{}", &signature, at),
            Err(VerifyError::Mismatch)
        );
        assert_eq!(
            verify("whsec_0123456789abcdef", at, body, "sha1=00", at),
            Err(VerifyError::Mismatch)
        );
    }
}
