-- Rule packs: a guild's pack rows (installs and removals) are read on every pack
-- command; this partial index holds only them, so the read does not grow with the ledger.
CREATE INDEX rolls_packs ON rolls (guild_id, seq) WHERE kind = 'pack';
