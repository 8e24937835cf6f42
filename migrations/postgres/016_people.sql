-- Person fields committed on the chain: see migrations/022_people.sql.
ALTER TABLE rolls ADD COLUMN chained TEXT;

CREATE TABLE people (
  guild_id   TEXT NOT NULL,
  user_id    TEXT NOT NULL,
  salt_id    TEXT NOT NULL UNIQUE,
  salt       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (guild_id, user_id)
);
-- /privacy finds every server where someone has a salt, named in others' rows only too.
CREATE INDEX people_user ON people (user_id);

ALTER TABLE sealed_payloads ADD COLUMN committed TEXT;

CREATE TABLE erasing (guild_id TEXT PRIMARY KEY);

-- A committed row's person columns may be blanked by an erasure, while it holds its server's row in
-- `erasing` (and a committed sealed payload's payload); nothing else changes, and rows leave only
-- with their server's purge.
CREATE OR REPLACE FUNCTION rolls_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM guild_departures WHERE guild_id = OLD.guild_id AND purging = 1) THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'rolls' AND to_jsonb(OLD) ->> 'chained' IS NOT NULL
    AND EXISTS (SELECT 1 FROM erasing WHERE guild_id = OLD.guild_id)
    AND (to_jsonb(NEW) - ARRAY['user_id', 'user_name', 'unit', 'input', 'outcome'])
      = (to_jsonb(OLD) - ARRAY['user_id', 'user_name', 'unit', 'input', 'outcome']) THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'sealed_payloads' AND to_jsonb(OLD) ->> 'committed' IS NOT NULL
    AND EXISTS (SELECT 1 FROM erasing WHERE guild_id = OLD.guild_id)
    AND (to_jsonb(NEW) - 'payload') = (to_jsonb(OLD) - 'payload') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the ledger is append-only: rows cannot be changed or deleted';
END $$;
