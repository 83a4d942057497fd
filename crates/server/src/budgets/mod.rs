//! Budgets beyond storage: what a budget's filters select in the cost data, where it stands
//! now, and the evaluation of its alert thresholds. Used by the budget API and the budget
//! evaluation job.

pub mod demo;
pub mod evaluation;
pub mod filter;
pub mod forecast;
pub mod standing;
