//! API tests: the real server on a free port, called over HTTP.

mod auth;
mod budget_notifications;
mod budgets;
mod cli;
mod cli_ingest;
mod cost_accounts;
mod cost_aggr;
mod cost_filters;
mod cost_fixture;
mod cost_openapi;
mod cost_query;
mod cost_spend;
mod cost_tenancy;
mod currency;
mod customer;
mod focus_export;
mod hardening;
mod helpers;
mod ingest;
mod ingest_progress;
mod invitations;
mod ops;
mod providers;
mod public_config;
mod tenancy;
mod users;
