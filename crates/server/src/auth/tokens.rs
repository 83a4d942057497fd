//! Access tokens (HS256 JWT, 15 minutes) and refresh tokens (random, stored as SHA-256).

use argon2::password_hash::rand_core::{OsRng, RngCore};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chrono::{DateTime, Duration, Utc};
use costscope_core::User;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub const ACCESS_TOKEN_SECONDS: i64 = 15 * 60;
pub const REFRESH_TOKEN_DAYS: i64 = 30;

/// The access token's claims: `sub` is the user id, `cid` the customer id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    pub sub: String,
    pub cid: i64,
    pub iat: i64,
    pub exp: i64,
}

impl Claims {
    pub fn user_id(&self) -> Option<i64> {
        self.sub.parse().ok()
    }
}

pub struct AccessTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl std::fmt::Debug for AccessTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AccessTokens([REDACTED])")
    }
}

impl AccessTokens {
    pub fn new(secret: &[u8]) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
        }
    }

    pub fn issue(&self, user: &User, now: DateTime<Utc>) -> anyhow::Result<String> {
        let claims = Claims {
            sub: user.id.to_string(),
            cid: user.customer_id,
            iat: now.timestamp(),
            exp: (now + Duration::seconds(ACCESS_TOKEN_SECONDS)).timestamp(),
        };
        Ok(jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &self.encoding,
        )?)
    }

    /// `None` for anything that is not a valid, unexpired token signed with our key.
    pub fn verify(&self, token: &str) -> Option<Claims> {
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .ok()
            .map(|data| data.claims)
    }
}

/// 32 random bytes, base64url: for refresh tokens and invitation links.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// What the store keeps instead of a token.
pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use costscope_core::{Role, UserStatus};

    use super::*;

    fn user() -> User {
        User {
            id: 7,
            customer_id: 3,
            name: "Ann Lee".into(),
            email: "ann@example.com".into(),
            role: Role::Owner,
            status: UserStatus::Active,
            created_at: Utc::now(),
        }
    }

    #[test]
    fn issued_token_verifies_with_user_and_customer() {
        let tokens = AccessTokens::new(b"secret");
        let claims = tokens
            .verify(&tokens.issue(&user(), Utc::now()).unwrap())
            .unwrap();
        assert_eq!((claims.user_id(), claims.cid), (Some(7), 3));
        assert_eq!(claims.exp - claims.iat, 900);
    }

    #[test]
    fn expired_or_foreign_tokens_are_refused() {
        let tokens = AccessTokens::new(b"secret");
        let expired = tokens
            .issue(&user(), Utc::now() - Duration::minutes(16))
            .unwrap();
        assert!(tokens.verify(&expired).is_none());
        let foreign = AccessTokens::new(b"other")
            .issue(&user(), Utc::now())
            .unwrap();
        assert!(tokens.verify(&foreign).is_none());
        assert!(tokens.verify("garbage").is_none());
    }

    #[test]
    fn random_tokens_are_32_bytes_and_hashes_are_sha256_hex() {
        let token = random_token();
        assert_eq!(URL_SAFE_NO_PAD.decode(&token).unwrap().len(), 32);
        assert_ne!(token, random_token());
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
