//! Passwords, tokens, sessions and sign-in throttling.

pub mod password;
pub mod rate_limit;
pub mod secret;
pub mod tokens;
