use crate::FieldError;

/// Fewest characters a budget name may have (spec 2 §5 Budget, §9).
pub const MIN_NAME_CHARS: usize = 3;
/// Most characters a budget name may have (spec 2 §5 "at most 50", §9 "3 to 50 characters").
pub const MAX_NAME_CHARS: usize = 50;

/// A budget's name (spec 2 §5 Budget).
///
/// Surrounding whitespace is trimmed and the rules apply to what remains, counted in characters.
/// The spec's rule says "at most 50" (§5) and "3 to 50 characters" (§9) while its message says
/// "less than 50"; we follow the rule stated twice, so 50 characters is the longest accepted
/// name and 51 gets the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetName(String);

impl BudgetName {
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let name = input.trim();
        let chars = name.chars().count();
        let broken = if name.is_empty() {
            "Budget name is required"
        } else if chars < MIN_NAME_CHARS {
            "Budget name must be at least 3 characters"
        } else if chars > MAX_NAME_CHARS {
            "Budget name must be less than 50 characters"
        } else {
            return Ok(Self(name.to_owned()));
        };
        Err(FieldError::new("name", broken))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for BudgetName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(input: &str) -> &'static str {
        BudgetName::parse(input).unwrap_err().message
    }

    #[test]
    fn empty_or_blank_name_is_required() {
        assert_eq!(message(""), "Budget name is required");
        assert_eq!(message("   \t "), "Budget name is required");
    }

    #[test]
    fn two_characters_is_too_short_and_three_is_enough() {
        assert_eq!(message("ab"), "Budget name must be at least 3 characters");
        assert_eq!(
            message("  ab  "),
            "Budget name must be at least 3 characters"
        );
        assert_eq!(BudgetName::parse("abc").unwrap().as_str(), "abc");
    }

    #[test]
    fn fifty_characters_is_accepted_and_fifty_one_is_refused() {
        assert!(BudgetName::parse(&"a".repeat(50)).is_ok());
        assert_eq!(
            message(&"a".repeat(51)),
            "Budget name must be less than 50 characters"
        );
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        assert!(BudgetName::parse(&"é".repeat(50)).is_ok());
        assert_eq!(message("éé"), "Budget name must be at least 3 characters");
    }

    #[test]
    fn surrounding_whitespace_is_trimmed() {
        let name = BudgetName::parse("  Prod AWS  ").unwrap();
        assert_eq!(name.as_str(), "Prod AWS");
        assert!(BudgetName::parse(&format!(" {} ", "a".repeat(49))).is_ok());
    }

    #[test]
    fn errors_are_on_the_name_field() {
        assert_eq!(BudgetName::parse("").unwrap_err().field, "name");
    }
}
