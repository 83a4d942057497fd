//! The embedded web app (`web/dist`), with client-side routes falling back to `index.html`.
//!
//! `npm run build` writes `<file>.br` (brotli) and `<file>.gz` (gzip) beside every text file
//! over 1 KiB (web/scripts/precompress.mjs); a request whose `Accept-Encoding` allows one of them
//! gets it with `Content-Encoding` (brotli preferred), so nothing is compressed per request.

use axum::body::Body;
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rust_embed::Embed;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use super::error::ErrorBody;

#[derive(Embed)]
#[folder = "../../web/dist/"]
#[allow_missing = true]
struct WebApp;

const NOT_BUILT: &str = "The web app has not been built: run `make run`";

/// Fallback for every path no route matched.
pub async fn fallback(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    let is_api = ["/v1", "/v2"]
        .iter()
        .any(|prefix| path == *prefix || path.starts_with(&format!("{prefix}/")));
    if is_api || !(method == Method::GET || method == Method::HEAD) {
        return json_not_found();
    }
    let file = path.trim_start_matches('/');
    let accepted = AcceptedEncodings::of(&headers);
    if !is_precompressed_variant(file) {
        if let Some(response) = embedded(file, accepted) {
            return response;
        }
    }
    if file.starts_with("assets/") {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    }
    embedded("index.html", accepted)
        .unwrap_or_else(|| (StatusCode::SERVICE_UNAVAILABLE, NOT_BUILT).into_response())
}

/// The precompressed variants, in the order they are preferred: (file suffix, `Content-Encoding`).
const VARIANTS: [(&str, &str); 2] = [(".br", "br"), (".gz", "gzip")];

/// `x.js.br` or `x.js.gz` beside an `x.js`: only ever served as `x.js`, never as a file of its own.
fn is_precompressed_variant(file: &str) -> bool {
    VARIANTS.iter().any(|(suffix, _)| {
        file.strip_suffix(suffix)
            .is_some_and(|original| !original.is_empty() && asset_exists(original))
    })
}

/// Which of the precompressed encodings a request's `Accept-Encoding` allows (RFC 9110 §12.5.3:
/// a coding is acceptable when listed, or covered by `*`, with a q-value above 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct AcceptedEncodings {
    br: bool,
    gzip: bool,
}

impl AcceptedEncodings {
    fn of(headers: &HeaderMap) -> Self {
        let mut br = None;
        let mut gzip = None;
        let mut any = None;
        let values = headers
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|value| value.to_str().ok());
        for item in values.flat_map(|value| value.split(',')) {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let mut quality = Some(1.0_f32);
            for parameter in parts {
                if let Some((name, value)) = parameter.split_once('=') {
                    if name.trim().eq_ignore_ascii_case("q") {
                        quality = value
                            .trim()
                            .parse::<f32>()
                            .ok()
                            .filter(|q| (0.0..=1.0).contains(q));
                    }
                }
            }
            // A malformed q-value makes the item unusable rather than acceptable.
            let Some(quality) = quality else { continue };
            let acceptable = quality > 0.0;
            match coding.as_str() {
                "br" => br = Some(acceptable),
                "gzip" | "x-gzip" => gzip = Some(gzip.unwrap_or(false) || acceptable),
                "*" => any = Some(acceptable),
                _ => {}
            }
        }
        let any = any.unwrap_or(false);
        Self {
            br: br.unwrap_or(any),
            gzip: gzip.unwrap_or(any),
        }
    }

    fn allows(self, encoding: &str) -> bool {
        match encoding {
            "br" => self.br,
            "gzip" => self.gzip,
            _ => false,
        }
    }
}

fn json_not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(ErrorBody {
            message: "Not found".to_owned(),
            details: None,
        }),
    )
        .into_response()
}

/// For web development: `COSTSCOPE_WEB_DIR=web/dist` serves a freshly built app from disk
/// instead of the copy embedded at compile time, so a `vite build` needs no cargo rebuild.
fn web_dir_override() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| std::env::var_os("COSTSCOPE_WEB_DIR").map(PathBuf::from))
        .as_deref()
}

/// Only plain relative names: no `..`, no absolute paths out of the override directory.
fn override_path(dir: &Path, file: &str) -> Option<PathBuf> {
    let relative = Path::new(file);
    let plain = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    plain.then(|| dir.join(relative))
}

fn asset_bytes(file: &str) -> Option<Vec<u8>> {
    match web_dir_override() {
        Some(dir) => std::fs::read(override_path(dir, file)?).ok(),
        None => WebApp::get(file).map(|asset| asset.data.into_owned()),
    }
}

fn asset_exists(file: &str) -> bool {
    match web_dir_override() {
        Some(dir) => override_path(dir, file).is_some_and(|path| path.is_file()),
        None => WebApp::get(file).is_some(),
    }
}

fn embedded(file: &str, accepted: AcceptedEncodings) -> Option<Response> {
    if file.is_empty() || !asset_exists(file) {
        return None;
    }
    let mime = mime_guess::from_path(file).first_or_octet_stream();
    // Vite puts content hashes into the names under assets/, so they never change.
    let cache = if file.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    // Built with variants, the file's answer depends on Accept-Encoding even when it is identity.
    let has_variants = VARIANTS
        .iter()
        .any(|(suffix, _)| asset_exists(&format!("{file}{suffix}")));
    let chosen = VARIANTS.iter().find_map(|(suffix, encoding)| {
        if !accepted.allows(encoding) {
            return None;
        }
        asset_bytes(&format!("{file}{suffix}")).map(|bytes| (bytes, *encoding))
    });
    let mut response = Response::builder()
        .header(header::CONTENT_TYPE, mime.as_ref())
        .header(header::CACHE_CONTROL, cache);
    if has_variants {
        response = response.header(header::VARY, "accept-encoding");
    }
    let bytes = match chosen {
        Some((bytes, encoding)) => {
            response = response.header(header::CONTENT_ENCODING, encoding);
            bytes
        }
        None => asset_bytes(file)?,
    };
    response
        .header(header::CONTENT_LENGTH, bytes.len())
        .body(Body::from(bytes))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn accepted(value: &str) -> AcceptedEncodings {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        AcceptedEncodings::of(&headers)
    }

    #[test]
    fn accept_encoding_is_read_with_q_values_and_wildcards() {
        let both = AcceptedEncodings {
            br: true,
            gzip: true,
        };
        let only_gzip = AcceptedEncodings {
            br: false,
            gzip: true,
        };
        let only_br = AcceptedEncodings {
            br: true,
            gzip: false,
        };
        let none = AcceptedEncodings::default();
        assert_eq!(accepted("gzip, deflate, br, zstd"), both);
        assert_eq!(accepted("GZIP"), only_gzip);
        assert_eq!(accepted("x-gzip"), only_gzip);
        assert_eq!(accepted("br;q=0.5"), only_br);
        assert_eq!(accepted("br;q=0, gzip;q=1.0"), only_gzip);
        assert_eq!(accepted("br ; q=0.000"), none);
        assert_eq!(accepted("*"), both);
        assert_eq!(accepted("*;q=0"), none);
        assert_eq!(accepted("*, br;q=0"), only_gzip);
        assert_eq!(accepted("identity"), none);
        assert_eq!(accepted("br;q=2, gzip;q=abc"), none);
        assert_eq!(AcceptedEncodings::of(&HeaderMap::new()), none);
    }
}
