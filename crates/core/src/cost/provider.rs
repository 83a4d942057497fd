use std::fmt;
use std::str::FromStr;

/// A cloud provider. Stored and filtered lower-case (`aws`, `gcp`, `azure`, FOCUS ProviderName
/// lower-cased); shown as `AWS`, `GCP`, `Azure`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Provider {
    Aws,
    Gcp,
    Azure,
}

impl Provider {
    pub const ALL: [Provider; 3] = [Provider::Aws, Provider::Gcp, Provider::Azure];

    /// The stored code: `aws`, `gcp`, `azure`.
    pub const fn code(self) -> &'static str {
        match self {
            Provider::Aws => "aws",
            Provider::Gcp => "gcp",
            Provider::Azure => "azure",
        }
    }

    /// The display name used as a key in spend answers: `AWS`, `GCP`, `Azure`.
    pub const fn display_name(self) -> &'static str {
        match self {
            Provider::Aws => "AWS",
            Provider::Gcp => "GCP",
            Provider::Azure => "Azure",
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Parses `aws`, `AWS`, `Amazon Web Services`, `gcp`, `Google Cloud`, `azure`, `Microsoft`, …
impl FromStr for Provider {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let lower = value.trim().to_ascii_lowercase();
        match lower.as_str() {
            "aws" | "amazon" | "amazon web services" => Ok(Provider::Aws),
            "gcp" | "google" | "google cloud" | "google cloud platform" => Ok(Provider::Gcp),
            "azure" | "microsoft" | "microsoft azure" => Ok(Provider::Azure),
            _ => Err(format!("Unknown cloud provider {value}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_codes_and_names_case_insensitively() {
        assert_eq!("AWS".parse::<Provider>(), Ok(Provider::Aws));
        assert_eq!("Google Cloud".parse::<Provider>(), Ok(Provider::Gcp));
        assert_eq!(" azure ".parse::<Provider>(), Ok(Provider::Azure));
        assert_eq!(
            "oracle".parse::<Provider>(),
            Err("Unknown cloud provider oracle".to_owned())
        );
    }

    #[test]
    fn codes_and_display_names() {
        assert_eq!(Provider::Gcp.code(), "gcp");
        assert_eq!(Provider::Azure.display_name(), "Azure");
    }
}
