use std::fmt;
use std::str::FromStr;

/// The longest provider name kept (FOCUS sets no limit; real names are a few words).
pub const MAX_PROVIDER_NAME_CHARS: usize = 100;

/// Who charged for a cost row. Open, as FOCUS is: the three clouds have short codes (`aws`,
/// `gcp`, `azure`, stored lower-case and shown `AWS`, `GCP`, `Azure`); any other provider
/// (Oracle, Alibaba Cloud, Snowflake, Datadog, OpenAI, …) is stored and shown as the export
/// names it. A provider with no connector is data like any other.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Provider {
    Aws,
    Gcp,
    Azure,
    /// Any other provider, by the name the export gives (trimmed, case kept).
    Other(String),
}

impl Provider {
    /// The three clouds Costscope knows by code (connectors, demo data, native exports).
    pub const CLOUDS: [Provider; 3] = [Provider::Aws, Provider::Gcp, Provider::Azure];

    /// The stored code: `aws`, `gcp`, `azure`, or another provider's name as given.
    pub fn code(&self) -> &str {
        match self {
            Provider::Aws => "aws",
            Provider::Gcp => "gcp",
            Provider::Azure => "azure",
            Provider::Other(name) => name,
        }
    }

    /// The name shown and used as a key in spend answers: `AWS`, `GCP`, `Azure`, or another
    /// provider's name as given.
    pub fn display_name(&self) -> &str {
        match self {
            Provider::Aws => "AWS",
            Provider::Gcp => "GCP",
            Provider::Azure => "Azure",
            Provider::Other(name) => name,
        }
    }

    /// The stored code a filter value selects: a cloud's code for any of its names, else the
    /// value as written (trimmed), which matches that provider's rows exactly.
    pub fn code_for(value: &str) -> String {
        value.parse::<Provider>().map_or_else(
            |_| value.trim().to_owned(),
            |provider| provider.code().to_owned(),
        )
    }

    /// One of the three clouds (not a provider named only by its data).
    pub fn is_cloud(&self) -> bool {
        !matches!(self, Provider::Other(_))
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Parses `aws`, `AWS`, `Amazon Web Services`, `gcp`, `Google Cloud`, `azure`, `Microsoft`, …
/// into the three clouds and any other name into [`Provider::Other`]. Refuses only what cannot
/// be a name: nothing, control characters, or more than [`MAX_PROVIDER_NAME_CHARS`].
impl FromStr for Provider {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let name = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "aws" | "amazon" | "amazon web services" | "amazon web services, inc." => {
                return Ok(Provider::Aws)
            }
            "gcp" | "google" | "google cloud" | "google cloud platform" => {
                return Ok(Provider::Gcp)
            }
            "azure" | "microsoft" | "microsoft azure" | "microsoft corporation" => {
                return Ok(Provider::Azure)
            }
            _ => {}
        }
        if name.is_empty() {
            return Err("provider name is empty".to_owned());
        }
        if name.chars().any(is_hidden_character) {
            return Err(format!(
                "provider name {name:?} contains control characters"
            ));
        }
        if name.chars().count() > MAX_PROVIDER_NAME_CHARS {
            return Err(format!(
                "provider name is longer than {MAX_PROVIDER_NAME_CHARS} characters"
            ));
        }
        Ok(Provider::Other(name.to_owned()))
    }
}

/// Control characters and the invisible formatting ones (bidi overrides, zero-width marks)
/// that would make one name look like another on screen.
fn is_hidden_character(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cloud_codes_and_names_case_insensitively() {
        assert_eq!("AWS".parse::<Provider>(), Ok(Provider::Aws));
        assert_eq!("Google Cloud".parse::<Provider>(), Ok(Provider::Gcp));
        assert_eq!(" azure ".parse::<Provider>(), Ok(Provider::Azure));
        assert_eq!("Microsoft".parse::<Provider>(), Ok(Provider::Azure));
    }

    #[test]
    fn any_other_name_is_a_provider_as_given() {
        assert_eq!(
            " Oracle ".parse::<Provider>(),
            Ok(Provider::Other("Oracle".to_owned()))
        );
        let datadog: Provider = "Datadog".parse().unwrap();
        assert_eq!(datadog.code(), "Datadog");
        assert_eq!(datadog.display_name(), "Datadog");
        assert!(!datadog.is_cloud());
        assert!(Provider::Gcp.is_cloud());
    }

    #[test]
    fn refuses_what_cannot_be_a_name() {
        assert_eq!(
            "  ".parse::<Provider>(),
            Err("provider name is empty".to_owned())
        );
        assert!("Evil\u{202e}Corp".parse::<Provider>().is_err());
        assert!("x".repeat(101).parse::<Provider>().is_err());
        assert!("x".repeat(100).parse::<Provider>().is_ok());
    }

    #[test]
    fn clouds_sort_before_other_providers() {
        let mut providers = [
            Provider::Other("Alibaba Cloud".to_owned()),
            Provider::Azure,
            Provider::Aws,
        ];
        providers.sort();
        assert_eq!(providers[0], Provider::Aws);
        assert_eq!(providers[2], Provider::Other("Alibaba Cloud".to_owned()));
    }

    #[test]
    fn filter_values_become_stored_codes() {
        assert_eq!(Provider::code_for("Amazon Web Services"), "aws");
        assert_eq!(Provider::code_for(" Oracle "), "Oracle");
    }

    #[test]
    fn codes_and_display_names() {
        assert_eq!(Provider::Gcp.code(), "gcp");
        assert_eq!(Provider::Azure.display_name(), "Azure");
    }
}
