use crate::FieldError;

const MIN_CHARS: usize = 4;
const TOO_MANY_SPACES: &str = "    ";

/// A team member's name as edited on the user management page (spec 2 §5 Users).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserName(String);

impl UserName {
    /// Trailing spaces are dropped; every other rule applies to what remains.
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let name = input.trim_end_matches(' ');
        let broken = if name.is_empty() {
            "Username cannot be empty"
        } else if name.starts_with(' ') {
            "Can't start with a space"
        } else if name.contains(TOO_MANY_SPACES) {
            "Too many consecutive spaces"
        } else if name.chars().count() < MIN_CHARS {
            "Must be at least 4 characters"
        } else {
            return Ok(Self(name.to_owned()));
        };
        Err(FieldError::new("name", broken))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(input: &str) -> &'static str {
        UserName::parse(input).unwrap_err().message
    }

    #[test]
    fn empty_or_spaces_only_cannot_be_empty() {
        assert_eq!(message(""), "Username cannot be empty");
        assert_eq!(message("     "), "Username cannot be empty");
    }

    #[test]
    fn leading_space_is_rejected() {
        assert_eq!(message(" Alice"), "Can't start with a space");
    }

    #[test]
    fn four_consecutive_spaces_are_too_many() {
        assert_eq!(message("Ann    Lee"), "Too many consecutive spaces");
        assert!(
            UserName::parse("Ann   Lee").is_ok(),
            "three spaces are allowed"
        );
    }

    #[test]
    fn fewer_than_four_characters_is_too_short() {
        assert_eq!(message("Bob"), "Must be at least 4 characters");
        assert_eq!(message("Bob   "), "Must be at least 4 characters");
    }

    #[test]
    fn trailing_spaces_are_trimmed() {
        let name = UserName::parse("Alice    ").unwrap();
        assert_eq!(name.as_str(), "Alice");
    }

    #[test]
    fn errors_are_on_the_name_field() {
        assert_eq!(UserName::parse("").unwrap_err().field, "name");
    }
}
