use lettre::message::{header::ContentType, Mailbox};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("invalid SMTP URL: {0}")]
    InvalidUrl(#[source] lettre::transport::smtp::Error),
    #[error("invalid address {address:?}: {source}")]
    InvalidAddress {
        address: String,
        #[source]
        source: lettre::address::AddressError,
    },
    #[error("could not build the message: {0}")]
    Build(#[from] lettre::error::Error),
    #[error("SMTP delivery failed: {0}")]
    Send(#[from] lettre::transport::smtp::Error),
}

/// A plain-text e-mail to one recipient.
#[derive(Debug, Clone)]
pub struct OutgoingMail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Sends mail through one SMTP server.
///
/// The URL follows lettre: `smtp://host:port` (plain), `smtp://host:587?tls=required`
/// (STARTTLS), `smtps://host:465` (TLS), with optional `user:password@`.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The transport holds the credentials from the URL: never print it.
        f.debug_struct("Mailer")
            .field("from", &self.from.to_string())
            .finish_non_exhaustive()
    }
}

impl Mailer {
    pub fn new(smtp_url: &str, from: &str) -> Result<Self, MailError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url)
            .map_err(MailError::InvalidUrl)?
            .build();
        Ok(Self {
            transport,
            from: parse_mailbox(from)?,
        })
    }

    #[tracing::instrument(skip_all)]
    pub async fn send(&self, mail: OutgoingMail) -> Result<(), MailError> {
        let message = Message::builder()
            .from(self.from.clone())
            .to(parse_mailbox(&mail.to)?)
            .subject(mail.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body)?;
        self.transport.send(message).await?;
        Ok(())
    }
}

fn parse_mailbox(address: &str) -> Result<Mailbox, MailError> {
    address.parse().map_err(|source| MailError::InvalidAddress {
        address: address.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::FakeSmtpServer;

    #[tokio::test]
    async fn sends_a_plain_text_mail_through_smtp() {
        let server = FakeSmtpServer::start().await;
        let mailer = Mailer::new(&server.url(), "Costscope <noreply@costscope.local>").unwrap();

        mailer
            .send(OutgoingMail {
                to: "ann@example.com".into(),
                subject: "You are invited".into(),
                body: "Open http://localhost/invite/abc123 to join.".into(),
            })
            .await
            .unwrap();

        let received = server.next_message().await;
        assert_eq!(received.recipients, vec!["ann@example.com".to_owned()]);
        assert!(received.data.contains("Subject: You are invited"));
        assert!(received.data.contains("http://localhost/invite/abc123"));
    }

    #[test]
    fn rejects_an_invalid_sender() {
        let err = Mailer::new("smtp://127.0.0.1:2525", "not an address").unwrap_err();
        assert!(matches!(err, MailError::InvalidAddress { .. }));
    }
}
