use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::FieldError;

/// A user's role inside their customer (spec 2 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Owner,
    Admin,
    User,
}

impl Role {
    /// A role given to another user (invite, edit): Admin or User, in any letter case.
    pub fn parse_assignable(input: &str) -> Result<Self, FieldError> {
        let role = input.trim();
        if role.is_empty() {
            return Err(FieldError::new("role", "Role is required"));
        }
        match role.parse::<Role>() {
            Ok(role @ (Role::Admin | Role::User)) => Ok(role),
            _ => Err(FieldError::new("role", "Role must be Admin or User")),
        }
    }

    /// Owner and admin manage users and integrations.
    pub fn is_admin_level(self) -> bool {
        matches!(self, Role::Owner | Role::Admin)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::User => "user",
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("unknown role {0:?}")]
pub struct UnknownRole(String);

impl std::str::FromStr for Role {
    type Err = UnknownRole;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "owner" => Ok(Role::Owner),
            "admin" => Ok(Role::Admin),
            "user" => Ok(Role::User),
            _ => Err(UnknownRole(s.to_owned())),
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignable_roles_accept_any_case() {
        assert_eq!(Role::parse_assignable("Admin").unwrap(), Role::Admin);
        assert_eq!(Role::parse_assignable("USER").unwrap(), Role::User);
        assert_eq!(Role::parse_assignable(" user ").unwrap(), Role::User);
    }

    #[test]
    fn owner_cannot_be_assigned() {
        let err = Role::parse_assignable("Owner").unwrap_err();
        assert_eq!(
            (err.field, err.message),
            ("role", "Role must be Admin or User")
        );
    }

    #[test]
    fn unknown_role_is_rejected() {
        assert_eq!(
            Role::parse_assignable("root").unwrap_err().message,
            "Role must be Admin or User"
        );
    }

    #[test]
    fn blank_role_is_required() {
        assert_eq!(
            Role::parse_assignable("").unwrap_err().message,
            "Role is required"
        );
    }

    #[test]
    fn only_owner_and_admin_are_admin_level() {
        assert!(Role::Owner.is_admin_level());
        assert!(Role::Admin.is_admin_level());
        assert!(!Role::User.is_admin_level());
    }

    #[test]
    fn serializes_lowercase() {
        assert_eq!(serde_json::to_string(&Role::Admin).unwrap(), "\"admin\"");
    }
}
