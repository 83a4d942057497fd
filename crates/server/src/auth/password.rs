//! argon2id password hashes (PHC strings), computed off the async runtime, at most one per
//! core at a time: each takes ~19 MiB and a core for a while, so a burst of sign-ins waits its
//! turn instead of exhausting memory and the blocking thread pool.

use std::sync::OnceLock;

use anyhow::Context;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher as _, PasswordVerifier as _, SaltString};
use argon2::Argon2;
use costscope_core::Password;
use tokio::sync::Semaphore;

/// Password hashes computed at once, process-wide (sign-in, sign-up, invitations, CLI).
pub fn concurrent_hashes() -> usize {
    std::thread::available_parallelism().map_or(2, |cores| cores.get())
}

fn hash_permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| Semaphore::new(concurrent_hashes()))
}

/// Runs one argon2 computation on the blocking pool once a permit is free.
async fn run_hash<T: Send + 'static>(
    work: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
) -> anyhow::Result<T> {
    let _permit = hash_permits()
        .acquire()
        .await
        .context("password hashing permits")?;
    tokio::task::spawn_blocking(work)
        .await
        .context("password hashing task")?
}

pub async fn hash_password(password: &Password) -> anyhow::Result<String> {
    let password = password.expose().to_owned();
    run_hash(move || hash_blocking(&password)).await
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
        let matches = run_hash(move || {
            let parsed = PasswordHash::new(&hash)
                .map_err(|e| anyhow::anyhow!("stored password hash is invalid: {e}"))?;
            anyhow::Ok(
                Argon2::default()
                    .verify_password(candidate.as_bytes(), &parsed)
                    .is_ok(),
            )
        })
        .await?;
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

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn no_more_hashes_run_at_once_than_there_are_permits() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let tasks = (0..concurrent_hashes() * 3).map(|_| {
            let (running, peak) = (running.clone(), peak.clone());
            tokio::spawn(run_hash(move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(20));
                running.fetch_sub(1, Ordering::SeqCst);
                Ok(())
            }))
        });
        for task in tasks.collect::<Vec<_>>() {
            task.await.unwrap().unwrap();
        }
        assert!(peak.load(Ordering::SeqCst) <= concurrent_hashes());
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
