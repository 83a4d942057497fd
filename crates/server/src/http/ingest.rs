//! Placeholder module: routes are added by the issue-3 work in progress.

use axum::Router;

use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
}
