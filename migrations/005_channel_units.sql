-- Unit names each channel has rolled, per system, with the newest ledger position that used them:
-- autocomplete reads this instead of grouping every roll of a busy channel on each
-- keystroke. Kept by the ledger's append, in the same transaction as the row.
CREATE TABLE channel_units (
  guild_id   TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  system     TEXT NOT NULL,
  unit_key   TEXT NOT NULL,
  unit       TEXT NOT NULL,
  last_seq   INTEGER NOT NULL,
  PRIMARY KEY (guild_id, channel_id, system, unit_key)
) WITHOUT ROWID;
CREATE INDEX channel_units_recent ON channel_units (guild_id, channel_id, system, last_seq);

INSERT INTO channel_units (guild_id, channel_id, system, unit_key, unit, last_seq)
SELECT guild_id, channel_id, COALESCE(system, ''), lower(unit), unit, MAX(seq)
FROM rolls WHERE unit IS NOT NULL
GROUP BY guild_id, channel_id, COALESCE(system, ''), lower(unit);
