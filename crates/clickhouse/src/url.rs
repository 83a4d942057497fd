//! `clickhouse://user:password@host:port/database?cluster=NAME&shards=HOST:PORT,HOST:PORT`: where
//! a ClickHouse server (or cluster) is, parsed once into [`ClickHouseUrl`].
//!
//! * user `default`, port 8123 (the HTTP interface) and database `default` when left out; the
//!   user and password are percent-decoded;
//! * `cluster`: the `remote_servers` cluster that `Distributed` tables spread over;
//! * `shards`: the HTTP `host:port` of every shard of that cluster, in shard order. ClickHouse
//!   runs `CREATE … ON CLUSTER` only with ZooKeeper, so without it a table that each shard holds
//!   is created shard by shard ([`crate::Client::shards`]); `system.clusters` only knows the
//!   shards' native TCP ports, hence the list.
//!
//! `Display` never prints the password.

use std::fmt;

use reqwest::Url;
use secrecy::{ExposeSecret, SecretString};

/// What `--cost-engine` and the tests write.
pub const EXAMPLE: &str = "clickhouse://user:password@host:8123/database?cluster=NAME";

/// A parsed ClickHouse URL.
#[derive(Clone)]
pub struct ClickHouseUrl {
    host: String,
    port: u16,
    user: String,
    password: Option<SecretString>,
    database: String,
    cluster: Option<String>,
    shards: Vec<(String, u16)>,
}

/// Why a ClickHouse URL was refused. Messages name the part that is wrong; none prints the
/// password.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    #[error("not a ClickHouse URL ({reason}): expected {EXAMPLE}")]
    Malformed { reason: String },
    #[error("unknown scheme `{0}`: expected {EXAMPLE}")]
    UnknownScheme(String),
    #[error(
        "clickhouses:// (TLS) is not supported: use clickhouse:// to the HTTP port, through a \
         TLS-terminating proxy if the network needs one"
    )]
    TlsUnsupported,
    #[error("the URL has no host: expected {EXAMPLE}")]
    MissingHost,
    #[error("the {part} is not valid percent-encoding")]
    BadPercentEncoding { part: &'static str },
    #[error(
        "the database name is empty (nothing after the `/`): write the database, or leave out \
         the `/` for database `default`"
    )]
    EmptyDatabase,
    #[error(
        "{what} `{value}` is not a plain name: letters, digits and underscores, not starting \
         with a digit"
    )]
    BadName { what: &'static str, value: String },
    #[error("unknown query parameter `{0}`: the known ones are `cluster` and `shards`")]
    UnknownParameter(String),
    #[error("query parameter `{0}` is given twice")]
    DuplicateParameter(String),
    #[error("query parameter `{0}` is empty")]
    EmptyParameter(String),
    #[error("`shards` entry `{0}` is not HOST:PORT")]
    BadShard(String),
    #[error("`shards` needs `cluster`: the shards are those of a cluster")]
    ShardsWithoutCluster,
    #[error("the URL has a `#` fragment, which means nothing here")]
    Fragment,
}

impl ClickHouseUrl {
    /// Parses `clickhouse://…`; see the module documentation.
    pub fn parse(input: &str) -> Result<Self, UrlError> {
        let scheme = input.split_once("://").map(|(scheme, _)| scheme);
        match scheme {
            Some("clickhouse") => {}
            Some("clickhouses") => return Err(UrlError::TlsUnsupported),
            Some(other) => return Err(UrlError::UnknownScheme(other.to_owned())),
            None => {
                return Err(UrlError::Malformed {
                    reason: "no `clickhouse://`".to_owned(),
                })
            }
        }
        let url = Url::parse(input).map_err(|e| UrlError::Malformed {
            reason: e.to_string(),
        })?;
        if url.fragment().is_some() {
            return Err(UrlError::Fragment);
        }
        let host = match url.host_str() {
            Some(host) if !host.is_empty() => host.to_owned(),
            _ => return Err(UrlError::MissingHost),
        };
        let user = match url.username() {
            "" => "default".to_owned(),
            encoded => percent_decode(encoded, "user name")?,
        };
        let password = url
            .password()
            .map(|encoded| percent_decode(encoded, "password"))
            .transpose()?
            .map(SecretString::from);
        let database = match url.path() {
            "" => "default".to_owned(),
            "/" => return Err(UrlError::EmptyDatabase),
            path => plain_name("database", &percent_decode(&path[1..], "database name")?)?,
        };
        let mut cluster = None;
        let mut shards = None;
        for (name, value) in url.query_pairs() {
            let slot = match name.as_ref() {
                "cluster" => &mut cluster,
                "shards" => &mut shards,
                other => return Err(UrlError::UnknownParameter(other.to_owned())),
            };
            if slot.is_some() {
                return Err(UrlError::DuplicateParameter(name.into_owned()));
            }
            if value.is_empty() {
                return Err(UrlError::EmptyParameter(name.into_owned()));
            }
            *slot = Some(value.into_owned());
        }
        let cluster = cluster.map(|c| plain_name("cluster", &c)).transpose()?;
        let shards = match shards {
            None => Vec::new(),
            Some(_) if cluster.is_none() => return Err(UrlError::ShardsWithoutCluster),
            Some(list) => list.split(',').map(parse_shard).collect::<Result<_, _>>()?,
        };
        Ok(Self {
            port: url.port().unwrap_or(8123),
            host,
            user,
            password,
            database,
            cluster,
            shards,
        })
    }

