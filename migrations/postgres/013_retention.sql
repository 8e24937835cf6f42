-- Retention: see migrations/019_retention.sql. A server's departure, kept until the bot is back or
-- its data is gone; `purging` is set first by the one transaction that deletes the server's rows.
CREATE TABLE guild_departures (
  guild_id TEXT PRIMARY KEY,
  left_at  TEXT NOT NULL,
  purging  INTEGER NOT NULL DEFAULT 0
);

ALTER TABLE guild_config ADD COLUMN retention_days INTEGER;

-- Rows are never changed, and never removed but by the purge of their server (marked above, in the
-- purge's own transaction): that server's whole chain goes, every other chain stays as it was.
CREATE OR REPLACE FUNCTION rolls_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM guild_departures WHERE guild_id = OLD.guild_id AND purging = 1) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'the ledger is append-only: rows cannot be changed or deleted';
END $$;

CREATE INDEX beacon_bindings_guild ON beacon_bindings (guild_id);
CREATE INDEX interaction_evidence_guild ON interaction_evidence (guild_id);
