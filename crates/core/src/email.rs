use crate::FieldError;

/// An e-mail address, trimmed and lower-cased: one address belongs to one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let email = input.trim();
        if email.is_empty() {
            return Err(FieldError::new("email", "Email is required"));
        }
        if !looks_like_email(email) {
            return Err(FieldError::new("email", "Enter a valid email address"));
        }
        Ok(Self(email.to_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `local@domain.tld`: no whitespace, one `@`, a dot inside the domain.
fn looks_like_email(email: &str) -> bool {
    if email.chars().any(char::is_whitespace) || email.len() > 254 {
        return false;
    }
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
}

impl AsRef<str> for Email {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Email {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_email_is_required() {
        assert_eq!(Email::parse("  ").unwrap_err().message, "Email is required");
    }

    #[test]
    fn malformed_emails_are_rejected() {
        for bad in [
            "plain",
            "a@b",
            "@x.com",
            "a@.com",
            "a b@x.com",
            "a@x.com.",
            "a@@x.com",
        ] {
            let err = Email::parse(bad).unwrap_err();
            assert_eq!(err.message, "Enter a valid email address", "{bad}");
            assert_eq!(err.field, "email");
        }
    }

    #[test]
    fn valid_email_is_trimmed_and_lowercased() {
        assert_eq!(
            Email::parse(" Ann@Example.COM ").unwrap().as_str(),
            "ann@example.com"
        );
    }
}
