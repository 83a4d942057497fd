-- Refresh-token families (rotation with reuse detection, docs/API.md "Auth"): every token
-- rotated from one sign-in carries the family of that sign-in's first token; presenting a
-- token that was already rotated or revoked revokes the whole family, its successor included.
ALTER TABLE refresh_tokens ADD COLUMN family_id TEXT;
UPDATE refresh_tokens SET family_id = token_hash;
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
