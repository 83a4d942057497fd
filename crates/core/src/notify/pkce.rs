//! Proof Key for Code Exchange (RFC 7636) with the `S256` method, as the Microsoft identity
//! platform's authorisation code flow takes it: the verifier stays on the server, the
//! challenge goes into the authorisation URL, the verifier into the code's redemption.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

/// The only challenge method Costscope sends.
pub const CHALLENGE_METHOD: &str = "S256";

/// The verifier of 32 random bytes (which the caller draws from the OS): their base64url
/// encoding without padding, 43 characters of `[A-Za-z0-9-_]` (RFC 7636 §4.1).
pub fn verifier(random: &[u8; 32]) -> String {
    URL_SAFE_NO_PAD.encode(random)
}

/// `BASE64URL(SHA256(verifier))` without padding (RFC 7636 §4.2, `S256`).
pub fn challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Whether `verifier` answers `challenge` (what the identity platform checks).
pub fn verifies(verifier: &str, challenge: &str) -> bool {
    self::challenge(verifier) == challenge
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 7636 Appendix B.
    const RFC_OCTETS: [u8; 32] = [
        116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37,
        77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ];
    const RFC_VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const RFC_CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    #[test]
    fn the_verifier_and_challenge_of_rfc_7636_appendix_b() {
        assert_eq!(verifier(&RFC_OCTETS), RFC_VERIFIER);
        assert_eq!(challenge(RFC_VERIFIER), RFC_CHALLENGE);
        assert!(verifies(RFC_VERIFIER, RFC_CHALLENGE));
        assert!(!verifies(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj",
            RFC_CHALLENGE
        ));
    }

    #[test]
    fn a_verifier_is_43_unreserved_characters() {
        let verifier = verifier(&[0xff; 32]);
        assert_eq!(verifier.len(), 43);
        assert!(verifier
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    }
}
