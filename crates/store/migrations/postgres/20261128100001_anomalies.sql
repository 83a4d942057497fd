-- Cost anomalies (stop 25, docs/ANOMALIES.md "In the product"): one row per run of anomalous
-- days of one series, and each tenant's anomaly settings.

-- `series_key`: the series' identity as a JSON array (`["service", provider, account, service,
-- currency]` or `["tag", key, value, currency]`), written by costscope_core; the readable
-- columns beside it are NULL where the series has no such part. A run is stored once per
-- series and first day (UNIQUE) and grows while it lasts. `contributors`: JSON text of the
-- first day's usage types and resources.
CREATE TABLE anomalies (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id  BIGINT  NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    series_key   TEXT    NOT NULL,
    provider     TEXT,
    account_id   TEXT,
    account_name TEXT,
    service      TEXT,
    tag_key      TEXT,
    tag_value    TEXT,
    currency     TEXT    NOT NULL,
    start_day    DATE    NOT NULL,
    end_day      DATE    NOT NULL,
    days         BIGINT  NOT NULL,
    actual       DOUBLE PRECISION NOT NULL,
    expected     DOUBLE PRECISION NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'dismissed', 'expected')),
    contributors TEXT    NOT NULL,
    detected_at  TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    UNIQUE (customer_id, series_key, start_day)
);
CREATE INDEX anomalies_range_idx ON anomalies (customer_id, end_day, start_day);

-- Thresholds and monitored tag keys (`tag_keys`: JSON array text); no row: the defaults.
CREATE TABLE anomaly_settings (
    customer_id        BIGINT PRIMARY KEY REFERENCES customers (id) ON DELETE CASCADE,
    relative_threshold DOUBLE PRECISION    NOT NULL,
    absolute_threshold DOUBLE PRECISION    NOT NULL,
    tag_keys           TEXT    NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);

-- The channels anomaly notifications go to (none: every channel of the tenant).
CREATE TABLE anomaly_channels (
    customer_id BIGINT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    channel_id  BIGINT NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
    PRIMARY KEY (customer_id, channel_id)
);
CREATE INDEX anomaly_channels_channel_idx ON anomaly_channels (channel_id);
