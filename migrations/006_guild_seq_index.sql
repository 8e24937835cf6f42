-- A whole server's rows in ledger order: a GM's /history scope:server page, and the
-- chunked walks of /export and /stats over the whole server, seek here instead of sorting every
-- row of the server on each page or chunk. The other filter shapes have their own (003).
CREATE INDEX rolls_guild ON rolls (guild_id, seq, kind);
