-- Every roll of a game on record, and the dice report.
-- A game's options as JSON: its Sniper Activation Numbers, booby-trap levels and the players'
-- sides (/game san, /game booby_traps, /game join); each change is also a ledger row.
ALTER TABLE games ADD COLUMN options TEXT;

-- The dice report's aggregates: how many counted rolls had each Original total, by everything
-- /stats filters or groups on, down to the UTC hour of the roll (so since:2h works). Kept by the
-- ledger in the append transaction of the roll, its reveal or its void (src/ledger/tally.ts);
-- filled from the existing rows when this migration runs, and checked against the rows by /verify.
-- Empty strings stand for "none" (no game, side, system or category) so the key has no NULLs.
CREATE TABLE dice_tallies (
  guild_id   TEXT    NOT NULL,
  channel_id TEXT    NOT NULL,
  game_id    TEXT    NOT NULL,
  side       TEXT    NOT NULL,
  user_id    TEXT    NOT NULL,
  system     TEXT    NOT NULL,
  command    TEXT    NOT NULL,
  category   TEXT    NOT NULL,
  shape      TEXT    NOT NULL,
  hour       TEXT    NOT NULL,   -- 2026-12-01T16: the roll's hour, UTC
  total      INTEGER NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (guild_id, channel_id, game_id, side, user_id, system, command, category, shape, hour, total)
) WITHOUT ROWID;
