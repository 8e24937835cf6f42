import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor } from '../../src/core/command.js';
import { exportLedger } from '../../src/core/export-files.js';
import { verifyLedger } from '../../src/core/verify-ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { createLogger } from '../../src/log.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { snowflakeAt } from '../../src/beacon/chain.js';
import { queueRoller } from '../helpers/app.js';
import { fakeDiscordKey } from '../helpers/beacon-game.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';

// On the shared backend: Discord's signed requests kept in PostgreSQL (bytea), checked by
// the bot's /verify from there, and written into an export the offline verifier checks.
const server = await testPostgres();
afterAll(() => server?.stop());

const alice: Actor = { guildId: 'g1', channelId: 'c1', userId: 'alice', userName: 'Alice', isGm: false };

describe.skipIf(!server)('evidence on PostgreSQL', () => {
  it('is kept beside the rows, checked by /verify, and exported once 15 minutes old', async () => {
    const store = await PgStore.connect(await freshDatabase(server!));
    const dice = queueRoller();
    const router = createRouter({ ledger: store, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
    const key = fakeDiscordKey();
    // Interaction ids of now, as Discord makes them: a row's time must be within 15 minutes of its request's.
    const [start, rally, unit, filled] = [1, 2, 3, 4].map((n) => snowflakeAt(Date.now(), n)) as [string, string, string, string];
    const signed = (name: string, options: Record<string, unknown>, id: string, subcommand?: string) => {
      const req = { name, options, actor: alice, interactionId: id, ...(subcommand ? { subcommand } : {}) };
      return router.handle({ type: 'command', ...req, evidence: key.sign(req, Date.now()) });
    };
    expect((await signed('game', { system: 'hearts-of-tin', name: 'Ligny' }, start, 'start')).type).toBe('message');
    dice.push(4);
    expect((await signed('rally', { disorder: 1, unit: 'Old Guard' }, rally)).type).toBe('message');
    // A roster unit's disorder and quality, filled by the bot: the row commits that it filled them.
    expect((await signed('unit', { name: 'Landwehr', fields: 'original:10 quality:militia disorder:2' }, unit, 'add')).type).toBe('message');
    dice.push(4);
    const fromRoster = await signed('rally', { unit: 'Landwehr' }, filled);
    if (fromRoster.type !== 'message') throw new Error(JSON.stringify(fromRoster));
    const row = (await store.get('g1', fromRoster.record!.roll_id))!;
    expect((row.input as { evidence: { unasked: string[] } }).evidence.unasked).toEqual(['disorder', 'quality']);
    const kept = await store.history.evidenceOf([start, rally]);
    expect([...kept.keys()].sort()).toEqual([start, rally].sort());
    expect(Buffer.isBuffer(kept.get(rally)!.body)).toBe(true);

    const inBot = await verifyLedger(store, 'g1');
    expect(inBot.promises.lines.join('\n')).toContain(`4 rows signed by Discord under application key ${key.publicHex}`);

    const result = await exportLedger(store, { filter: { guildId: 'g1', kinds: 'all' }, limit: 1 << 22, stamp: 'pg', now: Date.now() + 16 * 60_000 });
    if (!result.ok) throw new Error('the export did not fit');
    const report = verifyExport(fs.readFileSync(result.files.find((f) => f.name.endsWith('.jsonl'))!.path));
    expect(report.ok).toBe(true);
    expect(report.lines.join('\n')).toContain(`4 rows signed by Discord under application key ${key.publicHex}`);
    expect(report.lines.join('\n')).toContain(`row ${row.id} disorder 2 quality "militia"`);
    await store.close();
  });
});
