//! A [`Message`] as each channel carries it (docs/NOTIFICATIONS.md "Channels").

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Value};

use super::event::{Message, OPEN_IN_COSTSCOPE};

/// Slack's limits: a header's text, a section's text, a field's text, fields per section.
const SLACK_HEADER_CHARS: usize = 150;
const SLACK_SECTION_CHARS: usize = 3000;
const SLACK_FIELD_CHARS: usize = 2000;
const SLACK_MAX_FIELDS: usize = 10;

/// A plain-text mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub subject: String,
    pub body: String,
}

/// The mail: the title as subject; the text, the details and the link as paragraphs.
pub fn mail(message: &Message) -> Mail {
    let mut body = message.text.clone();
    for paragraph in &message.details {
        body.push_str("\n\n");
        body.push_str(paragraph);
    }
    body.push_str(&format!("\n\n{}: {}\n", message.link_text, message.url));
    Mail {
        subject: message.title.clone(),
        body,
    }
}

/// A Slack incoming-webhook body: `text` (notifications and clients without blocks) and
/// blocks: a header, the text, the facts as fields, a link button.
pub fn slack(message: &Message) -> Value {
    let mut blocks = vec![
        json!({"type": "header",
               "text": {"type": "plain_text", "text": cut(&message.title, SLACK_HEADER_CHARS)}}),
        json!({"type": "section",
               "text": {"type": "mrkdwn", "text": cut(&slack_escape(&message.text), SLACK_SECTION_CHARS)}}),
    ];
    if !message.facts.is_empty() {
        let fields: Vec<Value> = message
            .facts
            .iter()
            .take(SLACK_MAX_FIELDS)
            .map(|fact| {
                let text = format!(
                    "*{}*\n{}",
                    slack_escape(&fact.title),
                    slack_escape(&fact.value)
                );
                json!({"type": "mrkdwn", "text": cut(&text, SLACK_FIELD_CHARS)})
            })
            .collect();
        blocks.push(json!({"type": "section", "fields": fields}));
    }
    blocks.push(json!({"type": "actions", "elements": [{
        "type": "button",
        "text": {"type": "plain_text", "text": OPEN_IN_COSTSCOPE},
        "url": message.url,
    }]}));
    json!({
        "text": slack_escape(&format!("{}: {}", message.title, message.text)),
        "blocks": blocks,
    })
}

/// A Teams Workflows ("When a Teams webhook request is received") body: a message with one
/// Adaptive Card 1.4 holding the title, the text, the facts and an "Open in Costscope" action.
pub fn teams(message: &Message) -> Value {
    let mut body = vec![
        json!({"type": "TextBlock", "text": message.title, "weight": "Bolder", "size": "Medium",
               "wrap": true}),
        json!({"type": "TextBlock", "text": message.text, "wrap": true}),
    ];
    if !message.facts.is_empty() {
        let facts: Vec<Value> = message
            .facts
            .iter()
            .map(|fact| json!({"title": fact.title, "value": fact.value}))
            .collect();
        body.push(json!({"type": "FactSet", "facts": facts}));
    }
    json!({
        "type": "message",
        "attachments": [{
            "contentType": "application/vnd.microsoft.card.adaptive",
            "contentUrl": null,
            "content": {
                "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
                "type": "AdaptiveCard",
                "version": "1.4",
                "body": body,
                "actions": [{"type": "Action.OpenUrl", "title": OPEN_IN_COSTSCOPE,
                             "url": message.url}],
            },
        }],
    })
}

/// A Microsoft Graph `chatMessage` for `POST /teams/{id}/channels/{id}/messages`: the same
/// Adaptive Card as [`teams`], as an attachment whose `content` is the card as a JSON string,
/// referenced from the HTML body.
pub fn teams_graph(message: &Message) -> Value {
    let webhook = teams(message);
    let attachment = &webhook["attachments"][0];
    json!({
        "body": {"contentType": "html", "content": "<attachment id=\"card\"></attachment>"},
        "attachments": [{
            "id": "card",
            "contentType": attachment["contentType"],
            "content": attachment["content"].to_string(),
        }],
    })
}

/// The signed webhook's body: `{id, event, createdAt, data}`. `id` is the delivery's id (a
/// test message's is a string); `data` the event's own payload.
pub fn webhook_envelope(id: Value, event: &str, created_at: DateTime<Utc>, data: &Value) -> Value {
    json!({
        "id": id,
        "event": event,
        "createdAt": created_at.to_rfc3339_opts(SecondsFormat::Secs, true),
        "data": data,
    })
}

