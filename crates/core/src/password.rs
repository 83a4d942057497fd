use crate::FieldError;

const MIN_PASSWORD_CHARS: usize = 8;

/// A password that satisfies the sign-up rule. Its Debug never shows the value.
#[derive(Clone)]
pub struct Password(String);

impl Password {
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        if input.is_empty() {
            return Err(FieldError::new("password", "Password is required"));
        }
        if input.chars().count() < MIN_PASSWORD_CHARS {
            return Err(FieldError::new(
                "password",
                "Password must be at least 8 characters",
            ));
        }
        Ok(Self(input.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password([REDACTED])")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_password_is_required() {
        assert_eq!(
            Password::parse("").unwrap_err().message,
            "Password is required"
        );
    }

    #[test]
    fn seven_characters_are_too_short() {
        let err = Password::parse("1234567").unwrap_err();
        assert_eq!(err.message, "Password must be at least 8 characters");
        assert_eq!(err.field, "password");
    }

    #[test]
    fn eight_characters_are_enough() {
        assert_eq!(Password::parse("12345678").unwrap().expose(), "12345678");
    }

    #[test]
    fn debug_does_not_print_the_password() {
        let shown = format!("{:?}", Password::parse("hunter2hunter2").unwrap());
        assert!(!shown.contains("hunter2"));
    }
}
