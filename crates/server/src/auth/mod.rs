//! Passwords, tokens, sessions and the throttling of the auth routes.

pub mod client_address;
pub mod cookie;
pub mod password;
pub mod rate_limit;
pub mod secret;
pub mod tokens;
