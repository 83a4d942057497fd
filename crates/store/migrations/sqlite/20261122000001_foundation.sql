CREATE TABLE customers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    tier       INTEGER NOT NULL DEFAULT 0,
    trial_end  TEXT    NOT NULL,
    is_demo    BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TEXT    NOT NULL
);

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id   INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    email         TEXT    NOT NULL,
    password_hash TEXT,
    role          TEXT    NOT NULL CHECK (role IN ('owner', 'admin', 'user')),
    status        TEXT    NOT NULL CHECK (status IN ('active', 'pending')),
    created_at    TEXT    NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_customer_idx ON users (customer_id);

CREATE TABLE refresh_tokens (
    token_hash TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at TEXT    NOT NULL,
    revoked_at TEXT
);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

CREATE TABLE invitations (
    token_hash TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    invited_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    expires_at TEXT    NOT NULL,
    used_at    TEXT
);
CREATE INDEX invitations_user_idx ON invitations (user_id);

CREATE TABLE cloud_accounts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id  INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    provider     TEXT    NOT NULL CHECK (provider IN ('aws', 'gcp', 'azure')),
    account_id   TEXT    NOT NULL,
    account_name TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    UNIQUE (customer_id, provider, account_id)
);
