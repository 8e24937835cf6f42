-- Retention: a server's data is deleted a while after the bot leaves it (RETENTION_DAYS, or the
-- server's own /config retention). The departure is kept here until the bot is back or the data is
-- gone; `purging` is set by the one transaction that deletes the server's rows, first, and the row
-- is deleted at its end, so no other transaction ever sees it set.
CREATE TABLE guild_departures (
  guild_id TEXT PRIMARY KEY,
  left_at  TEXT NOT NULL,
  purging  INTEGER NOT NULL DEFAULT 0
);

-- The days a server's data is kept after the bot leaves it (/config retention); NULL: the host's default.
ALTER TABLE guild_config ADD COLUMN retention_days INTEGER;

-- The chained rows and sealed payloads still refuse every DELETE, but those of a server its purge
-- has marked (above): the whole chain of that server goes, every other chain stays as it was.
DROP TRIGGER rolls_no_delete;
CREATE TRIGGER rolls_no_delete BEFORE DELETE ON rolls
WHEN NOT EXISTS (SELECT 1 FROM guild_departures WHERE guild_id = OLD.guild_id AND purging = 1)
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: rows cannot be deleted'); END;

DROP TRIGGER sealed_payloads_no_delete;
CREATE TRIGGER sealed_payloads_no_delete BEFORE DELETE ON sealed_payloads
WHEN NOT EXISTS (SELECT 1 FROM guild_departures WHERE guild_id = OLD.guild_id AND purging = 1)
BEGIN SELECT RAISE(ABORT, 'sealed payloads are append-only: they cannot be deleted'); END;

-- A purge deletes a server's rows a chunk at a time: these two grow with every beacon roll and
-- every signed request, and had no index that finds a server's rows.
CREATE INDEX beacon_bindings_guild ON beacon_bindings (guild_id);
CREATE INDEX interaction_evidence_guild ON interaction_evidence (guild_id);
