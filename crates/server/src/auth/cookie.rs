//! The refresh token's cookie: `HttpOnly` (page scripts never see it), `Secure`,
//! `SameSite=Strict` (never sent by another site's page) and scoped to `/v1/auth`, where
//! `refresh` and `logout` read it; no other route receives it.

use axum::http::{header, HeaderMap, HeaderValue};

use super::tokens::REFRESH_TOKEN_DAYS;

pub const REFRESH_COOKIE: &str = "costscope_refresh";
pub const REFRESH_COOKIE_PATH: &str = "/v1/auth";

/// `Set-Cookie` carrying `token` for the refresh token's lifetime.
pub fn refresh_cookie(token: &str) -> HeaderValue {
    let max_age = REFRESH_TOKEN_DAYS * 24 * 60 * 60;
    HeaderValue::from_str(&format!(
        "{REFRESH_COOKIE}={token}; Path={REFRESH_COOKIE_PATH}; Max-Age={max_age}; HttpOnly; Secure; SameSite=Strict"
    ))
    .expect("a base64url token is a valid header value")
}

/// `Set-Cookie` that makes the browser forget the refresh token.
pub fn cleared_refresh_cookie() -> HeaderValue {
    HeaderValue::from_static(
        "costscope_refresh=; Path=/v1/auth; Max-Age=0; HttpOnly; Secure; SameSite=Strict",
    )
}

/// The refresh token from the request's `Cookie` headers.
pub fn refresh_token_from(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == REFRESH_COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_http_only_secure_strict_and_scoped() {
        let cookie = refresh_cookie("abc");
        let text = cookie.to_str().unwrap();
        assert!(text.starts_with("costscope_refresh=abc; Path=/v1/auth; Max-Age=2592000;"));
        for attribute in ["HttpOnly", "Secure", "SameSite=Strict"] {
            assert!(text.contains(attribute), "{text}");
        }
        assert!(cleared_refresh_cookie()
            .to_str()
            .unwrap()
            .contains("Max-Age=0"));
    }

    #[test]
    fn the_token_is_read_among_other_cookies() {
        let mut headers = HeaderMap::new();
        headers.append(header::COOKIE, HeaderValue::from_static("theme=dark"));
        headers.append(
            header::COOKIE,
            HeaderValue::from_static("a=1; costscope_refresh=tok-en_1; b=2"),
        );
        assert_eq!(refresh_token_from(&headers).as_deref(), Some("tok-en_1"));
        assert_eq!(refresh_token_from(&HeaderMap::new()), None);
    }
}
