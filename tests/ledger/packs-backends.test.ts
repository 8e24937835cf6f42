import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { alice, expectError, expectMessage, gm, queueRoller } from '../helpers/app.js';
import { installThrough, nervePack } from '../helpers/packs.js';
import { freshDatabase, testPostgres, type TestPostgres } from '../helpers/postgres.js';
import { tmpDb } from '../helpers/tmp.js';

// Rule packs on both backends: a guild's pack rows read through the partial index, a pack installed,
// rolled, replaced by a higher version and removed, and two installs of one new version at once
// recording one pack row (the guild's transactions run one at a time, on either backend).

let server: TestPostgres | undefined;
beforeAll(async () => {
  server = await testPostgres();
});
afterAll(() => server?.stop());

const backends: { name: string; open: () => Promise<LedgerStore> }[] = [
  { name: 'SQLite', open: async () => sqliteStore(Ledger.open(tmpDb())) },
  { name: 'PostgreSQL', open: async () => PgStore.connect(await freshDatabase(server!)) },
];

describe.each(backends)('rule packs on $name', ({ name, open }) => {
  it('install, roll, a higher version, two installs at once, remove', async (t) => {
    if (name === 'PostgreSQL' && !server) return t.skip();
    const store = await open();
    const dice = queueRoller();
    const router = createRouter({ ledger: store, log: createLogger({ level: 'silent' }), roller: dice });
    expectMessage(await installThrough(router, nervePack()));
    dice.push(3, 2);
    expectMessage(await router.handle({ type: 'command', name: 'nerve-test', options: { nerve: 7 }, actor: alice }));
    const v2 = { ...nervePack(), version: 2 };
    const both = await Promise.all([installThrough(router, { ...v2, name: 'A' }), installThrough(router, { ...v2, name: 'B' })]);
    expect(both.map((r) => r.type).sort()).toEqual(['error', 'message']);
    expect(expectError(both.find((r) => r.type === 'error')!)).toBe(
      '/nerve-test is installed at version 2: a changed pack needs a higher version (you gave 2).',
    );
    expect(
      (await store.packRows('g1')).map((r) => [(r.input as { action: string }).action, (r.input as { pack?: { version: number } }).pack?.version]),
    ).toEqual([
      ['install', 1],
      ['install', 2],
    ]);
    expectMessage(await router.handle({ type: 'command', name: 'pack', subcommand: 'remove', options: { pack: 'nerve-test' }, actor: gm }));
    expect(await store.packRows('g1')).toHaveLength(3);
    expect(await store.packRows('g2')).toEqual([]);
    await store.close();
  });
});

it('SQLite answers the pack rows from the partial index, whatever the ledger holds', () => {
  const ledger = Ledger.open(tmpDb());
  const plan = ledger.db.prepare("EXPLAIN QUERY PLAN SELECT * FROM rolls WHERE guild_id = ? AND kind = 'pack' ORDER BY seq").all('g1') as { detail: string }[];
  ledger.close();
  expect(plan.map((p) => p.detail).join('\n')).toContain('USING INDEX rolls_packs');
});
