-- Notification channels (issue 15, docs/NOTIFICATIONS.md): where a tenant's events go, one
-- delivery per event and channel, and the channels a budget names for its own alerts.

-- `target` (an e-mail address or a URL, which may carry credentials) and `secret` (webhook
-- only) are encrypted by the server (SecretBox); `target_hint` is what answers show instead.
CREATE TABLE notification_channels (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id BIGINT      NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    kind        TEXT        NOT NULL CHECK (kind IN ('email', 'slack', 'teams_webhook', 'webhook')),
    name        TEXT        NOT NULL,
    target      TEXT        NOT NULL,
    target_hint TEXT        NOT NULL,
    secret      TEXT,
    created_at  TIMESTAMPTZ NOT NULL,
    UNIQUE (customer_id, name)
);

-- One row per outbox event and channel, written when the event is fanned out (UNIQUE: once per
-- channel, however often the fan-out runs). `channel_name` is copied so that the history keeps
-- it once the channel is deleted (`channel_id` then NULL; pending rows are deleted with it).
-- `next_attempt_at` is NULL once delivered or failed.
CREATE TABLE notification_deliveries (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id     BIGINT      NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    notification_id BIGINT      NOT NULL REFERENCES notification_outbox (id) ON DELETE CASCADE,
    channel_id      BIGINT      REFERENCES notification_channels (id) ON DELETE SET NULL,
    channel_name    TEXT        NOT NULL,
    status          TEXT        NOT NULL
                    CHECK (status IN ('pending', 'retrying', 'delivered', 'failed')),
    attempts        BIGINT      NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ,
    last_attempt_at TIMESTAMPTZ,
    last_error      TEXT,
    delivered_at    TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL,
    UNIQUE (notification_id, channel_id)
);
CREATE INDEX notification_deliveries_due_idx ON notification_deliveries (next_attempt_at, id)
    WHERE status IN ('pending', 'retrying');
CREATE INDEX notification_deliveries_customer_idx
    ON notification_deliveries (customer_id, created_at, id);
CREATE INDEX notification_deliveries_channel_idx
    ON notification_deliveries (channel_id, last_attempt_at, id);

-- A budget that names channels sends its alerts to those only (none: to every channel).
CREATE TABLE budget_channels (
    budget_id   BIGINT NOT NULL REFERENCES budgets (id) ON DELETE CASCADE,
    channel_id  BIGINT NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
    customer_id BIGINT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    PRIMARY KEY (budget_id, channel_id)
);
CREATE INDEX budget_channels_channel_idx ON budget_channels (channel_id);

-- `fanned_out_at`: when the event became one delivery per channel (NULL: not yet, or the
-- tenant has no channel and the e-mail to its owners and admins carries it, as before).
-- `budget_alert_id`: the alert a `budget_alert` event is about (which budget's channels; its
-- deliveries in the alert history).
ALTER TABLE notification_outbox ADD COLUMN fanned_out_at TIMESTAMPTZ;
ALTER TABLE notification_outbox ADD COLUMN budget_alert_id BIGINT;
UPDATE notification_outbox SET budget_alert_id = (payload::jsonb ->> 'alertId')::bigint
    WHERE kind = 'budget_alert';
CREATE INDEX notification_outbox_fan_out_idx ON notification_outbox (customer_id, id)
    WHERE fanned_out_at IS NULL AND delivered_at IS NULL;
CREATE INDEX notification_outbox_alert_idx ON notification_outbox (budget_alert_id);
