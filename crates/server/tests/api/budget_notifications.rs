//! Budget alerts leave the outbox as e-mail to the customer's owners and admins when SMTP is
//! configured, and a failed delivery is retried later.

use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeDelta, Utc};
use costscope_connectors::testing::{FakeSmtpServer, ReceivedMail};
use costscope_connectors::Mailer;
use costscope_core::SystemClock;
use costscope_server::config::SmtpConfig;
use costscope_server::jobs::notifications::NotificationDelivery;
use costscope_server::secrets::SecretBox;
use secrecy::SecretString;

use crate::budgets::{account_budget, budget_data, create};
use crate::cost_fixture::upload;
use crate::helpers::{spawn_app, spawn_app_with};

async fn next_mail(smtp: &FakeSmtpServer) -> ReceivedMail {
    tokio::time::timeout(Duration::from_secs(20), smtp.next_message())
        .await
        .expect("a mail arrives")
}

#[tokio::test]
async fn each_recorded_alert_is_mailed_to_the_owners_and_admins() {
    let smtp = FakeSmtpServer::start().await;
    let smtp_url = smtp.url();
    let app = spawn_app_with(|config| {
        config.public_url = Some("https://costs.acme.test".to_owned());
        config.smtp = Some(SmtpConfig {
            url: SecretString::from(smtp_url),
            from: "Costscope <noreply@acme.test>".to_owned(),
        });
    })
    .await;
    let owner = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    app.add_member(&owner, "Ada Admin", "ada@acme.test", "Admin")
        .await;
    app.add_member(&owner, "Uma User", "uma@acme.test", "User")
        .await;
    for _ in 0..2 {
        next_mail(&smtp).await; // the invitations
    }
    upload(&app, &owner, &budget_data()).await;

    // 808 spent of 800: both the 75 % and the 100 % alert are reached at once.
    let budget = create(
        &app,
        &owner,
        &account_budget("Prod AWS", "111111111111", 800.0),
    )
    .await;

    let mut mails = Vec::new();
    for _ in 0..4 {
        let mail = next_mail(&smtp).await;
        let subject = mail
            .data
            .lines()
            .find_map(|line| line.strip_prefix("Subject: "))
            .unwrap()
            .to_owned();
        mails.push((mail.recipients.join(","), subject, mail.data));
    }
    mails.sort();
    let sent: Vec<(&str, &str)> = mails
        .iter()
        .map(|(to, subject, _)| (to.as_str(), subject.as_str()))
        .collect();
    assert_eq!(
        sent,
        vec![
            (
                "ada@acme.test",
                "Budget \"Prod AWS\" reached its 100% alert"
            ),
            ("ada@acme.test", "Budget \"Prod AWS\" reached its 75% alert"),
            (
                "olive@acme.test",
                "Budget \"Prod AWS\" reached its 100% alert"
            ),
            (
                "olive@acme.test",
                "Budget \"Prod AWS\" reached its 75% alert"
            ),
        ],
        "plain users get none"
    );
    let link = format!("https://costs.acme.test/budgets/view/{}", budget["id"]);
    assert!(
        mails
            .iter()
            .all(|(_, _, data)| data.contains(&link) && data.contains("$808.00")),
        "{mails:?}"
    );

    // Once delivered, nothing is due any more, now or later.
    let later = Utc::now() + TimeDelta::days(1);
    for _ in 0..50 {
        if app
            .store
            .pending_notifications(later, 10)
            .await
            .unwrap()
            .is_empty()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the notifications were not marked delivered");
}

#[tokio::test]
async fn a_failed_delivery_is_retried_later() {
    // No SMTP on the app: the alerts wait in the outbox.
    let app = spawn_app().await;
    let owner = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    upload(&app, &owner, &budget_data()).await;
    create(
        &app,
        &owner,
        &account_budget("Prod AWS", "111111111111", 800.0),
    )
    .await;
    assert_eq!(
        app.store
            .pending_notifications(Utc::now(), 10)
            .await
            .unwrap()
            .len(),
        2
    );

    // A mail server that refuses connections.
    let unreachable = Mailer::new("smtp://127.0.0.1:1", "noreply@acme.test").unwrap();
    let delivery = NotificationDelivery::new(
        app.store.clone(),
        Arc::new(SystemClock),
        Some(unreachable),
        "https://costs.acme.test".to_owned(),
        test_secrets(),
    );
    let outcome = delivery.run_once().await.unwrap();
    assert_eq!((outcome.delivered, outcome.failed), (0, 2));
    assert!(
        app.store
            .pending_notifications(Utc::now(), 10)
            .await
            .unwrap()
            .is_empty(),
        "postponed"
    );
    let retry = app
        .store
        .pending_notifications(Utc::now() + TimeDelta::minutes(2), 10)
        .await
        .unwrap();
    assert_eq!(retry.len(), 2);
    assert!(retry.iter().all(|notification| notification.attempts == 1
        && notification.delivered_at.is_none()
        && notification
            .last_error
            .as_deref()
            .is_some_and(|error| error.contains("olive@acme.test"))));

    // Without a channel the job leaves everything where it is.
    let no_channel = NotificationDelivery::new(
        app.store.clone(),
        Arc::new(SystemClock),
        None,
        String::new(),
        test_secrets(),
    );
    assert_eq!(no_channel.run_once().await.unwrap(), Default::default());
}

/// A secrets key for jobs built by hand (the tenants here have no channels to decrypt).
fn test_secrets() -> Arc<SecretBox> {
    Arc::new(SecretBox::new(
        "a secrets key of the notification tests",
        &[],
    ))
}
