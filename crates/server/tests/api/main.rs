//! API tests: the real server on a free port, called over HTTP.

mod auth;
mod cli;
mod customer;
mod helpers;
mod invitations;
mod ops;
mod public_config;
mod tenancy;
mod users;
