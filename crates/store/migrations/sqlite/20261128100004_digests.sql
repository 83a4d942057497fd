-- Scheduled digests (issue 15, docs/NOTIFICATIONS.md "Digests").

-- A user's digest choice; no row: off, e-mail on, no channel.
CREATE TABLE digest_settings (
    user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    frequency   TEXT    NOT NULL CHECK (frequency IN ('off', 'daily', 'weekly')),
    email       INTEGER NOT NULL,
    channel_id  INTEGER REFERENCES notification_channels (id) ON DELETE SET NULL,
    updated_at  TEXT    NOT NULL
);
CREATE INDEX digest_settings_due_idx ON digest_settings (frequency, customer_id);
CREATE INDEX digest_settings_channel_idx ON digest_settings (channel_id);

-- One digest per user, frequency and period, written with its outbox event (`digest`). The
-- chosen channel gets it through the fan-out; `email_to` (when e-mailed) is sent from here.
CREATE TABLE digest_sends (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id           INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    user_id               INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    frequency             TEXT    NOT NULL,
    period_end            TEXT    NOT NULL,
    notification_id       INTEGER NOT NULL REFERENCES notification_outbox (id) ON DELETE CASCADE,
    channel_id            INTEGER REFERENCES notification_channels (id) ON DELETE SET NULL,
    email_to              TEXT,
    email_status          TEXT    CHECK (email_status IN ('pending', 'retrying', 'delivered', 'failed')),
    email_attempts        INTEGER NOT NULL DEFAULT 0,
    email_next_attempt_at TEXT,
    email_last_error      TEXT,
    email_delivered_at    TEXT,
    created_at            TEXT    NOT NULL,
    UNIQUE (user_id, frequency, period_end)
);
CREATE INDEX digest_sends_notification_idx ON digest_sends (notification_id);
CREATE INDEX digest_sends_mail_idx ON digest_sends (email_next_attempt_at);
