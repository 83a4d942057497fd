//! FOCUS (FinOps Open Cost and Usage Specification) as Costscope writes it: the versions it
//! exports, each version's columns and which are mandatory, the allowed values it must respect,
//! and the export request (range, format, version) with its rules. One place: the engine's
//! export query and the HTTP and CLI layers read these, none keeps its own list.

mod columns;
mod export;

pub use columns::{
    columns, ColumnType, FocusColumn, CHARGE_CATEGORIES, FOCUS_1_2, FOCUS_1_3, SERVICE_CATEGORIES,
};
pub use export::{ExportFormat, FocusExportRequest, FocusVersion, MAX_EXPORT_DAYS};

use crate::cost::Provider;

/// The name a FOCUS dataset gives a provider (ProviderName, PublisherName, InvoiceIssuerName,
/// ServiceProviderName, HostProviderName when the data does not say otherwise): the clouds'
/// legal names as their own FOCUS exports write them, any other provider as stored.
pub fn provider_name(provider: &Provider) -> &str {
    match provider {
        Provider::Aws => "Amazon Web Services",
        Provider::Gcp => "Google Cloud",
        Provider::Azure => "Microsoft",
        Provider::Other(name) => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clouds_get_the_names_their_focus_exports_use_and_read_back_as_the_same_cloud() {
        for provider in Provider::CLOUDS {
            let name = provider_name(&provider);
            assert_eq!(name.parse::<Provider>(), Ok(provider.clone()), "{name}");
        }
        let oracle = Provider::Other("Oracle".to_owned());
        assert_eq!(provider_name(&oracle), "Oracle");
    }
}
