//! argon2id password hashes (PHC strings), computed off the async runtime.

use anyhow::Context;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher as _, PasswordVerifier as _, SaltString};
use argon2::Argon2;
use costscope_core::Password;

pub async fn hash_password(password: &Password) -> anyhow::Result<String> {
    let password = password.expose().to_owned();
    tokio::task::spawn_blocking(move || hash_blocking(&password))
        .await
        .context("password hashing task")?
}

fn hash_blocking(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    let hash = Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))?;
    Ok(hash.to_string())
}

/// Checks candidate passwords. Users without a password (pending) are checked against a
/// dummy hash so that every failed sign-in costs the same time.
#[derive(Debug, Clone)]
pub struct PasswordChecker {
    dummy_hash: String,
}

impl PasswordChecker {
    pub async fn new() -> anyhow::Result<Self> {
        let dummy =
            tokio::task::spawn_blocking(|| hash_blocking("costscope-timing-dummy")).await??;
        Ok(Self { dummy_hash: dummy })
    }

    pub async fn verify(&self, stored_hash: Option<&str>, candidate: &str) -> anyhow::Result<bool> {
        let known = stored_hash.is_some();
        let hash = stored_hash.unwrap_or(&self.dummy_hash).to_owned();
        let candidate = candidate.to_owned();
        let matches = tokio::task::spawn_blocking(move || {
            let parsed = PasswordHash::new(&hash)
                .map_err(|e| anyhow::anyhow!("stored password hash is invalid: {e}"))?;
            anyhow::Ok(
                Argon2::default()
                    .verify_password(candidate.as_bytes(), &parsed)
                    .is_ok(),
            )
        })
        .await
        .context("password verification task")??;
        Ok(known && matches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let checker = PasswordChecker::new().await.unwrap();
        let hash = hash_password(&Password::parse("correct horse").unwrap())
            .await
            .unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(checker.verify(Some(&hash), "correct horse").await.unwrap());
        assert!(!checker.verify(Some(&hash), "wrong horse").await.unwrap());
    }

    #[tokio::test]
    async fn a_user_without_password_never_verifies() {
        let checker = PasswordChecker::new().await.unwrap();
        assert!(!checker
            .verify(None, "costscope-timing-dummy")
            .await
            .unwrap());
    }
}