/// Slack reads `&`, `<` and `>` as markup in text.
fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// At most `max` characters, the last one `…` when cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::notify::event::Fact;

    fn message() -> Message {
        Message {
            title: "Budget \"R&D <EU>\" reached its 75% alert".to_owned(),
            text:
                "The monthly budget \"R&D <EU>\" of $5,000.00 has reached its 75% alert threshold."
                    .to_owned(),
            details: vec![
                "Spent so far in the period starting 2026-11-01: $5,310.42 (106.2% of the budget)."
                    .to_owned(),
            ],
            facts: vec![
                Fact {
                    title: "Budget".to_owned(),
                    value: "R&D <EU>".to_owned(),
                },
                Fact {
                    title: "Threshold".to_owned(),
                    value: "75%".to_owned(),
                },
            ],
            url: "https://costs.acme.test/budgets/view/7".to_owned(),
            link_text: "See the budget".to_owned(),
        }
    }

    #[test]
    fn a_mail_keeps_the_wording_of_before_channels() {
        let mail = mail(&message());
        assert_eq!(mail.subject, "Budget \"R&D <EU>\" reached its 75% alert");
        assert_eq!(
            mail.body,
            "The monthly budget \"R&D <EU>\" of $5,000.00 has reached its 75% alert threshold.\n\n\
             Spent so far in the period starting 2026-11-01: $5,310.42 (106.2% of the budget).\n\n\
             See the budget: https://costs.acme.test/budgets/view/7\n"
        );
    }

    #[test]
    fn slack_gets_a_header_the_text_the_facts_and_a_button_escaped() {
        let body = slack(&message());
        assert_eq!(
            body["text"],
            "Budget \"R&amp;D &lt;EU&gt;\" reached its 75% alert: The monthly budget \
             \"R&amp;D &lt;EU&gt;\" of $5,000.00 has reached its 75% alert threshold."
        );
        let blocks = body["blocks"].as_array().unwrap();
        assert_eq!(blocks.len(), 4);
        assert_eq!(blocks[0]["type"], "header");
        assert_eq!(blocks[0]["text"]["type"], "plain_text");
        assert_eq!(
            blocks[0]["text"]["text"],
            "Budget \"R&D <EU>\" reached its 75% alert"
        );
        assert_eq!(blocks[1]["text"]["type"], "mrkdwn");
        assert_eq!(
            blocks[2]["fields"],
            json!([{"type": "mrkdwn", "text": "*Budget*\nR&amp;D &lt;EU&gt;"},
                   {"type": "mrkdwn", "text": "*Threshold*\n75%"}])
        );
        assert_eq!(
            blocks[3],
            json!({"type": "actions", "elements": [{"type": "button",
                "text": {"type": "plain_text", "text": "Open in Costscope"},
                "url": "https://costs.acme.test/budgets/view/7"}]})
        );
    }

    #[test]
    fn slack_limits_are_kept() {
        let mut long = message();
        long.title = "x".repeat(400);
        long.facts = (0..15)
            .map(|n| Fact {
                title: format!("F{n}"),
                value: "v".repeat(3000),
            })
            .collect();
        let body = slack(&long);
        let header = body["blocks"][0]["text"]["text"].as_str().unwrap();
        assert_eq!(header.chars().count(), 150);
        assert!(header.ends_with('…'));
        let fields = body["blocks"][2]["fields"].as_array().unwrap();
        assert_eq!(fields.len(), 10);
        assert!(fields
            .iter()
            .all(|field| field["text"].as_str().unwrap().chars().count() <= 2000));
        let mut bare = message();
        bare.facts.clear();
        assert_eq!(
            slack(&bare)["blocks"].as_array().unwrap().len(),
            3,
            "no empty fields section"
        );
    }

    #[test]
    fn teams_gets_one_adaptive_card_1_4() {
        let body = teams(&message());
        assert_eq!(body["type"], "message");
        let attachments = body["attachments"].as_array().unwrap();
        assert_eq!(attachments.len(), 1);
        assert_eq!(
            attachments[0]["contentType"],
            "application/vnd.microsoft.card.adaptive"
        );
        let card = &attachments[0]["content"];
        assert_eq!(card["type"], "AdaptiveCard");
        assert_eq!(card["version"], "1.4");
        assert_eq!(
            card["$schema"],
            "http://adaptivecards.io/schemas/adaptive-card.json"
        );
        assert_eq!(
            card["body"][0]["text"],
            "Budget \"R&D <EU>\" reached its 75% alert"
        );
        assert_eq!(card["body"][0]["weight"], "Bolder");
        assert_eq!(
            card["body"][2],
            json!({"type": "FactSet", "facts": [{"title": "Budget", "value": "R&D <EU>"},
                                                 {"title": "Threshold", "value": "75%"}]})
        );
        assert_eq!(
            card["actions"],
            json!([{"type": "Action.OpenUrl", "title": "Open in Costscope",
                    "url": "https://costs.acme.test/budgets/view/7"}])
        );
    }

    #[test]
    fn graph_gets_the_teams_card_as_a_json_string_attachment() {
        let body = teams_graph(&message());
        assert_eq!(
            body["body"],
            json!({"contentType": "html", "content": "<attachment id=\"card\"></attachment>"})
        );
        let attachments = body["attachments"].as_array().unwrap();
        assert_eq!(attachments.len(), 1);
        assert_eq!(attachments[0]["id"], "card");
        assert_eq!(
            attachments[0]["contentType"],
            "application/vnd.microsoft.card.adaptive"
        );
        let card: Value =
            serde_json::from_str(attachments[0]["content"].as_str().unwrap()).unwrap();
        assert_eq!(card, teams(&message())["attachments"][0]["content"]);
    }

    #[test]
    fn the_webhook_envelope_carries_the_delivery_event_time_and_payload() {
        let created = Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, 2).unwrap()
            + chrono::TimeDelta::microseconds(123_456);
        let envelope = webhook_envelope(
            json!(1842),
            "budget_alert",
            created,
            &json!({"budgetId": 7}),
        );
        assert_eq!(
            envelope,
            json!({"id": 1842, "event": "budget_alert", "createdAt": "2026-11-23T10:00:02Z",
                   "data": {"budgetId": 7}})
        );
    }
}
