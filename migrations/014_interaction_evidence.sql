-- Discord's signature as evidence: in HTTP interactions mode the exact request Discord
-- signed (timestamp header, signature, raw body deflated) is kept beside the chain; the rows it
-- wrote commit to SHA-256(timestamp || body), so these bytes can be erased later without breaking it.
CREATE TABLE interaction_evidence (
  interaction_id TEXT PRIMARY KEY,
  guild_id TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  signature TEXT NOT NULL,
  body BLOB NOT NULL,
  created_at TEXT NOT NULL
);
