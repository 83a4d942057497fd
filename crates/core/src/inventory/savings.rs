//! Savings recommendations from discovered resources and their own billed cost. Filled in by
//! the inventory work.
