//! Connection secrets at rest (DESIGN §3): a GCP service-account key, an Azure SAS token or
//! client secret is stored as `v1:` + base64(nonce ‖ AES-256-GCM ciphertext). The key comes
//! from configuration (`secrets_key`, `COSTSCOPE_SECRETS_KEY`, `…_FILE`: any text of 32 bytes
//! or more, stretched by SHA-256) or is generated once into `<data-dir>/secrets.key`.
//!
//! Rotation: decrypting tries the current key, then `previous` keys (`secrets.key.previous`
//! lines); re-saving a connection re-encrypts with the current key.

use std::io::Write;
use std::path::Path;

use aes_gcm::aead::{Aead, KeyInit, OsRng};
use aes_gcm::{AeadCore, Aes256Gcm, Key, Nonce};
use anyhow::Context;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};

use crate::auth::secret::owner_only_file;

pub const SECRETS_KEY_FILE: &str = "secrets.key";
/// Former keys, one per line, still accepted for decrypting (see the module docs).
pub const PREVIOUS_KEYS_FILE: &str = "secrets.key.previous";
const MIN_KEY_BYTES: usize = 32;
const PREFIX: &str = "v1:";
const NONCE_BYTES: usize = 12;

/// Encrypts and decrypts stored secrets. Cheap to share; never prints its keys.
#[derive(Clone)]
pub struct SecretBox {
    current: Aes256Gcm,
    previous: Vec<Aes256Gcm>,
}

impl std::fmt::Debug for SecretBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretBox(..)")
    }
}

/// A stored secret could not be decrypted (another key, or a damaged value).
#[derive(Debug, thiserror::Error)]
#[error("the stored secret cannot be decrypted with the configured secrets key")]
pub struct UndecryptableSecret;

impl SecretBox {
    /// From key texts (each stretched by SHA-256 to 256 bits).
    pub fn new(current: &str, previous: &[&str]) -> Self {
        Self {
            current: cipher(current),
            previous: previous.iter().map(|key| cipher(key)).collect(),
        }
    }

    /// The configured key, else the data dir's (created on first use), plus the former keys
    /// listed in `<data-dir>/secrets.key.previous`.
    pub fn load_or_create(
        configured: Option<&SecretString>,
        data_dir: &Path,
    ) -> anyhow::Result<Self> {
        let current = match configured {
            Some(key) => {
                let length = key.expose_secret().len();
                anyhow::ensure!(
                    length >= MIN_KEY_BYTES,
                    "the configured secrets key has {length} bytes; it needs at least \
                     {MIN_KEY_BYTES} (generate one with `openssl rand -base64 48`)"
                );
                key.expose_secret().to_owned()
            }
            None => read_or_generate(&data_dir.join(SECRETS_KEY_FILE))?,
        };
        let previous_path = data_dir.join(PREVIOUS_KEYS_FILE);
        let previous = match std::fs::read_to_string(&previous_path) {
            Ok(text) => text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect(),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(err) => {
                return Err(err).with_context(|| format!("reading {}", previous_path.display()))
            }
        };
        let previous: Vec<&str> = previous.iter().map(String::as_str).collect();
        Ok(Self::new(&current, &previous))
    }

    pub fn encrypt(&self, plaintext: &str) -> String {
        let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
        let ciphertext = self
            .current
            .encrypt(&nonce, plaintext.as_bytes())
            .expect("AES-GCM encrypts any length we store");
        let mut sealed = nonce.to_vec();
        sealed.extend_from_slice(&ciphertext);
        format!("{PREFIX}{}", STANDARD.encode(sealed))
    }

    pub fn decrypt(&self, stored: &str) -> Result<String, UndecryptableSecret> {
        let sealed = stored
            .strip_prefix(PREFIX)
            .and_then(|body| STANDARD.decode(body).ok())
            .filter(|sealed| sealed.len() > NONCE_BYTES)
            .ok_or(UndecryptableSecret)?;
        let (nonce, ciphertext) = sealed.split_at(NONCE_BYTES);
        let nonce = Nonce::from_slice(nonce);
        std::iter::once(&self.current)
            .chain(&self.previous)
            .find_map(|key| key.decrypt(nonce, ciphertext).ok())
            .and_then(|plain| String::from_utf8(plain).ok())
            .ok_or(UndecryptableSecret)
    }
}

fn cipher(key_text: &str) -> Aes256Gcm {
    let digest = Sha256::digest(key_text.as_bytes());
    Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(&digest))
}

fn read_or_generate(path: &Path) -> anyhow::Result<String> {
    match std::fs::read_to_string(path) {
        Ok(text) if !text.trim().is_empty() => return Ok(text.trim().to_owned()),
        Ok(_) => anyhow::bail!("{} is empty", path.display()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => return Err(err).with_context(|| format!("reading {}", path.display())),
    }
    let key = crate::auth::tokens::random_token();
    let mut file = owner_only_file(path).with_context(|| format!("creating {}", path.display()))?;
    file.write_all(key.as_bytes())?;
    tracing::info!(path = %path.display(), "generated a new secrets key");
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "0123456789abcdef0123456789abcdef-current";
    const OLD: &str = "0123456789abcdef0123456789abcdef-previous";

    #[test]
    fn round_trips_and_hides_the_plaintext() {
        let secrets = SecretBox::new(KEY, &[]);
        let stored = secrets.encrypt("{\"private_key\": \"-----BEGIN PRIVATE KEY-----\"}");
        assert!(stored.starts_with("v1:"));
        assert!(!stored.contains("PRIVATE"));
        assert_ne!(
            stored,
            secrets.encrypt("{\"private_key\": \"-----BEGIN PRIVATE KEY-----\"}")
        );
        assert_eq!(
            secrets.decrypt(&stored).unwrap(),
            "{\"private_key\": \"-----BEGIN PRIVATE KEY-----\"}"
        );
    }

    #[test]
    fn another_key_or_a_damaged_value_is_refused() {
        let stored = SecretBox::new(KEY, &[]).encrypt("sas-token");
        assert!(SecretBox::new(OLD, &[]).decrypt(&stored).is_err());
        let mut damaged = stored.clone();
        damaged.pop();
        damaged.push('A');
        assert!(SecretBox::new(KEY, &[]).decrypt(&damaged).is_err());
        assert!(SecretBox::new(KEY, &[]).decrypt("plain text").is_err());
    }

    #[test]
    fn a_rotated_key_still_reads_what_the_previous_one_wrote() {
        let stored = SecretBox::new(OLD, &[]).encrypt("client-secret");
        let rotated = SecretBox::new(KEY, &[OLD]);
        assert_eq!(rotated.decrypt(&stored).unwrap(), "client-secret");
        assert!(rotated.encrypt("x") != stored);
    }

    #[test]
    fn the_generated_key_is_kept_in_the_data_dir() {
        let dir = tempfile::tempdir().unwrap();
        let first = SecretBox::load_or_create(None, dir.path()).unwrap();
        let stored = first.encrypt("key-file");
        let again = SecretBox::load_or_create(None, dir.path()).unwrap();
        assert_eq!(again.decrypt(&stored).unwrap(), "key-file");
        let short = SecretString::from("too short".to_owned());
        assert!(SecretBox::load_or_create(Some(&short), dir.path()).is_err());
    }
}
