import { randomBytes } from 'node:crypto';
import { canonicalJson } from './chain.js';
import { blankErased, PERSON_FIELDS } from './people.js';
import { committedFieldsOf } from './chained-overlay.js';
import { readColumn } from './rows.js';
import type { Sql } from './sql-runner.js';
import { unitKey } from './next-row.js';

/**
 * A person erased from a server's chain (people.ts), inside the erasure's transaction, the same
 * SQL on both backends: every row committing to a value of theirs has that value blanked beside its
 * hash, a sealed payload naming them likewise, and their salt deleted, so no one can open those
 * commitments again. Rows written before commitments name them as they always did (docs/privacy.md).
 */

/** What an erasure did to the chain's side of a server: the salts deleted and the rows blanked. */
export type ChainErasure = { salts: string[]; rows: number };

/** Rows read at a time: an erasure of a player of years holds one chunk. */
const CHUNK = 500;

type CommittedRow = {
  seq: number;
  id: string;
  user_id: string;
  user_name: string;
  unit: string | null;
  input: string;
  outcome: string;
  result: string | null;
  chained: string;
};

const ROWS_NAMING = `SELECT seq, id, user_id, user_name, unit, input, outcome, result, chained FROM rolls
  WHERE guild_id = ? AND chained IS NOT NULL AND seq > ? AND (user_id = ? OR chained LIKE ?) ORDER BY seq LIMIT ?`;
const BLANK_ROW = 'UPDATE rolls SET user_id = ?, user_name = ?, unit = ?, input = ?, outcome = ? WHERE id = ?';

/**
 * A committed row with every value under the erased salt blanked: '' for the id and name columns,
 * null elsewhere. A row whose commitments no longer read (edited outside the bot) is blanked whole:
 * what in it names whom is unknown, and the erasure must leave nothing of the person behind.
 */
function blanked(r: CommittedRow, gone: ReadonlySet<string>): unknown[] {
  const plain: Record<string, unknown> = { ...r, input: readColumn('input', r.input) ?? null, outcome: readColumn('outcome', r.outcome) ?? null };
  const chained = committedFieldsOf(r.chained, plain);
  const blank = (k: string) => (k === 'user_id' || k === 'user_name' ? '' : null);
  const out = Object.fromEntries(PERSON_FIELDS.map((k) => [k, chained ? blankErased(plain[k] ?? null, chained[k] ?? null, gone, blank(k)) : blank(k)]));
  return [out.user_id, out.user_name, out.unit, canonicalJson(out.input ?? null), canonicalJson(out.outcome ?? null), r.id];
}

/** The person's committed rows in the server blanked, and the unit names they held (for the side tables). */
async function blankRows(sql: Sql, guildId: string, userId: string, saltId: string): Promise<{ rows: number; units: Set<string> }> {
  const gone = new Set([saltId]);
  const units = new Set<string>();
  let rows = 0;
  for (let after = 0; ; ) {
    const chunk = await sql.rows<CommittedRow>(ROWS_NAMING, [guildId, after, userId, `%"${saltId}"%`, CHUNK]);
    if (!chunk.length) return { rows, units };
    for (const r of chunk) {
      if (r.unit !== null && r.user_id === userId) units.add(r.unit);
      rows += await sql.run(BLANK_ROW, blanked(r, gone));
      if (r.outcome.includes('"sealed":true')) await blankSealed(sql, r.id, gone);
    }
    after = Number(chunk[chunk.length - 1]!.seq);
  }
}

/** A sealed roll's kept payload with their values blanked (the committed form it opens by stays). */
async function blankSealed(sql: Sql, rollId: string, gone: ReadonlySet<string>): Promise<void> {
  const [p] = await sql.rows<{ payload: string; committed: string | null }>('SELECT payload, committed FROM sealed_payloads WHERE roll_id = ?', [rollId]);
  if (!p?.committed) return;
  const payload = canonicalJson(blankErased(JSON.parse(p.payload), JSON.parse(p.committed), gone));
  if (payload !== p.payload) await sql.run('UPDATE sealed_payloads SET payload = ? WHERE roll_id = ?', [payload, rollId]);
}

/**
 * Counts kept by person merged into the erased one (''), as the rows now say: /verify recounts the
 * dice report from the rows, and the counts a game keeps per player are the rows' too.
 */
async function mergeCounts(sql: Sql, guildId: string, userId: string): Promise<void> {
  const tally = 'guild_id, channel_id, game_id, side, user_id, system, command, category, shape, hour, total';
  await sql.run(
    `INSERT INTO dice_tallies (${tally}, n) SELECT ${tally.replace('user_id', "''")}, n FROM dice_tallies WHERE guild_id = ? AND user_id = ?
     ON CONFLICT (${tally}) DO UPDATE SET n = dice_tallies.n + excluded.n`,
    [guildId, userId],
  );
  await sql.run('DELETE FROM dice_tallies WHERE guild_id = ? AND user_id = ?', [guildId, userId]);
  await sql.run(
    `INSERT INTO player_roll_counts (guild_id, game_id, user_id, n) SELECT guild_id, game_id, '', n FROM player_roll_counts WHERE guild_id = ? AND user_id = ?
     ON CONFLICT (game_id, user_id) DO UPDATE SET n = player_roll_counts.n + excluded.n`,
    [guildId, userId],
  );
  await sql.run('DELETE FROM player_roll_counts WHERE guild_id = ? AND user_id = ?', [guildId, userId]);
}

/** Unit names they typed, out of the side tables: their roster units renamed to no one's words, autocomplete's list without them. */
async function eraseUnitNames(sql: Sql, guildId: string, userId: string, names: Set<string>): Promise<void> {
  const owned = await sql.rows<{ id: number | string; name: string }>(
    'SELECT id, name FROM units WHERE owner_id = ? AND game_id IN (SELECT id FROM games WHERE guild_id = ?)',
    [userId, guildId],
  );
  for (const u of owned) {
    names.add(u.name);
    const anonymous = `erased-${randomBytes(4).toString('hex')}`;
    await sql.run('UPDATE units SET name = ?, name_key = ? WHERE id = ?', [anonymous, anonymous, u.id]);
  }
  for (const name of names) await sql.run('DELETE FROM channel_units WHERE guild_id = ? AND unit_key = ?', [guildId, unitKey(name)]);
}

/** Erases a person from one server's chain and the counts beside it; run inside the erasure's transaction, before its side tables. */
export async function eraseCommitted(sql: Sql, userId: string, guildId: string): Promise<ChainErasure> {
  const [salt] = await sql.rows<{ salt_id: string }>('SELECT salt_id FROM people WHERE guild_id = ? AND user_id = ?', [guildId, userId]);
  const units = new Set<string>();
  let rows = 0;
  if (salt) {
    // The rows' trigger lets a committed row's person values change only while its server's erasure runs.
    await sql.run('INSERT INTO erasing (guild_id) VALUES (?)', [guildId]);
    const blankedRows = await blankRows(sql, guildId, userId, salt.salt_id);
    rows = blankedRows.rows;
    for (const u of blankedRows.units) units.add(u);
    await sql.run('DELETE FROM people WHERE salt_id = ?', [salt.salt_id]);
    await sql.run('DELETE FROM erasing WHERE guild_id = ?', [guildId]);
  }
  await mergeCounts(sql, guildId, userId);
  await eraseUnitNames(sql, guildId, userId, units);
  return { salts: salt ? [salt.salt_id] : [], rows };
}
