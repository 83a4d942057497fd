pub mod registration;
pub mod sources;
