-- Every roll of a game on record, and the dice report: see migrations/010_dice_report.sql.
ALTER TABLE games ADD COLUMN options TEXT;

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
  hour       TEXT    NOT NULL,
  total      INTEGER NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (guild_id, channel_id, game_id, side, user_id, system, command, category, shape, hour, total)
);
