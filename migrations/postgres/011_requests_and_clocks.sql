-- Rolls one player asks another for (/ask), and the clocks of games that last weeks. Beside the
-- chain, like bindings: a request's own row and its answer's row are on the chain; what is kept
-- here is what changes (open, answered, cancelled) and what the reminders and the status card need.
CREATE TABLE roll_requests (
  id          TEXT PRIMARY KEY,           -- the request's chained row; its button names it
  guild_id    TEXT NOT NULL,
  channel_id  TEXT NOT NULL,
  game_id     TEXT NOT NULL,
  asker_id    TEXT NOT NULL,
  asker_name  TEXT NOT NULL,
  player_id   TEXT NOT NULL,
  player_name TEXT NOT NULL,
  command     TEXT NOT NULL,
  roll        TEXT NOT NULL,              -- the roll as typed, read again when it is answered
  created_at  TEXT NOT NULL,
  state       TEXT NOT NULL DEFAULT 'open', -- open, answered, cancelled
  settled_at  TEXT,
  settled_by  TEXT,
  answer_id   TEXT                        -- the roll row that answered it
);
CREATE INDEX roll_requests_open ON roll_requests (game_id, created_at) WHERE state = 'open';

-- A game's clock: whose move it is, when to remind, when not to, and its status card's message.
CREATE TABLE game_clocks (
  game_id         TEXT PRIMARY KEY,
  guild_id        TEXT NOT NULL,
  channel_id      TEXT NOT NULL,
  turn_player_id  TEXT,
  turn_player_name TEXT,
  turn_since      TEXT,
  remind_after_s  INTEGER,
  repeat_every_s  INTEGER,
  quiet_from      INTEGER,                -- minutes after midnight in time_zone
  quiet_to        INTEGER,
  time_zone       TEXT NOT NULL DEFAULT 'UTC',
  card_message_id TEXT
);

-- What is due when: a reminder (of a turn or a request) or a status card to redraw. A process
-- fires one only by moving its due_at on from the value it read (a conditional UPDATE), so of
-- several processes sharing the database one fires it, once.
CREATE TABLE schedules (
  id            TEXT PRIMARY KEY,         -- turn:<game>, ask:<request>, card:<game>
  kind          TEXT NOT NULL,
  guild_id      TEXT NOT NULL,
  channel_id    TEXT NOT NULL,
  game_id       TEXT NOT NULL,
  user_id       TEXT,
  since         TEXT NOT NULL,
  due_at        TEXT,
  fired         INTEGER NOT NULL DEFAULT 0,
  last_fired_at TEXT
);
CREATE INDEX schedules_due ON schedules (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX schedules_game ON schedules (game_id);
-- A result in a channel marks its game's card to redraw: found by the channel.
CREATE INDEX schedules_channel ON schedules (guild_id, channel_id) WHERE kind = 'card';
