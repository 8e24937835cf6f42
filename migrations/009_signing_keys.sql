-- The public halves of the bot's Ed25519 receipt keys, each with when it was in use, so
-- every export can list them and a receipt signed before a rotation still verifies. The private
-- halves are never in the database (a backup or a reader of it could forge receipts): they live in
-- the key file beside the data (SIGNING_KEY_FILE).
CREATE TABLE signing_keys (
  fingerprint TEXT PRIMARY KEY,
  public_key  TEXT NOT NULL,   -- base64url of the raw 32-byte Ed25519 public key
  valid_from  TEXT NOT NULL,
  valid_until TEXT             -- NULL while the key is in use
);
