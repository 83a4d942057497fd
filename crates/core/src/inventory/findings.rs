//! IAM and compliance findings on discovered resources (spec 1 §2.6's IAM and Compliance tabs,
//! built natively). Filled in by the inventory work.
