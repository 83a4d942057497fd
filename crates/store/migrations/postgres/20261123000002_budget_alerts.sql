-- Budget alert history (spec 2 §3 Alert history entry) and the durable notification outbox
-- (docs/API-BUDGETS.md "Alerts").
--
-- A threshold reached in a period is recorded once: the UNIQUE rule holds across repeated
-- evaluation runs, re-ingestion and several replicas (the insert is ON CONFLICT DO NOTHING).
-- `threshold_value` is the f64 stored in the budget's alerts, bit for bit (DOUBLE PRECISION),
-- so the same threshold always meets the same row. Deleting the budget deletes its alert
-- history.
CREATE TABLE budget_alert_history (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    budget_id        BIGINT           NOT NULL REFERENCES budgets (id) ON DELETE CASCADE,
    customer_id      BIGINT           NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    period_start     DATE             NOT NULL,
    threshold_type   TEXT             NOT NULL CHECK (threshold_type IN ('Percentage', 'Absolute')),
    threshold_value  DOUBLE PRECISION NOT NULL,
    spent_amount     DOUBLE PRECISION NOT NULL,
    spend_percentage DOUBLE PRECISION NOT NULL,
    triggered_at     TIMESTAMPTZ      NOT NULL,
    UNIQUE (budget_id, period_start, threshold_type, threshold_value)
);
CREATE INDEX budget_alert_history_budget_idx ON budget_alert_history (budget_id, triggered_at, id);

-- Notifications waiting for a delivery channel. A row stays until it is marked delivered; its
-- payload (JSON text, the same text on both backends) is self-contained, so it outlives the
-- budget that raised it. `kind` is not constrained here: new kinds must not need a migration.
CREATE TABLE notification_outbox (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id     BIGINT      NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    kind            TEXT        NOT NULL,
    payload         TEXT        NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    attempts        BIGINT      NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL,
    delivered_at    TIMESTAMPTZ,
    last_error      TEXT
);
CREATE INDEX notification_outbox_pending_idx ON notification_outbox (next_attempt_at, id)
    WHERE delivered_at IS NULL;
