//! The few Blob service REST calls the export reader makes: List Blobs (paged by `NextMarker`)
//! and Get Blob (streamed), authorised by a SAS token in the query or an OAuth2 bearer token,
//! with Azure's error codes turned into words a person can act on.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures_util::StreamExt;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use reqwest::{StatusCode, Url};
use tokio::io::AsyncWriteExt;

use super::token::TokenSource;
use crate::SourceError;

/// The Blob service version every request asks for.
pub(crate) const API_VERSION: &str = "2021-12-02";

/// What a path segment or a query value keeps unencoded.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The largest manifest read into memory.
const MAX_MANIFEST_BYTES: usize = 16 * 1024 * 1024;

const ATTEMPTS: u32 = 3;

/// A secret kept out of `Debug`.
#[derive(Clone)]
pub(crate) struct Secret(pub(crate) String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

pub(crate) enum Credentials {
    /// The SAS token's query string (without `?`).
    Sas(Secret),
    Bearer(Box<TokenSource>),
}

impl Credentials {
    /// Accepts `sv=…&sig=…`, `?sv=…` or a whole SAS URL (its query is the token).
    pub(crate) fn sas(secret: &str) -> Result<Credentials, SourceError> {
        let secret = secret.trim();
        let query = match secret.find('?') {
            Some(at) => &secret[at + 1..],
            None => secret,
        };
        let query = query.trim_start_matches('?').trim_end_matches('&');
        if query.is_empty() {
            return Err(SourceError::new(
                "The SAS token is empty: paste the token Azure generated (it starts with sv= or ?sv=)",
            ));
        }
        if !query
            .split('&')
            .any(|pair| pair.starts_with("sig=") && pair.len() > 4)
        {
            return Err(SourceError::new(
                "The SAS token has no signature (sig=…): paste the whole token Azure generated",
            ));
        }
        Ok(Credentials::Sas(Secret(query.to_owned())))
    }

    pub(crate) fn service_principal(
        authority_url: &str,
        tenant_id: &str,
        client_id: &str,
        secret: String,
    ) -> Result<Credentials, SourceError> {
        Ok(Credentials::Bearer(Box::new(TokenSource::new(
            authority_url,
            tenant_id,
            client_id,
            secret,
        )?)))
    }

    /// Every form of the secret that might appear in something the service echoes back.
    fn secrets(&self) -> Vec<String> {
        match self {
            Credentials::Sas(Secret(query)) => {
                let mut out = vec![query.clone()];
                for pair in query.split('&') {
                    if let Some(sig) = pair.strip_prefix("sig=") {
                        out.push(sig.to_owned());
                        if let Ok(decoded) = percent_encoding::percent_decode_str(sig).decode_utf8()
                        {
                            out.push(decoded.into_owned());
                        }
                    }
                }
                out
            }
            Credentials::Bearer(token) => token.secrets(),
        }
    }
}

/// The endpoint of the blob service: `https://account.blob.core.windows.net` or
/// `http://127.0.0.1:10000/devstoreaccount1`.
pub(crate) fn parse_endpoint(endpoint: &str) -> Result<Url, SourceError> {
    let trimmed = endpoint.trim().trim_end_matches('/');
    let url = Url::parse(trimmed).map_err(|_| {
        SourceError::new(format!(
            "The blob endpoint {trimmed} is not a URL (expected https://<account>.blob.core.windows.net)"
        ))
    })?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(SourceError::new(format!(
            "The blob endpoint must be an http(s) URL such as https://<account>.blob.core.windows.net, not {}",
            strip_query(trimmed)
        )));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(SourceError::new(
            "The blob endpoint must not carry a query (put the SAS token in the secret field)",
        ));
    }
    Ok(url)
}

/// `s` without anything from the first `?` on.
pub(crate) fn strip_query(s: &str) -> &str {
    match s.find('?') {
        Some(at) => &s[..at],
        None => s,
    }
}

