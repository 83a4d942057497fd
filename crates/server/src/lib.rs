//! The `costscope` server: configuration, startup, the HTTP API and the embedded web app.

pub mod auth;
pub mod backup;
pub mod budgets;
pub mod cli;
pub mod cloud;
pub mod config;
pub mod cost_engine;
pub mod demo;
pub mod forecast;
pub mod http;
pub mod jobs;
pub mod metrics;
pub mod onboarding;
pub mod secrets;
pub mod startup;
pub mod state;
pub mod telemetry;
