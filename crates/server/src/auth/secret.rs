//! The access-token signing key: from configuration, or generated once into the data dir.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use secrecy::{ExposeSecret, SecretString};

pub const SECRET_FILE: &str = "auth-secret.key";

/// HS256 keys shorter than the hash output (32 bytes) weaken the signature.
pub const MIN_SECRET_BYTES: usize = 32;

pub fn load_or_create(
    configured: Option<&SecretString>,
    data_dir: &Path,
) -> anyhow::Result<SecretString> {
    if let Some(secret) = configured {
        let length = secret.expose_secret().len();
        anyhow::ensure!(
            length >= MIN_SECRET_BYTES,
            "the configured auth secret has {length} bytes; it needs at least {MIN_SECRET_BYTES} \
             (generate one with `openssl rand -base64 48`)"
        );
        return Ok(secret.clone());
    }
    let path = data_dir.join(SECRET_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) if !text.trim().is_empty() => {
            return Ok(SecretString::from(text.trim().to_owned()))
        }
        Ok(_) => anyhow::bail!("{} is empty", path.display()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => return Err(err).with_context(|| format!("reading {}", path.display())),
    }
    let secret = super::tokens::random_token();
    let mut file =
        owner_only_file(&path).with_context(|| format!("creating {}", path.display()))?;
    file.write_all(secret.as_bytes())?;
    tracing::info!(path = %path.display(), "generated a new auth secret");
    Ok(SecretString::from(secret))
}

/// The keys this server generates into its own data directory although its metadata is on
/// PostgreSQL, where other replicas may share it. Replicas must share both keys (the same
/// `auth_secret` and `secrets_key`, e.g. through `COSTSCOPE_AUTH_SECRET_FILE` and
/// `COSTSCOPE_SECRETS_KEY_FILE`), or one refuses the access tokens and stored secrets of another.
pub fn unshared_keys(config: &crate::config::Config) -> Vec<&'static str> {
    if !config.database_url.expose_secret().starts_with("postgres") {
        return Vec::new();
    }
    let mut keys = Vec::new();
    if config.auth_secret.is_none() {
        keys.push("auth_secret (COSTSCOPE_AUTH_SECRET_FILE)");
    }
    if config.secrets_key.is_none() {
        keys.push("secrets_key (COSTSCOPE_SECRETS_KEY_FILE)");
    }
    keys
}

/// Creates `path` (it must not exist) readable and writable by the owner only (0600 on Unix).
#[cfg(unix)]
pub(crate) fn owner_only_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
pub(crate) fn owner_only_file(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_secret_is_reused_and_private() {
        let dir = tempfile::tempdir().unwrap();
        let first = load_or_create(None, dir.path()).unwrap();
        let second = load_or_create(None, dir.path()).unwrap();
        assert_eq!(first.expose_secret(), second.expose_secret());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(SECRET_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn keys_generated_beside_a_shared_database_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = crate::config::Config::with_data_dir(dir.path());
        assert!(unshared_keys(&config).is_empty(), "SQLite is one process's");
        config.database_url = SecretString::from("postgres://db.internal/costscope");
        assert_eq!(
            unshared_keys(&config),
            [
                "auth_secret (COSTSCOPE_AUTH_SECRET_FILE)",
                "secrets_key (COSTSCOPE_SECRETS_KEY_FILE)"
            ]
        );
        config.auth_secret = Some(SecretString::from("x".repeat(32)));
        config.secrets_key = Some(SecretString::from("y".repeat(32)));
        assert!(unshared_keys(&config).is_empty());
    }

    #[test]
    fn configured_secret_wins() {
        let dir = tempfile::tempdir().unwrap();
        let configured = "configured-secret-of-thirty-two-bytes";
        let secret = load_or_create(Some(&SecretString::from(configured)), dir.path()).unwrap();
        assert_eq!(secret.expose_secret(), configured);
        assert!(!dir.path().join(SECRET_FILE).exists());
    }

    #[test]
    fn a_configured_secret_shorter_than_32_bytes_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error = load_or_create(Some(&SecretString::from("short")), dir.path()).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("has 5 bytes; it needs at least 32"),
            "{error}"
        );
        let exactly = "x".repeat(32);
        assert!(load_or_create(Some(&SecretString::from(exactly)), dir.path()).is_ok());
    }
}