    pub fn host(&self) -> &str {
        &self.host
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn user(&self) -> &str {
        &self.user
    }

    /// The password, for the request header that carries it.
    pub(crate) fn password(&self) -> &str {
        self.password.as_ref().map_or("", |p| p.expose_secret())
    }

    pub fn database(&self) -> &str {
        &self.database
    }

    pub fn cluster(&self) -> Option<&str> {
        self.cluster.as_deref()
    }

    /// The HTTP interface this URL points at, e.g. `http://127.0.0.1:8123/`.
    pub fn http_base(&self) -> String {
        format!("http://{}:{}/", self.host, self.port)
    }

    /// One URL per entry of `shards` (same user, password and database; no cluster), in shard
    /// order; empty when the URL lists no shards.
    pub fn shard_urls(&self) -> Vec<ClickHouseUrl> {
        self.shards
            .iter()
            .map(|(host, port)| ClickHouseUrl {
                host: host.clone(),
                port: *port,
                cluster: None,
                shards: Vec::new(),
                ..self.clone()
            })
            .collect()
    }
}

impl fmt::Display for ClickHouseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let password = if self.password.is_some() { ":***" } else { "" };
        write!(
            f,
            "clickhouse://{}{password}@{}:{}/{}",
            self.user, self.host, self.port, self.database
        )?;
        if let Some(cluster) = &self.cluster {
            write!(f, "?cluster={cluster}")?;
            let shards: Vec<String> = self
                .shards
                .iter()
                .map(|(h, p)| format!("{h}:{p}"))
                .collect();
            if !shards.is_empty() {
                write!(f, "&shards={}", shards.join(","))?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ClickHouseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ClickHouseUrl({self})")
    }
}

impl std::str::FromStr for ClickHouseUrl {
    type Err = UrlError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

fn percent_decode(encoded: &str, part: &'static str) -> Result<String, UrlError> {
    let bad = || UrlError::BadPercentEncoding { part };
    let bytes = encoded.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).ok_or_else(bad)?;
            let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// Database and cluster names go into SQL (always quoted by [`crate::literal::identifier`]) and
/// into request parameters; plain names keep both simple.
fn plain_name(what: &'static str, value: &str) -> Result<String, UrlError> {
    let mut chars = value.chars();
    let plain = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        Ok(value.to_owned())
    } else {
        Err(UrlError::BadName {
            what,
            value: value.to_owned(),
        })
    }
}

fn parse_shard(entry: &str) -> Result<(String, u16), UrlError> {
    let bad = || UrlError::BadShard(entry.to_owned());
    let (host, port) = entry.trim().rsplit_once(':').ok_or_else(bad)?;
    let port: u16 = port.parse().map_err(|_| bad())?;
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
    if !host_ok || port == 0 {
        return Err(bad());
    }
    Ok((host.to_owned(), port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> ClickHouseUrl {
        ClickHouseUrl::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn error(s: &str) -> String {
        match ClickHouseUrl::parse(s) {
            Ok(url) => panic!("{s} parsed as {url}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn defaults_are_user_default_port_8123_database_default() {
        let url = parse("clickhouse://db.example");
        assert_eq!(url.user(), "default");
        assert_eq!(url.password(), "");
        assert_eq!(url.host(), "db.example");
        assert_eq!(url.port(), 8123);
        assert_eq!(url.database(), "default");
        assert_eq!(url.cluster(), None);
        assert!(url.shard_urls().is_empty());
        assert_eq!(url.http_base(), "http://db.example:8123/");
    }

    #[test]
    fn every_part_is_read_and_user_and_password_are_percent_decoded() {
        let url = parse(
            "clickhouse://cost%20user:p%40ss%3Aw%2Fd@127.0.0.1:8124/costs?cluster=costscope\
             &shards=127.0.0.1:8123,127.0.0.1:8124",
        );
        assert_eq!(url.user(), "cost user");
        assert_eq!(url.password(), "p@ss:w/d");
        assert_eq!((url.host(), url.port()), ("127.0.0.1", 8124));
        assert_eq!(url.database(), "costs");
        assert_eq!(url.cluster(), Some("costscope"));
        let shards: Vec<String> = url.shard_urls().iter().map(|u| u.to_string()).collect();
        assert_eq!(
            shards,
            [
                "clickhouse://cost user:***@127.0.0.1:8123/costs",
                "clickhouse://cost user:***@127.0.0.1:8124/costs"
            ]
        );
        assert_eq!(url.shard_urls()[1].password(), "p@ss:w/d");
    }

    #[test]
    fn display_and_debug_never_print_the_password() {
        let url = parse("clickhouse://u:hunter2@h:9/d?cluster=c&shards=a:1,b:2");
        assert_eq!(
            url.to_string(),
            "clickhouse://u:***@h:9/d?cluster=c&shards=a:1,b:2"
        );
        assert!(!format!("{url:?}").contains("hunter2"));
        assert_eq!(
            parse("clickhouse://h").to_string(),
            "clickhouse://default@h:8123/default"
        );
    }

    #[test]
    fn ipv6_hosts_keep_their_brackets() {
        let url = parse("clickhouse://[::1]:8123/test");
        assert_eq!(url.http_base(), "http://[::1]:8123/");
    }

    #[test]
    fn malformed_urls_are_refused_naming_what_is_wrong() {
        let cases = [
            ("postgres://h/db", "unknown scheme `postgres`"),
            ("http://h:8123/db", "unknown scheme `http`"),
            (
                "clickhouses://h/db",
                "clickhouses:// (TLS) is not supported",
            ),
            ("h:8123/db", "no `clickhouse://`"),
            ("clickhouse://h:notaport/db", "invalid port number"),
            ("clickhouse://h:70000/db", "invalid port number"),
            ("clickhouse:///db", "has no host"),
            ("clickhouse://h/", "database name is empty"),
            ("clickhouse://h/a/b", "database `a/b` is not a plain name"),
            ("clickhouse://h/a-b", "database `a-b` is not a plain name"),
            (
                "clickhouse://h/db?clustr=c",
                "unknown query parameter `clustr`",
            ),
            (
                "clickhouse://h/db?cluster=",
                "query parameter `cluster` is empty",
            ),
            (
                "clickhouse://h/db?cluster=a&cluster=b",
                "`cluster` is given twice",
            ),
            (
                "clickhouse://h/db?cluster=a%20b",
                "cluster `a b` is not a plain name",
            ),
            ("clickhouse://h/db?shards=h:1", "`shards` needs `cluster`"),
            (
                "clickhouse://h/db?cluster=c&shards=h",
                "`shards` entry `h` is not HOST:PORT",
            ),
            (
                "clickhouse://h/db?cluster=c&shards=h:1,",
                "`shards` entry `` is not HOST:PORT",
            ),
            (
                "clickhouse://h/db?cluster=c&shards=h:0",
                "`shards` entry `h:0`",
            ),
            (
                "clickhouse://h/db?cluster=c&shards=h%2Fx:1",
                "`shards` entry `h/x:1`",
            ),
            (
                "clickhouse://u:%zz@h/db",
                "password is not valid percent-encoding",
            ),
            (
                "clickhouse://%ff@h/db",
                "user name is not valid percent-encoding",
            ),
            ("clickhouse://h/db#x", "`#` fragment"),
        ];
        for (url, expected) in cases {
            let message = error(url);
            assert!(message.contains(expected), "{url}: {message}");
        }
    }

    #[test]
    fn errors_never_print_the_password() {
        for url in [
            "clickhouse://u:hunter2@h/db?bogus=1",
            "clickhouse://u:hunter2@h/",
            "clickhouse://u:hunter2@h:x/db",
        ] {
            assert!(!error(url).contains("hunter2"), "{url}");
        }
    }
}