/// One blob of a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BlobItem {
    pub(crate) name: String,
    pub(crate) last_modified: Option<DateTime<Utc>>,
    pub(crate) etag: String,
    pub(crate) bytes: Option<u64>,
}

pub(crate) enum Download {
    Done(u64),
    TooLarge,
}

/// What a failed request was about, for its message.
enum Target<'a> {
    Container,
    Blob(&'a str),
}

pub(crate) struct BlobClient {
    http: reqwest::Client,
    /// Without a trailing `/`.
    endpoint: String,
    account: String,
    container: String,
    credentials: Credentials,
}

impl BlobClient {
    pub(crate) fn new(
        endpoint: Url,
        account: String,
        container: String,
        credentials: Credentials,
    ) -> Result<BlobClient, SourceError> {
        Ok(BlobClient {
            http: default_http()?,
            endpoint: endpoint.as_str().trim_end_matches('/').to_owned(),
            account,
            container,
            credentials,
        })
    }

    pub(crate) fn set_http(&mut self, http: reqwest::Client) {
        self.http = http.clone();
        if let Credentials::Bearer(token) = &mut self.credentials {
            token.set_http(http);
        }
    }

    pub(crate) fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// `{endpoint}/{container}/{folder}` for people (no query, no trailing `/`).
    pub(crate) fn folder_url(&self, folder: &str) -> String {
        if folder.is_empty() {
            format!("{}/{}", self.endpoint, self.container)
        } else {
            format!("{}/{}/{}", self.endpoint, self.container, folder)
        }
    }

    /// The URL of a blob or folder, for people and for requests (the query comes separately).
    pub(crate) fn blob_url(&self, name: &str) -> String {
        let path: Vec<String> = name
            .split('/')
            .map(|segment| utf8_percent_encode(segment, COMPONENT).to_string())
            .collect();
        format!("{}/{}/{}", self.endpoint, self.container, path.join("/"))
    }

    fn container_url(&self) -> String {
        format!("{}/{}", self.endpoint, self.container)
    }

    /// Every blob whose name starts with `prefix`, following `NextMarker`.
    pub(crate) async fn list(
        &self,
        prefix: &str,
        page_size: Option<u32>,
    ) -> Result<Vec<BlobItem>, SourceError> {
        let mut blobs = Vec::new();
        let mut marker: Option<String> = None;
        let mut pages = 0u32;
        loop {
            let mut query = format!(
                "restype=container&comp=list&prefix={}",
                utf8_percent_encode(prefix, COMPONENT)
            );
            if let Some(size) = page_size {
                query.push_str(&format!("&maxresults={size}"));
            }
            if let Some(marker) = &marker {
                query.push_str(&format!(
                    "&marker={}",
                    utf8_percent_encode(marker, COMPONENT)
                ));
            }
            let response = self
                .get(&self.container_url(), &query, Target::Container)
                .await?;
            let body = response.text().await.map_err(|e| {
                SourceError::retryable(format!(
                    "The blob listing of {} was cut off: {}",
                    self.container_url(),
                    self.redact(&e.without_url().to_string())
                ))
            })?;
            let page = parse_listing(&body).map_err(|e| {
                SourceError::new(format!(
                    "The blob listing of {} could not be read: {e}",
                    self.container_url()
                ))
            })?;
            pages += 1;
            blobs.extend(page.blobs);
            match page.next_marker {
                Some(next) if !next.is_empty() => {
                    if marker.as_deref() == Some(next.as_str()) {
                        return Err(SourceError::retryable(format!(
                            "The blob listing of {} repeated its page marker: the storage service did not move on",
                            self.container_url()
                        )));
                    }
                    marker = Some(next);
                }
                _ => break,
            }
        }
        tracing::debug!(
            container = %self.container_url(),
            prefix,
            blobs = blobs.len(),
            pages,
            "listed blobs"
        );
        Ok(blobs)
    }

