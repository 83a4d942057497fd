-- Microsoft Teams through Microsoft Graph (docs/NOTIFICATIONS.md): a channel type `teams`, the
-- tenant's Teams integrations and their sign-ins in progress.
ALTER TABLE notification_channels DROP CONSTRAINT notification_channels_kind_check;
ALTER TABLE notification_channels ADD CONSTRAINT notification_channels_kind_check
    CHECK (kind IN ('email', 'slack', 'teams_webhook', 'webhook', 'teams'));

-- One per "Connect with Microsoft Teams": started by a sign-in (no tokens yet), signed in
-- (tokens, encrypted by the server with its secrets key), then configured (a team and a
-- channel picked: `channel_id` is the notification channel of type `teams` it became, whose
-- deletion deletes the integration).
CREATE TABLE teams_integrations (
    id                BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id       BIGINT      NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    channel_id        BIGINT      UNIQUE REFERENCES notification_channels (id) ON DELETE CASCADE,
    access_token      TEXT,
    refresh_token     TEXT,
    expires_at        TIMESTAMPTZ,
    team_id           TEXT,
    team_channel_id   TEXT,
    team_name         TEXT,
    team_channel_name TEXT,
    configured_at     TIMESTAMPTZ,
    created_at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX teams_integrations_customer_idx ON teams_integrations (customer_id, id);

-- A sign-in in progress: its `state` (random, in the authorisation URL), the PKCE verifier
-- (encrypted), the redirect URI the code is redeemed with, and when it expires (10 minutes).
-- Taken (deleted) by the callback that redeems its code.
CREATE TABLE teams_sign_ins (
    state          TEXT        PRIMARY KEY,
    integration_id BIGINT      NOT NULL REFERENCES teams_integrations (id) ON DELETE CASCADE,
    customer_id    BIGINT      NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    verifier       TEXT        NOT NULL,
    redirect_uri   TEXT        NOT NULL,
    expires_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX teams_sign_ins_integration_idx ON teams_sign_ins (integration_id);
