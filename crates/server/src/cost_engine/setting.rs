//! `cost_engine` (`--cost-engine`, `COSTSCOPE_COST_ENGINE`, the file's `cost_engine`): which
//! database holds the cost line items.

use costscope_clickhouse::ClickHouseUrl;
use secrecy::{ExposeSecret, SecretString};

/// What the setting accepts, for error messages and `--help`.
pub const ACCEPTED: &str = "`duckdb` (costs.duckdb in the data directory) or \
     `clickhouse://user:password@host:8123/database[?cluster=NAME&shards=HOST:PORT,HOST:PORT]`";

/// The database of the cost line items. `Debug` never shows a password.
#[derive(Clone, Default)]
pub enum CostEngineSetting {
    /// `costs.duckdb` in the data directory (the default).
    #[default]
    DuckDb,
    /// A ClickHouse server or cluster (its URL may carry a password).
    ClickHouse(SecretString),
}

impl CostEngineSetting {
    /// Reads the setting's text; refused with a message naming the setting and the accepted
    /// forms (never echoing a password).
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("duckdb") {
            return Ok(Self::DuckDb);
        }
        if text.starts_with("clickhouse://") || text.starts_with("clickhouses://") {
            // The URL's own errors name the part that is wrong and never print the password.
            ClickHouseUrl::parse(text)
                .map_err(|error| anyhow::anyhow!("cost engine: {error} (accepted: {ACCEPTED})"))?;
            return Ok(Self::ClickHouse(SecretString::from(text.to_owned())));
        }
        let shown = match text.split_once("://") {
            Some((scheme, _)) => format!("a `{scheme}://` URL"),
            None if text.is_empty() => "an empty value".to_owned(),
            None => format!("`{text}`"),
        };
        anyhow::bail!("cost engine: {shown} is not a cost engine; accepted: {ACCEPTED}")
    }

    /// The ClickHouse URL, parsed (it was checked when read).
    pub fn clickhouse_url(&self) -> Option<ClickHouseUrl> {
        match self {
            Self::DuckDb => None,
            Self::ClickHouse(url) => ClickHouseUrl::parse(url.expose_secret()).ok(),
        }
    }

    /// `duckdb`, or the ClickHouse URL with its password masked: for logs and messages.
    pub fn describe(&self) -> String {
        match self {
            Self::DuckDb => "duckdb".to_owned(),
            Self::ClickHouse(url) => match ClickHouseUrl::parse(url.expose_secret()) {
                Ok(parsed) => parsed.to_string(),
                Err(_) => "clickhouse://…".to_owned(),
            },
        }
    }
}

impl std::fmt::Debug for CostEngineSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duckdb_and_clickhouse_urls_are_read() {
        assert!(matches!(
            CostEngineSetting::parse("duckdb").unwrap(),
            CostEngineSetting::DuckDb
        ));
        assert!(matches!(
            CostEngineSetting::parse(" DuckDB ").unwrap(),
            CostEngineSetting::DuckDb
        ));
        let url = "clickhouse://app:s3cret@ch:8123/costs?cluster=main&shards=a:8123,b:8123";
        let setting = CostEngineSetting::parse(url).unwrap();
        let parsed = setting.clickhouse_url().unwrap();
        assert_eq!(parsed.database(), "costs");
        assert_eq!(parsed.cluster(), Some("main"));
    }

    #[test]
    fn the_password_is_never_shown() {
        let setting = CostEngineSetting::parse("clickhouse://app:s3cret@ch:8123/costs").unwrap();
        for shown in [setting.describe(), format!("{setting:?}")] {
            assert!(!shown.contains("s3cret"), "{shown}");
            assert!(shown.contains("app:***@ch:8123/costs"), "{shown}");
        }
    }

    #[test]
    fn anything_else_is_refused_naming_the_setting_and_the_accepted_forms() {
        for (text, says) in [
            ("sqlite", "`sqlite` is not a cost engine"),
            ("", "an empty value is not a cost engine"),
            (
                "postgres://user:hunter2@db/costs",
                "a `postgres://` URL is not a cost engine",
            ),
        ] {
            let error = CostEngineSetting::parse(text).unwrap_err().to_string();
            assert!(error.starts_with("cost engine: "), "{error}");
            assert!(error.contains(says), "{error}");
            assert!(error.contains("`duckdb`"), "{error}");
            assert!(
                error.contains("clickhouse://user:password@host:8123"),
                "{error}"
            );
            assert!(!error.contains("hunter2"), "{error}");
        }
        let error = CostEngineSetting::parse("clickhouse://app:pw@ch/costs?replicas=2")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("unknown query parameter `replicas`"),
            "{error}"
        );
        assert!(!error.contains(":pw@"), "{error}");
    }
}