    /// A small blob (a manifest) whole.
    pub(crate) async fn get_small(&self, name: &str) -> Result<Vec<u8>, SourceError> {
        let url = self.blob_url(name);
        let response = self.get(&url, "", Target::Blob(name)).await?;
        let mut out = Vec::new();
        let mut stream = response.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| self.cut_off(&url, e))?;
            if out.len() + chunk.len() > MAX_MANIFEST_BYTES {
                return Err(SourceError::new(format!(
                    "The export manifest {url} is larger than {} MiB: it is not a Cost Management manifest",
                    MAX_MANIFEST_BYTES / 1024 / 1024
                )));
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    }

    /// Streams blob `name` into a new file at `path`, stopping once more than `max_bytes`
    /// arrived (the caller removes the file then).
    pub(crate) async fn download(
        &self,
        name: &str,
        path: &Path,
        max_bytes: u64,
    ) -> Result<Download, SourceError> {
        let url = self.blob_url(name);
        let response = self.get(&url, "", Target::Blob(name)).await?;
        if response.content_length().is_some_and(|n| n > max_bytes) {
            return Ok(Download::TooLarge);
        }
        let mut file = tokio::fs::File::create(path)
            .await
            .map_err(|e| SourceError::new(format!("Cannot write {}: {e}", path.display())))?;
        let mut written = 0u64;
        let mut stream = response.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| self.cut_off(&url, e))?;
            written += chunk.len() as u64;
            if written > max_bytes {
                return Ok(Download::TooLarge);
            }
            file.write_all(&chunk)
                .await
                .map_err(|e| SourceError::new(format!("Cannot write {}: {e}", path.display())))?;
        }
        file.flush()
            .await
            .map_err(|e| SourceError::new(format!("Cannot write {}: {e}", path.display())))?;
        tracing::debug!(blob = %url, bytes = written, "downloaded blob");
        Ok(Download::Done(written))
    }

    fn cut_off(&self, url: &str, error: reqwest::Error) -> SourceError {
        SourceError::retryable(format!(
            "The download of {url} was cut off: {}",
            self.redact(&error.without_url().to_string())
        ))
    }

    /// A GET of `url` (no query) with `query`, authorised, retried on throttling, 5xx and
    /// connection failures; a non-success answer becomes the storage error in words.
    async fn get(
        &self,
        url: &str,
        query: &str,
        target: Target<'_>,
    ) -> Result<reqwest::Response, SourceError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result = self.get_once(url, query).await;
            let retry = match &result {
                Ok(response) => {
                    let status = response.status();
                    if status.is_success() {
                        return result;
                    }
                    status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS
                }
                Err(error) => error.retryable,
            };
            if retry && attempt < ATTEMPTS {
                tokio::time::sleep(Duration::from_millis(250 * 2u64.pow(attempt - 1))).await;
                continue;
            }
            let response = result?;
            return Err(self.storage_error(url, response, target).await);
        }
    }

    async fn get_once(&self, url: &str, query: &str) -> Result<reqwest::Response, SourceError> {
        let mut full = String::from(url);
        let mut separator = '?';
        if !query.is_empty() {
            full.push(separator);
            full.push_str(query);
            separator = '&';
        }
        let bearer = match &self.credentials {
            Credentials::Sas(Secret(sas)) => {
                full.push(separator);
                full.push_str(sas);
                None
            }
            Credentials::Bearer(token) => Some(token.token().await?),
        };
        let parsed = Url::parse(&full)
            .map_err(|_| SourceError::new(format!("{url} is not a valid blob URL")))?;
        let mut request = self
            .http
            .get(parsed)
            .header("x-ms-version", API_VERSION)
            .header(
                "x-ms-date",
                Utc::now().format("%a, %d %b %Y %H:%M:%S GMT").to_string(),
            );
        if let Some(Secret(token)) = bearer {
            request = request.bearer_auth(token);
        }
        request.send().await.map_err(|e| {
            let detail = self.redact(&error_chain(e));
            SourceError::retryable(format!(
                "Storage account {} could not be reached at {}: {detail}",
                self.account, self.endpoint
            ))
        })
    }

    async fn storage_error(
        &self,
        url: &str,
        response: reqwest::Response,
        target: Target<'_>,
    ) -> SourceError {
        let status = response.status();
        let header_code = response
            .headers()
            .get("x-ms-error-code")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = response.text().await.unwrap_or_default();
        let (body_code, body_message) = parse_error(&body);
        let code = header_code.or(body_code);
        let message = self.describe(
            status,
            code.as_deref(),
            body_message.as_deref(),
            url,
            target,
        );
        let message = self.redact(&message);
        tracing::warn!(status = status.as_u16(), code = ?code, url = %strip_query(url), "blob storage refused a request");
        if status.is_server_error()
            || status == StatusCode::TOO_MANY_REQUESTS
            || matches!(
                code.as_deref(),
                Some("ServerBusy" | "OperationTimedOut" | "InternalError")
            )
        {
            SourceError::retryable(message)
        } else {
            SourceError::new(message)
        }
    }

    fn describe(
        &self,
        status: StatusCode,
        code: Option<&str>,
        message: Option<&str>,
        url: &str,
        target: Target<'_>,
    ) -> String {
        let account = &self.account;
        let container = &self.container;
        let sas = matches!(self.credentials, Credentials::Sas(_));
        let principal = match &self.credentials {
            Credentials::Bearer(token) => token.describe(),
            Credentials::Sas(_) => String::new(),
        };
        let first_line = message
            .and_then(|m| m.lines().next())
            .map(str::trim)
            .filter(|m| !m.is_empty());
        match code {
            Some("ContainerNotFound") => format!(
                "ContainerNotFound: container {container} does not exist in storage account {account}"
            ),
            Some("BlobNotFound") => match target {
                Target::Blob(name) => format!(
                    "BlobNotFound: blob {name} (listed by the export run) does not exist in container {container}"
                ),
                Target::Container => format!("BlobNotFound: {} does not exist", strip_query(url)),
            },
            Some("ResourceNotFound") | Some("AccountNotFound") => format!(
                "{}: storage account {account} was not found at {}",
                code.unwrap_or_default(),
                self.endpoint
            ),
            // Azure answers AuthenticationFailed to a bad or expired signature; Azurite (and
            // Azure behind network rules) AuthorizationFailure.
            Some(c @ ("AuthenticationFailed" | "AuthorizationFailure")) if sas => format!(
                "{c}: the SAS token was refused by storage account {account}: check that it was made for this account (with its key), has not expired and is pasted whole, and that the account's network rules let Costscope in"
            ),
            Some("AuthenticationFailed") => format!(
                "AuthenticationFailed: storage account {account} refused the access token of {principal}: check that the tenant is the storage account's"
            ),
            Some("InvalidAuthenticationInfo") if sas => format!(
                "InvalidAuthenticationInfo: storage account {account} could not read the SAS token: paste the whole token Azure generated"
            ),
            Some("InvalidAuthenticationInfo") => format!(
                "InvalidAuthenticationInfo: storage account {account} could not read the access token of {principal}"
            ),
            Some("AuthorizationSourceIPMismatch") => format!(
                "AuthorizationSourceIPMismatch: storage account {account} does not accept requests from Costscope's address: allow it in the {} IP range or the account's firewall",
                if sas { "SAS token's" } else { "storage account's" }
            ),
            Some("AuthorizationProtocolMismatch") => format!(
                "AuthorizationProtocolMismatch: storage account {account} refused the protocol of {}: use an https blob endpoint",
                self.endpoint
            ),
            Some(
                c @ ("AuthorizationPermissionMismatch"
                | "AuthorizationFailure"
                | "AuthorizationResourceTypeMismatch"
                | "AuthorizationServiceMismatch"
                | "InsufficientAccountPermissions"),
            ) => {
                if sas {
                    format!(
                        "{c}: the SAS token does not allow reading the export in container {container} of storage account {account}: it needs the blob service, read and list permissions (sp=rl) and container and object resource types (srt=co), or be a container SAS with read and list"
                    )
                } else {
                    format!(
                        "{c}: {principal} may not read container {container} of storage account {account}: give it the Storage Blob Data Reader role on the account or the container"
                    )
                }
            }
            Some(c @ ("ServerBusy" | "OperationTimedOut" | "InternalError")) => format!(
                "{c}: storage account {account} is busy or failing (HTTP {}); the sync will try again",
                status.as_u16()
            ),
            Some(c) => match first_line {
                Some(line) => format!("{c}: {line} (HTTP {}, {})", status.as_u16(), strip_query(url)),
                None => format!("{c}: HTTP {} from {}", status.as_u16(), strip_query(url)),
            },
            None => match status {
                StatusCode::NOT_FOUND => match target {
                    Target::Container => format!(
                        "HTTP 404: container {container} of storage account {account} was not found at {}",
                        strip_query(url)
                    ),
                    Target::Blob(name) => format!(
                        "HTTP 404: blob {name} was not found in container {container}"
                    ),
                },
                StatusCode::FORBIDDEN | StatusCode::UNAUTHORIZED => format!(
                    "HTTP {}: storage account {account} refused access to container {container}: check the {}",
                    status.as_u16(),
                    if sas { "SAS token" } else { "service principal's role assignment" }
                ),
                _ => format!(
                    "HTTP {} from storage account {account} ({})",
                    status.as_u16(),
                    strip_query(url)
                ),
            },
        }
    }

    /// `text` with every form of the secret replaced.
    pub(crate) fn redact(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for secret in self.credentials.secrets() {
            if secret.len() >= 4 {
                out = out.replace(&secret, "[redacted]");
            }
        }
        out
    }
}

