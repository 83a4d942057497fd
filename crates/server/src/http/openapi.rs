//! The OpenAPI 3.1 document, generated from the handler annotations and DTO types.

use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
use utoipa::{Modify, OpenApi};

use super::{
    accounts, anomalies, auth, budgets, channels, config, cost, currency, customer, digest,
    discovery, error, export, findings, forecast, ingest, inventory, teams, users,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "Costscope API", description = "Self-hosted cloud cost console. See docs/API.md for the rules and messages."),
    paths(
        config::public_config,
        auth::signup, auth::login, auth::refresh, auth::logout, auth::me,
        auth::invitation, auth::accept_invitation,
        customer::customer,
        discovery::trigger, discovery::list_runs,
        accounts::list_accounts, accounts::aws::register, accounts::aws::onboarding_template, accounts::aws::registration_job, accounts::aws::delete_accounts, accounts::sync::sync_now,
        accounts::gcp::list, accounts::gcp::connect, accounts::gcp::remove, accounts::azure::list, accounts::azure::connect, accounts::azure::remove,
        users::list_users, users::invite_user, users::get_user, users::update_user, users::delete_user,
        cost::aggr::aggregate, cost::compare::compare, cost::filters::filter_options, cost::filters::filter_parameters, cost::spend::spend, cost::service_categories::service_categories, cost::query::query,
        ingest::upload, ingest::get_upload, ingest::list_uploads,
        currency::get_currency, currency::put_currency, currency::upload_rates, currency::list_rates, currency::clear_rates,
        export::export_focus,
        budgets::crud::list, budgets::crud::summary, budgets::crud::get_one, budgets::crud::create, budgets::crud::update, budgets::crud::delete,
        budgets::history::spending, budgets::history::alerts, budgets::history::configuration, budgets::resources::resources,
        channels::list, channels::create, channels::remove, channels::send_test, channels::deliveries,
        teams::login, teams::callback, teams::list_teams, teams::list_channels, teams::select, teams::configured, teams::remove,
        anomalies::list, anomalies::get_one, anomalies::set_status, anomalies::get_settings, anomalies::put_settings,
        digest::get_digest, digest::put_digest,
        inventory::resources::list, inventory::export::export, inventory::stats::count, inventory::property::property, inventory::property::params, inventory::stats::stats, inventory::stats::trend, inventory::resources::unmatched_spend,
        inventory::standard_tags::list, inventory::standard_tags::create, inventory::standard_tags::update, inventory::standard_tags::delete, inventory::standard_tags::stats,
        findings::handlers::list_findings, findings::handlers::savings, findings::handlers::dismiss, findings::handlers::restore, findings::compliance::tag_compliance,
        forecast::get_forecast,
    ),
    components(schemas(
        costscope_core::User, costscope_core::Role, costscope_core::UserStatus, costscope_core::FeatureFlags,
        auth::AuthResponse, auth::SignupRequest, auth::LoginRequest, auth::RefreshRequest, auth::LogoutRequest,
        auth::InvitationInfo, auth::AcceptInvitationRequest,
        customer::Customer, accounts::CloudAccount,
        discovery::JobQueued, discovery::JobRefused, discovery::JobRefusalDetails, discovery::DiscoveryRunDto,
        accounts::dto::ExportDto, accounts::dto::RegistrationDto, accounts::dto::SyncDto, accounts::dto::GcpAccount, accounts::dto::AzureAccount, accounts::dto::AzureAuthKind, accounts::dto::Deleted,
        accounts::aws::RegisterRequest, accounts::aws::RegisterResponse, accounts::aws::RegistrationJobRequest, accounts::aws::RegistrationJobResponse, accounts::aws::DeleteAccountsRequest,
        accounts::gcp::GcpConnectRequest, accounts::gcp::GcpRemoveRequest, accounts::azure::AzureConnectRequest, accounts::azure::AzureRemoveRequest,
        users::InviteRequest, users::InviteResponse, users::UpdateUserRequest, users::MessageResponse,
        error::ErrorBody, config::PublicConfig,
        cost::request::OneOrMany, cost::request::ConditionDto, cost::request::TagValueDto, cost::request::TagConditionDto, cost::request::FilterGroupDto, cost::request::CostTypeDto,
        cost::aggr::AggregateRequest, cost::aggr::AggregateResponse, cost::aggr::CostRow, cost::aggr::CostSummary,
        cost::compare::CompareRequest, cost::compare::CompareResponse, costscope_core::cost::compare::CompareRow, costscope_core::cost::compare::CompareTotals, costscope_core::cost::compare::ChangeStatus,
        cost::filters::FilterOptionsRequest, cost::filters::FilterOptionsResponse, cost::filters::FilterParametersResponse,
        cost::spend::SpendRequest, cost::spend::SpendResponse, cost::spend::SpendPeriod, cost::spend::SpendComparison,
        cost::service_categories::ServiceCategoriesRequest, cost::service_categories::ServiceCategoriesResponse, cost::service_categories::CategoryPeriod, cost::service_categories::CategorySpend, cost::service_categories::ServiceAmount, cost::service_categories::OtherCurrencyAmount, costscope_core::cost::ServiceCategory,
        cost::query::QueryRequest, cost::query::QueryFilter,
        currency::CurrencyPart, currency::CurrencyAmountDto, currency::CurrencySettings, currency::CurrencySettingsRequest, currency::DataCurrency, currency::RatesInfo, currency::ExchangeRateDto, currency::ExchangeRatesPage,
        budgets::dto::BudgetDto, budgets::dto::BudgetRequest, budgets::dto::BudgetSummary, budgets::dto::BudgetHistoryItem,
        budgets::dto::BudgetAlertHistoryItem, budgets::dto::AlertDeliveryDto, budgets::dto::ConfigChangeType, budgets::dto::BudgetConfigHistoryItem,
        channels::ChannelDto, channels::LastDeliveryDto, channels::CreatedChannelDto, channels::ChannelRequest, channels::ChannelTestResult, channels::DeliveryDto,
        costscope_core::notify::ChannelKind, costscope_core::notify::DeliveryStatus,
        teams::OAuthStart, teams::CallbackRequest, teams::SignedIn, teams::TeamsItem, teams::Selected, teams::ConfiguredChannel,
        anomalies::AnomalyDto, anomalies::ContributorDto, anomalies::ContributorsDto, anomalies::CurrencyAmountDto, anomalies::AnomalyList, anomalies::AnomalySeriesDay, anomalies::AnomalyDetail, anomalies::AnomalyStatusRequest, anomalies::AnomalySettingsDto, anomalies::AnomalySettingsRequest, costscope_core::anomaly::AnomalyStatus,
        digest::DigestSettingsDto, digest::DigestSettingsRequest, costscope_core::notify::digest::DigestFrequency,
        budgets::dto::BudgetResource, budgets::dto::ResourcesPagination, budgets::dto::BudgetResourcesResponse,
        costscope_core::budget::BudgetFilter, costscope_core::budget::BudgetFilterType, costscope_core::budget::BudgetPeriod,
        costscope_core::budget::AlertThreshold, costscope_core::budget::AlertRequest, costscope_core::budget::AlertBasis, costscope_core::budget::ThresholdType, costscope_core::budget::BudgetHealth,
        inventory::dto::ResourceRequest, inventory::dto::CTimeFilter, inventory::dto::ResourceDto, inventory::dto::CostPeriod, inventory::dto::ResourcesResponse, inventory::dto::CountRequest, inventory::dto::RegionCounts, inventory::dto::AccountCounts,
        inventory::dto::PropertyRequest, inventory::dto::SnapshotDto, inventory::dto::ResourceParamDto, inventory::dto::StatsRequest, inventory::dto::TypeLive, inventory::dto::AccountLive, inventory::dto::StatsResponse,
        inventory::dto::TrendRequest, inventory::dto::TrendPoint, inventory::dto::UnmatchedResourceDto, inventory::dto::UnmatchedSpendResponse, inventory::dto::StandardTagDto, inventory::dto::StandardTagRequest, inventory::dto::StandardTagStatsDto,
        findings::dto::ResourceRefDto, findings::dto::FindingDto, findings::dto::RecommendationDto, findings::dto::SavingsResponse, findings::dto::TagViolationDto, findings::dto::UntaggedMonthDto, findings::dto::TagComplianceResponse,
        costscope_core::inventory::findings::FindingKind, costscope_core::inventory::findings::FindingCategory, costscope_core::inventory::findings::Severity, costscope_core::inventory::savings::RecommendationKind, costscope_core::inventory::standard_tags::TagViolationKind,
        forecast::Forecast, forecast::ForecastGroup, forecast::ForecastResponse, budgets::dto::BudgetForecastDto,
        ingest::IngestJob, ingest::IngestJobFile, ingest::IngestJobProgress, ingest::IngestPhase, ingest::IngestBillingPeriod, ingest::IngestTotals, ingest::IngestStatus, ingest::UploadAccepted, ingest::UploadForm,
    )),
    modifiers(&BearerAuth, &SharedAnswers),
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// The answers every operation of a kind shares, so that no annotation can forget them (the
/// document lists every status a route answers; schemathesis checks it): 401 for an operation
/// behind a bearer token, 400 for one with parameters or a body (axum's rejections, answered as
/// JSON), 413 for one with a body (`DefaultBodyLimit`, `max_upload_bytes`). An annotation that
/// names the status itself keeps its own description.
struct SharedAnswers;

impl Modify for SharedAnswers {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ];
            for operation in operations.into_iter().flatten() {
                add_shared_answers(operation);
            }
        }
    }
}

fn add_shared_answers(operation: &mut Operation) {
    let secured = operation
        .security
        .as_ref()
        .is_some_and(|requirements| !requirements.is_empty());
    let has_parameters = operation
        .parameters
        .as_ref()
        .is_some_and(|parameters| !parameters.is_empty());
    let has_body = operation.request_body.is_some();
    let mut add = |status: &str, description: &str| {
        let error = ResponseBuilder::new().description(description).content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build(),
        );
        operation
            .responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| error.build().into());
    };
    if secured {
        add("401", "Authentication required");
    }
    if has_parameters || has_body {
        add(
            "400",
            "The request cannot be read: a malformed body, path or query parameter (the message says which)",
        );
    }
    if has_body {
        add("413", "The request body is larger than accepted");
    }
}

pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

pub fn document_json() -> String {
    document()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}
