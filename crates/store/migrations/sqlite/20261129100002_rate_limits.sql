-- Rate limits of the auth routes, shared by every `serve` replica (issue 18, "Replicas").
-- Keys are 16-byte keyed digests (HMAC under a key derived from the auth secret), never raw
-- e-mails or addresses. Times are microseconds since the Unix epoch. A row whose `expires_at`
-- has passed holds nothing that still counts and is purged.

-- Events per key in a sliding window: `scope` names the limit (sign-in attempts per address,
-- sign-ups, refreshes, invitation links); `hits` the counted event times, oldest first, as
-- 8-byte big-endian integers.
CREATE TABLE rate_limit_windows (
    scope        TEXT   NOT NULL,
    key_hash     BLOB   NOT NULL,
    hits         BLOB   NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    PRIMARY KEY (scope, key_hash)
);
CREATE INDEX rate_limit_windows_expiry_idx ON rate_limit_windows (expires_at);
CREATE INDEX rate_limit_windows_seen_idx ON rate_limit_windows (scope, last_seen_at);

-- Failed sign-ins per (client address, e-mail) pair.
CREATE TABLE sign_in_failures (
    key_hash        BLOB   PRIMARY KEY,
    failures        INTEGER NOT NULL,
    last_failure_at INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_expiry_idx ON sign_in_failures (expires_at);
CREATE INDEX sign_in_failures_seen_idx ON sign_in_failures (last_failure_at);
