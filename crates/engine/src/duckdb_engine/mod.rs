//! The embedded DuckDB implementation of [`crate::CostEngine`] (work in progress).
