-- Cost anomalies (stop 25, docs/ANOMALIES.md "In the product"): one row per run of anomalous
-- days of one series, and each tenant's anomaly settings.

-- `series_key`: the series' identity as a JSON array (`["service", provider, account, service,
-- currency]` or `["tag", key, value, currency]`), written by costscope_core; the readable
-- columns beside it are NULL where the series has no such part. A run is stored once per
-- series and first day (UNIQUE) and grows while it lasts. `contributors`: JSON text of the
-- first day's usage types and resources.
CREATE TABLE anomalies (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id  INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    series_key   TEXT    NOT NULL,
    provider     TEXT,
    account_id   TEXT,
    account_name TEXT,
    service      TEXT,
    tag_key      TEXT,
    tag_value    TEXT,
    currency     TEXT    NOT NULL,
    start_day    TEXT    NOT NULL,
    end_day      TEXT    NOT NULL,
    days         INTEGER NOT NULL,
    actual       REAL    NOT NULL,
    expected     REAL    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'dismissed', 'expected')),
    contributors TEXT    NOT NULL,
    detected_at  TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL,
    UNIQUE (customer_id, series_key, start_day)
);
CREATE INDEX anomalies_range_idx ON anomalies (customer_id, end_day, start_day);

-- Thresholds and monitored tag keys (`tag_keys`: JSON array text); no row: the defaults.
CREATE TABLE anomaly_settings (
    customer_id        INTEGER PRIMARY KEY REFERENCES customers (id) ON DELETE CASCADE,
    relative_threshold REAL    NOT NULL,
    absolute_threshold REAL    NOT NULL,
    tag_keys           TEXT    NOT NULL,
    updated_at         TEXT    NOT NULL
);

-- The channels anomaly notifications go to (none: every channel of the tenant).
CREATE TABLE anomaly_channels (
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    channel_id  INTEGER NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
    PRIMARY KEY (customer_id, channel_id)
);
CREATE INDEX anomaly_channels_channel_idx ON anomaly_channels (channel_id);
