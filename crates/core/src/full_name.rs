use crate::FieldError;

/// The name typed at sign-up: required, surrounding whitespace dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullName(String);

impl FullName {
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let name = input.trim();
        if name.is_empty() {
            return Err(FieldError::new("name", "Name is required"));
        }
        Ok(Self(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_name_is_required() {
        let err = FullName::parse("   ").unwrap_err();
        assert_eq!((err.field, err.message), ("name", "Name is required"));
    }

    #[test]
    fn name_is_trimmed() {
        assert_eq!(
            FullName::parse("  Ada Lovelace ").unwrap().as_str(),
            "Ada Lovelace"
        );
    }
}