/// A request error and its causes, without the URL (which may carry the SAS token).
pub(crate) fn error_chain(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut out = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        let text = cause.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = cause.source();
    }
    out
}

fn default_http() -> Result<reqwest::Client, SourceError> {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(20))
        .read_timeout(Duration::from_secs(120))
        .build()
        .map_err(|e| SourceError::new(format!("Cannot set up the HTTPS client: {e}")))
}

pub(crate) struct ListingPage {
    pub(crate) blobs: Vec<BlobItem>,
    pub(crate) next_marker: Option<String>,
}

/// Parses an `EnumerationResults` document of List Blobs.
pub(crate) fn parse_listing(xml: &str) -> Result<ListingPage, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    let mut blobs = Vec::new();
    let mut next_marker = None;
    let mut current: Option<BlobItem> = None;
    let mut name_encoded = false;
    let mut seen_root = false;
    loop {
        match reader.read_event().map_err(|e| e.to_string())? {
            Event::Start(start) => {
                let name = String::from_utf8_lossy(start.local_name().as_ref()).into_owned();
                if path.is_empty() {
                    if name != "EnumerationResults" {
                        return Err(format!("expected EnumerationResults, found {name}"));
                    }
                    seen_root = true;
                }
                if name == "Blob" && path.last().map(String::as_str) == Some("Blobs") {
                    current = Some(BlobItem {
                        name: String::new(),
                        last_modified: None,
                        etag: String::new(),
                        bytes: None,
                    });
                }
                if name == "Name" {
                    name_encoded = start.attributes().flatten().any(|a| {
                        a.key.local_name().as_ref() == b"Encoded"
                            && a.value.as_ref().eq_ignore_ascii_case(b"true")
                    });
                }
                path.push(name);
            }
            Event::End(_) => {
                let closed = path.pop();
                if closed.as_deref() == Some("Blob") {
                    if let Some(blob) = current.take() {
                        if !blob.name.is_empty() {
                            blobs.push(blob);
                        }
                    }
                }
            }
            Event::Text(text) => {
                let value = text.decode().map_err(|e| e.to_string()).and_then(|raw| {
                    quick_xml::escape::unescape(&raw)
                        .map(|s| s.into_owned())
                        .map_err(|e| e.to_string())
                })?;
                append(&path, &value, &mut current, &mut next_marker, name_encoded);
            }
            Event::CData(data) => {
                let value = String::from_utf8_lossy(&data.into_inner()).into_owned();
                append(&path, &value, &mut current, &mut next_marker, name_encoded);
            }
            Event::GeneralRef(reference) => {
                let raw = String::from_utf8_lossy(&reference).into_owned();
                let value = quick_xml::escape::unescape(&format!("&{raw};"))
                    .map(|s| s.into_owned())
                    .map_err(|e| e.to_string())?;
                append(&path, &value, &mut current, &mut next_marker, name_encoded);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !seen_root {
        return Err("the answer is not a blob listing".into());
    }
    Ok(ListingPage { blobs, next_marker })
}

fn append(
    path: &[String],
    value: &str,
    current: &mut Option<BlobItem>,
    next_marker: &mut Option<String>,
    name_encoded: bool,
) {
    let last = path.last().map(String::as_str);
    let parent = path.len().checked_sub(2).map(|i| path[i].as_str());
    if path.len() == 2 && last == Some("NextMarker") {
        next_marker.get_or_insert_with(String::new).push_str(value);
        return;
    }
    let Some(blob) = current.as_mut() else {
        return;
    };
    match (parent, last) {
        (Some("Blob"), Some("Name")) => {
            if name_encoded {
                let decoded = percent_encoding::percent_decode_str(value).decode_utf8_lossy();
                blob.name.push_str(&decoded);
            } else {
                blob.name.push_str(value);
            }
        }
        (Some("Properties"), Some("Last-Modified")) => {
            blob.last_modified = DateTime::parse_from_rfc2822(value.trim())
                .ok()
                .map(|t| t.with_timezone(&Utc));
        }
        (Some("Properties"), Some("Etag")) => blob.etag.push_str(value.trim()),
        (Some("Properties"), Some("Content-Length")) => {
            blob.bytes = value.trim().parse().ok();
        }
        _ => {}
    }
}

/// `<Error><Code>…</Code><Message>…</Message></Error>`, as far as it is there.
fn parse_error(xml: &str) -> (Option<String>, Option<String>) {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    let mut code = None;
    let mut message = None;
    while let Ok(event) = reader.read_event() {
        match event {
            Event::Start(start) => {
                path.push(String::from_utf8_lossy(start.local_name().as_ref()).into_owned())
            }
            Event::End(_) => {
                path.pop();
            }
            Event::Text(text) => {
                let value = text.decode().map(|v| v.into_owned()).unwrap_or_default();
                let value = quick_xml::escape::unescape(&value)
                    .map(|v| v.into_owned())
                    .unwrap_or(value);
                match path.last().map(String::as_str) {
                    Some("Code") => code = Some(value.trim().to_owned()),
                    Some("Message") => {
                        message.get_or_insert_with(String::new).push_str(&value);
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    (code.filter(|c| !c.is_empty()), message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_page_is_read_with_its_marker_and_encoded_names() {
        let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<EnumerationResults ServiceEndpoint="https://a.blob.core.windows.net/" ContainerName="exports">
  <Prefix>billing/</Prefix><MaxResults>2</MaxResults>
  <Blobs>
    <Blob><Name>billing/focus/20261001-20261031/run/manifest.json</Name>
      <Properties><Last-Modified>Mon, 02 Nov 2026 06:00:01 GMT</Last-Modified><Etag>0x8DC1</Etag><Content-Length>812</Content-Length></Properties></Blob>
    <Blob><Name Encoded="true">billing/a%20b&amp;c.csv</Name>
      <Properties><Last-Modified>Mon, 02 Nov 2026 06:00:02 GMT</Last-Modified><Etag>"0x8DC2"</Etag><Content-Length>5</Content-Length></Properties></Blob>
  </Blobs>
  <NextMarker>2!88!MDAw</NextMarker>
</EnumerationResults>"#;
        let page = parse_listing(xml).unwrap();
        assert_eq!(page.next_marker.as_deref(), Some("2!88!MDAw"));
        assert_eq!(page.blobs.len(), 2);
        assert_eq!(
            page.blobs[0].name,
            "billing/focus/20261001-20261031/run/manifest.json"
        );
        assert_eq!(page.blobs[0].bytes, Some(812));
        assert_eq!(page.blobs[0].etag, "0x8DC1");
        assert_eq!(
            page.blobs[0].last_modified.unwrap().to_rfc3339(),
            "2026-11-02T06:00:01+00:00"
        );
        assert_eq!(page.blobs[1].name, "billing/a b&c.csv");
        let last =
            parse_listing("<EnumerationResults><Blobs /><NextMarker /></EnumerationResults>")
                .unwrap();
        assert!(last.blobs.is_empty());
        assert_eq!(last.next_marker, None);
        assert!(parse_listing("<Error><Code>X</Code></Error>").is_err());
    }

    #[test]
    fn an_error_document_gives_its_code_and_message() {
        let (code, message) = parse_error(
            "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>ContainerNotFound</Code><Message>The specified container does not exist.\nRequestId:1\nTime:2026</Message></Error>",
        );
        assert_eq!(code.as_deref(), Some("ContainerNotFound"));
        assert!(message.unwrap().starts_with("The specified container"));
    }

    #[test]
    fn sas_tokens_are_accepted_in_their_usual_forms() {
        for form in [
            "sv=2022-11-02&sp=rl&sig=abc%2Bdef",
            "?sv=2022-11-02&sp=rl&sig=abc%2Bdef",
            "https://a.blob.core.windows.net/exports?sv=2022-11-02&sp=rl&sig=abc%2Bdef",
        ] {
            let Credentials::Sas(Secret(query)) = Credentials::sas(form).unwrap() else {
                panic!("not a SAS")
            };
            assert_eq!(query, "sv=2022-11-02&sp=rl&sig=abc%2Bdef");
        }
        assert!(Credentials::sas("").is_err());
        assert!(Credentials::sas("sv=1&sig=").is_err());
    }

    #[test]
    fn redaction_covers_the_token_and_its_signature_in_both_encodings() {
        let client = BlobClient::new(
            Url::parse("https://a.blob.core.windows.net").unwrap(),
            "a".into(),
            "exports".into(),
            Credentials::sas("sv=2022-11-02&sp=rl&sig=abc%2Bdef%3D").unwrap(),
        )
        .unwrap();
        let text =
            client.redact("x sv=2022-11-02&sp=rl&sig=abc%2Bdef%3D y abc+def= z abc%2Bdef%3D");
        assert!(!text.contains("abc"), "{text}");
    }

    #[test]
    fn blob_urls_encode_each_segment() {
        let client = BlobClient::new(
            Url::parse("http://127.0.0.1:10000/devstoreaccount1/").unwrap(),
            "devstoreaccount1".into(),
            "exports".into(),
            Credentials::sas("sig=x").unwrap(),
        )
        .unwrap();
        assert_eq!(
            client.blob_url("dir/a b/c#1.csv"),
            "http://127.0.0.1:10000/devstoreaccount1/exports/dir/a%20b/c%231.csv"
        );
        assert_eq!(
            client.folder_url("dir"),
            "http://127.0.0.1:10000/devstoreaccount1/exports/dir"
        );
    }
}
