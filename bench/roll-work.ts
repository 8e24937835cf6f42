import { createRouter } from '../src/app.js';
import { Ledger } from '../src/ledger/ledger.js';
import { silentLogger } from '../src/log.js';

/** What the bench's rolls are and what one writes: shared by the lines that time a roll against its SQL alone. */

/** The ledger as the bot opens it (open-store.ts): checkpoints in a worker; the raw baseline gets the same. */
export const AS_THE_BOT = { checkpointInWorker: true };

export const actor = { guildId: '900000000000000001', channelId: '900000000000001001', userId: '300000000000000001', userName: 'bench', isGm: false };

export const rally = (userId = actor.userId) => ({
  type: 'command' as const,
  name: 'rally',
  options: { disorder: 2, quality: 'militia', unit: 'Bench Battalion' },
  actor: { ...actor, userId },
});

/** What one /rally writes, read back from a ledger that made it: its row, its dice report tally, its autocomplete name. */
export type RollWork = { row: Record<string, unknown>; tally: Record<string, unknown>; unit: Record<string, unknown> };

export function rollWorkOf(ledger: Ledger): RollWork {
  const { seq: _seq, ...row } = ledger.db.prepare('SELECT * FROM rolls ORDER BY seq DESC LIMIT 1').get() as Record<string, unknown>;
  const tally = ledger.db.prepare('SELECT * FROM dice_tallies ORDER BY n DESC LIMIT 1').get() as Record<string, unknown>;
  const unit = ledger.db.prepare('SELECT * FROM channel_units ORDER BY last_seq DESC LIMIT 1').get() as Record<string, unknown>;
  return { row, tally, unit };
}

/** A function committing, each call, the SQL one /rally writes (the raw baseline's row, one a transaction) into its own file. */
export async function committingOneRoll(file: string): Promise<(() => void) & { close(): void }> {
  const scratch = Ledger.open(`${file}.source`, AS_THE_BOT);
  await createRouter({ ledger: scratch, log: silentLogger }).handle(rally());
  const work = rollWorkOf(scratch);
  scratch.close();
  const db = Ledger.open(file, AS_THE_BOT);
  const columns = Object.keys(work.row);
  const insert = db.db.prepare(`INSERT INTO rolls (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  let i = 0;
  const one = db.db.transaction(() => insert.run({ ...work.row, id: `b${i}`, guild_seq: ++i }));
  return Object.assign(() => void one.immediate(), { close: () => db.close() });
}
