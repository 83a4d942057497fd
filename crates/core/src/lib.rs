//! Costscope domain types and the spec's rules. No IO lives here.

pub mod anomaly;
pub mod aws_onboarding;
pub mod budget;
mod clock;
pub mod cloud_accounts;
pub mod cost;
pub mod display;
mod email;
mod feature_flags;
pub mod focus;
pub mod forecast;
mod full_name;
pub mod inventory;
pub mod normalised;
pub mod notify;
mod password;
pub mod rate_limit;
mod records;
mod role;
pub mod upload_name;
mod user_name;
mod validation;

pub use clock::{Clock, SystemClock};
pub use email::Email;
pub use feature_flags::FeatureFlags;
pub use full_name::FullName;
pub use password::Password;
pub use records::{CloudAccount, Customer, User, UserStatus};
pub use role::Role;
pub use user_name::UserName;
pub use validation::FieldError;
