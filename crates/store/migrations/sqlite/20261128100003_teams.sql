-- Microsoft Teams through Microsoft Graph (docs/NOTIFICATIONS.md): a channel type `teams`, the
-- tenant's Teams integrations and their sign-ins in progress.
--
-- SQLite cannot ALTER a CHECK constraint, and rebuilding notification_channels is not possible
-- here: migrations run in a transaction with foreign keys on (PRAGMA foreign_keys is a no-op
-- inside one), so dropping the old table would cascade into the deliveries and the channels
-- budgets name. Widening the CHECK (every stored row still satisfies it) is the change the
-- SQLite documentation allows through writable_schema ("Making Other Kinds Of Table Schema
-- Changes", https://www.sqlite.org/lang_altertable.html#otheralter); RESET reloads the schema,
-- and the CREATE TABLEs below change the schema version, so every connection rereads it.
PRAGMA writable_schema = ON;
UPDATE sqlite_master
    SET sql = replace(sql,
        'CHECK (kind IN (''email'', ''slack'', ''teams_webhook'', ''webhook''))',
        'CHECK (kind IN (''email'', ''slack'', ''teams_webhook'', ''webhook'', ''teams''))')
    WHERE type = 'table' AND name = 'notification_channels';
PRAGMA writable_schema = RESET;

-- One per "Connect with Microsoft Teams": started by a sign-in (no tokens yet), signed in
-- (tokens, encrypted by the server with its secrets key), then configured (a team and a
-- channel picked: `channel_id` is the notification channel of type `teams` it became, whose
-- deletion deletes the integration).
CREATE TABLE teams_integrations (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id       INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    channel_id        INTEGER UNIQUE REFERENCES notification_channels (id) ON DELETE CASCADE,
    access_token      TEXT,
    refresh_token     TEXT,
    expires_at        TEXT,
    team_id           TEXT,
    team_channel_id   TEXT,
    team_name         TEXT,
    team_channel_name TEXT,
    configured_at     TEXT,
    created_at        TEXT    NOT NULL
);
CREATE INDEX teams_integrations_customer_idx ON teams_integrations (customer_id, id);

-- A sign-in in progress: its `state` (random, in the authorisation URL), the PKCE verifier
-- (encrypted), the redirect URI the code is redeemed with, and when it expires (10 minutes).
-- Taken (deleted) by the callback that redeems its code.
CREATE TABLE teams_sign_ins (
    state          TEXT    PRIMARY KEY,
    integration_id INTEGER NOT NULL REFERENCES teams_integrations (id) ON DELETE CASCADE,
    customer_id    INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    verifier       TEXT    NOT NULL,
    redirect_uri   TEXT    NOT NULL,
    expires_at     TEXT    NOT NULL
);
CREATE INDEX teams_sign_ins_integration_idx ON teams_sign_ins (integration_id);

