-- A roll committed but never shown (the process stopped between its commit and its reply)
-- is posted to its channel when the bot comes back; one that cannot be is marked, and /history says
-- so. Beside the chain, as roll_messages: taken by the process that posts it, then 'posted' or why not.
CREATE TABLE roll_deliveries (
  roll_id  TEXT PRIMARY KEY REFERENCES rolls(id),
  outcome  TEXT NOT NULL,
  at       TEXT NOT NULL
);
