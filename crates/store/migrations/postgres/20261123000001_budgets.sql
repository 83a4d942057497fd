-- Budgets (spec 2 §3 Budget and Alert) and their configuration change history (§3
-- Configuration history item). Names are not unique: the spec does not ask for it.
-- `amount` is the dollar figure as the domain holds it (an f64, `BudgetAmount`): DOUBLE
-- PRECISION stores and returns it bit for bit on both backends, where NUMERIC or text would
-- round-trip through a decimal conversion the domain never does.
-- JSON columns hold text written by the store (filters, alerts, history values), the same
-- text on both backends.
CREATE TABLE budgets (
    id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id        BIGINT           NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name               TEXT             NOT NULL,
    amount             DOUBLE PRECISION NOT NULL CHECK (amount > 0),
    period             TEXT             NOT NULL CHECK (period IN ('Monthly', 'Quarterly', 'Yearly')),
    filters            TEXT             NOT NULL DEFAULT '[]',
    alerts             TEXT             NOT NULL DEFAULT '[]',
    created_by_user_id BIGINT           REFERENCES users (id) ON DELETE SET NULL,
    created_at         TIMESTAMPTZ      NOT NULL,
    updated_at         TIMESTAMPTZ      NOT NULL
);
CREATE INDEX budgets_customer_idx ON budgets (customer_id, id);

-- One row per creation (`field` = 'created', `new_value` the whole budget) and per changed
-- field of an edit. Deleting the budget deletes its history.
CREATE TABLE budget_config_history (
    id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    budget_id          BIGINT      NOT NULL REFERENCES budgets (id) ON DELETE CASCADE,
    customer_id        BIGINT      NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    changed_by_user_id BIGINT      REFERENCES users (id) ON DELETE SET NULL,
    changed_at         TIMESTAMPTZ NOT NULL,
    field              TEXT        NOT NULL
                       CHECK (field IN ('created', 'name', 'amount', 'period', 'filters', 'alerts')),
    old_value          TEXT,
    new_value          TEXT
);
CREATE INDEX budget_config_history_budget_idx ON budget_config_history (budget_id, changed_at, id);
