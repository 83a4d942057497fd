pub mod sources;
pub mod registration;
