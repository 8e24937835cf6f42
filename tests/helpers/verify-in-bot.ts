import { createRouter } from '../../src/app.js';
import { canonicalJson } from '../../src/ledger/chain.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { backfillTallies } from '../../src/ledger/migrate.js';
import { createLogger } from '../../src/log.js';
import { expectMessage, gm } from './app.js';
import { tmpDb } from './tmp.js';

/** The rows loaded into a fresh ledger as they are (an operator's database), and /verify run there: its title and text. */
/** The people's salts an export's committed rows carry, kept as the bot keeps them (the person's id is not in the export: the salt's id stands in). */
export function keepSalts(ledger: Ledger, rows: Record<string, any>[]): void {
  const keep = ledger.db.prepare('INSERT OR IGNORE INTO people (guild_id, user_id, salt_id, salt, created_at) VALUES (?, ?, ?, ?, ?)');
  for (const r of rows) for (const [id, salt] of Object.entries((r.salts ?? {}) as Record<string, string>)) keep.run(r.guild_id, id, id, salt, r.created_at);
}

export async function verifyInBot(rows: Record<string, any>[]): Promise<string> {
  const ledger = Ledger.open(tmpDb());
  const cols = (ledger.db.prepare('PRAGMA table_info(rolls)').all() as { name: string }[]).map((c) => c.name).filter((c) => c in rows[0]!);
  const insert = ledger.db.prepare(`INSERT INTO rolls (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
  for (const r of rows) insert.run(...cols.map((c) => (['input', 'dice', 'outcome'].includes(c) ? canonicalJson(r[c]) : r[c])));
  keepSalts(ledger, rows);
  // The operator's database has the dice report's aggregates its appends kept: built here as the migration builds them.
  backfillTallies(ledger.db);
  const router = createRouter({ ledger, log: createLogger({ level: 'silent' }) });
  const reply = expectMessage(await router.handle({ type: 'command', name: 'verify', options: {}, actor: { ...gm, guildId: rows[0]!.guild_id } }));
  ledger.close();
  return `${reply.embed.title}\n${reply.embed.description}`;
}
