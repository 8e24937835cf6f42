-- What the bot posts later, unprompted, is said in the server's language: a clock keeps the
-- language of the server it was set in, a request that of the server it was asked in.
ALTER TABLE game_clocks ADD COLUMN locale TEXT;
ALTER TABLE roll_requests ADD COLUMN locale TEXT;
-- A reminder (or card) Discord did not take is tried again a few times; this counts the tries of
-- the firing under way (0 once one is delivered), and names that firing to Discord so a retry of
-- a post that did arrive is not shown twice.
ALTER TABLE schedules ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
