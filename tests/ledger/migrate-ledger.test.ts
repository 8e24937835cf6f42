import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeDiscordKey } from '../helpers/beacon-game.js';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply } from '../../src/core/command.js';
import type { Request } from '../../src/core/router.js';
import { importLedger, tablesToCopy } from '../../src/ledger/postgres/import.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { alice, bob, expectMessage, gm, subcommand, testApp, type TestApp } from '../helpers/app.js';
import { ledgerEntry } from '../helpers/ledger.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { tmpDb } from '../helpers/tmp.js';

// `npm run migrate-ledger` copied a hand-written list of tables that predated the dice
// report's tallies and the receipt keys: after a move, /verify called the ledger broken and /stats
// counted nothing. The list now comes from the schema; these tests read the schema themselves.
const server = await testPostgres();
afterAll(() => server?.stop());

let nextInteraction = 1_000_000_000_000_000_000n;
type Asked = Request extends infer R ? (R extends unknown ? Omit<R, 'actor' | 'interactionId'> : never) : never;
/** A request with an interaction id of its own, as Discord sends one (its claim is a row of `interactions`). */
const send = (app: TestApp, actor: Actor, req: Asked) => {
  nextInteraction += 1n;
  return app.router.handle({ ...req, actor, interactionId: String(nextInteraction) } as Request);
};

/** A ledger with a row in every table: a game with a seed, rolls, a re-roll, a sealed roll and its reveal, settings, a saved query, links, a delivery mark, a beacon binding, keys, claims. */
async function fullLedger(): Promise<TestApp> {
  const app = testApp();
  expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' }));
  expectMessage(await subcommand(app, alice, 'unit', 'add', { name: '1st Foot', fields: 'disorder:2 quality:regular original:4 strength:4' }));
  app.dice.push(1);
  const rally = expectMessage(await send(app, alice, { type: 'command', name: 'rally', options: { unit: '1st Foot', commander_near: true } }));
  app.dice.push(5);
  expectMessage(await send(app, gm, { type: 'button', customId: rally.buttons[0]!.custom_id }));
  app.dice.push(4);
  const sealed = expectMessage(await send(app, bob, { type: 'command', name: 'rally', options: { disorder: 1, sealed: true } }));
  expectMessage(await send(app, gm, { type: 'command', name: 'reveal', options: { id: sealed.record!.roll_id } }));
  app.dice.push(3, 4);
  expectMessage(await send(app, alice, { type: 'command', name: 'dr', options: { category: 'IFT' } }));
  expectMessage(await subcommand(app, gm, 'config', 'gm-role', { role: '123456789012345678' }));
  // A /history with more than a page saves its query for the page buttons.
  for (let i = 0; i < 12; i++) {
    app.dice.push(2, 2, 2);
    expectMessage(await send(app, bob, { type: 'command', name: 'morale', options: { morale: 'professional' } }));
  }
  expectMessage(await send(app, gm, { type: 'command', name: 'history', options: { scope: 'server' } }));
  app.ledger.history.linkMessage(rally.record!.roll_id, '1111111111111111111');
  // A roll the bot never showed, marked as not delivered (late-delivery.ts).
  app.ledger.history.claimDelivery(sealed.record!.roll_id, new Date().toISOString());
  app.ledger.history.settleDelivery(sealed.record!.roll_id, 'not delivered: Missing Access');
  // A beacon roll's binding, still waiting for its round (beacon-binding.ts).
  app.ledger.history.bindBeacon({
    interaction_id: '1445000000000000000',
    guild_id: 'g1',
    channel_id: 'c1',
    user_id: 'alice',
    round: 23927296,
    request: JSON.stringify({ type: 'command', name: 'rally', options: { disorder: 1 }, actor: alice }),
    created_at: new Date().toISOString(),
  });
  // A roll asked over HTTP: Discord's signed request kept beside it, as bytes.
  const signed = { name: 'dr', options: {}, actor: alice, interactionId: '1445000000000000001' };
  app.dice.push(2, 5);
  const dr = await app.router.handle({ type: 'command', ...signed, evidence: fakeDiscordKey().sign(signed, Date.now()) });
  if (dr.type !== 'message') throw new Error(JSON.stringify(dr));
  // A server the bot has left, its data waiting for the retention sweep.
  app.ledger.retention.markLeft('g9', new Date().toISOString());
  // A game's clock and whose move it is (its reminder scheduled), and a roll asked of a player.
  const users = { bob: { name: 'Bob', bot: false, member: true } };
  expectMessage(await app.router.handle({ type: 'command', name: 'game', subcommand: 'clock', options: { remind_after: '12h' }, actor: alice, users }));
  expectMessage(await app.router.handle({ type: 'command', name: 'game', subcommand: 'turn', options: { number: 2, player: 'bob' }, actor: alice, users }));
  expectMessage(
    await app.router.handle({ type: 'command', name: 'ask', subcommand: 'roll', options: { player: 'bob', roll: 'rally disorder:1' }, actor: alice, users }),
  );
  return app;
}

const tablesOf = (app: TestApp) =>
  (
    app.ledger.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name <> 'schema_migrations'").all() as {
      name: string;
    }[]
  )
    .map((r) => r.name)
    .sort();

describe('the tables npm run migrate-ledger copies', () => {
  it('are every table of the SQLite ledger but its migration record, each after the tables it refers to', async () => {
    const app = testApp();
    const copied = tablesToCopy(app.ledger.db);
    expect([...copied].sort()).toEqual(tablesOf(app));
    for (const [child, parent] of [
      ['units', 'games'],
      ['sealed_payloads', 'rolls'],
      ['roll_messages', 'rolls'],
    ] as const)
      expect(copied.indexOf(child), `${child} after ${parent}`).toBeGreaterThan(copied.indexOf(parent));
    app.ledger.close();
  });
});

/** Every reply a GM and a player read after a move: the chain and aggregates, the dice report, the history, the receipt key. */
async function answers(store: LedgerStore, app: TestApp): Promise<unknown[]> {
  const router = createRouter({ ledger: store, log: createLogger({ level: 'silent' }), signer: app.signer });
  const asked: Request[] = [
    { type: 'command', name: 'verify', options: {}, actor: gm },
    { type: 'command', name: 'verify', options: { key: true }, actor: gm },
    { type: 'command', name: 'stats', options: { scope: 'server' }, actor: gm },
    { type: 'command', name: 'stats', options: { scope: 'server', by: 'user' }, actor: gm },
    { type: 'command', name: 'history', options: { scope: 'server' }, actor: gm },
    { type: 'command', name: 'history', options: { user: 'bob' }, actor: alice },
  ];
  const replies: Reply[] = [];
  for (const req of asked) replies.push(await router.handle(req));
  // A /history page saves its query under a new id on each backend.
  return replies.map((r) =>
    JSON.parse(
      JSON.stringify(r)
        .replace(/<t:\d+(:\w)?>/g, '<t>')
        .replace(/history_page:[0-9a-z_]+/g, 'history_page:<query>'),
    ),
  );
}

describe.skipIf(!server)('a SQLite ledger moved to PostgreSQL (npm run migrate-ledger)', () => {
  it('arrives whole: every table of the source, row for row (a table left behind is named)', async () => {
    const app = await fullLedger();
    // `erasing` holds a row only inside an erasure's own transaction: it is empty whenever a copy runs.
    const empty = tablesOf(app).filter((t) => t !== 'erasing' && !(app.ledger.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);
    // A new table must get a row here, or its copy goes untested.
    expect(empty, 'tables the fixture leaves empty').toEqual([]);
    const target = await PgStore.connect(await freshDatabase(server!));
    await importLedger(app.ledger, target.ledger);
    for (const table of tablesOf(app)) {
      const ours = app.ledger.db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
      const theirs = (await target.ledger.pool.query(`SELECT * FROM ${table}`)).rows as Record<string, unknown>[];
      const key = (r: Record<string, unknown>) =>
        JSON.stringify(
          Object.keys(r)
            .sort()
            .map((k) => [k, r[k] ?? null]),
        );
      expect(theirs.map(key).sort(), `table ${table} after the move`).toEqual(ours.map(key).sort());
    }
    await target.close();
    app.ledger.close();
  });

  it('answers /verify, /verify key:true, /stats and /history exactly as the SQLite ledger did', async () => {
    const app = await fullLedger();
    const target = await PgStore.connect(await freshDatabase(server!));
    await importLedger(app.ledger, target.ledger);
    const before = await answers(sqliteStore(app.ledger), app);
    const after = await answers(target, app);
    expect(JSON.stringify(before)).toContain('Ledger intact');
    expect(JSON.stringify(before)).toContain('Receipt key');
    for (let i = 0; i < before.length; i++) expect(after[i], `answer ${i}`).toEqual(before[i]);
    await target.close();
    app.ledger.close();
  });
});

/** The command as an admin runs it (from the source: nothing here needs a build). */
const migrate = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/ops/migrate-ledger.ts', ...args], { encoding: 'utf8' });

/** A SQLite ledger file with two rolls in one guild. */
function ledgerFile(): string {
  const file = tmpDb();
  const ledger = Ledger.open(file);
  ledger.append(ledgerEntry());
  ledger.append(ledgerEntry());
  ledger.close();
  return file;
}

describe.skipIf(!server)('npm run migrate-ledger, typed as people type it', () => {
  it('--from a bare path to the ledger file: taken as SQLite, as sqlite:<file> is', async () => {
    const url = await freshDatabase(server!);
    const r = migrate('--from', ledgerFile(), '--to', url);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('\ncopied 2 rows of rolls\n');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('migrated 2 rolls of 1 guilds; every chain verified on arrival');
  }, 120_000);

  it('--from a path with nothing there says so; a URL of another kind gets the usage', () => {
    const missing = tmpDb();
    expect(migrate('--from', missing, '--to', server!.url)).toMatchObject({ status: 2, stderr: `no ledger at ${missing}\n` });
    expect(migrate('--from', 'mysql://db/ledger', '--to', server!.url)).toMatchObject({
      status: 2,
      stderr: 'usage: npm run migrate-ledger -- --from <SQLite ledger file> --to postgres://user:password@host:5432/database\n',
    });
  });

  it('--to a database the server does not have: refused, exit 78, naming the database and not the password', () => {
    const name = `missing_${randomBytes(4).toString('hex')}`;
    const url = new URL(server!.url);
    url.pathname = `/${name}`;
    url.password = 'never-printed-8080';
    const r = migrate('--from', ledgerFile(), '--to', url.toString());
    expect(r.status).toBe(78);
    expect(r.stderr).toBe(
      `refused: there is no database "${name}" on the PostgreSQL server at ${url.host}: create it (sudo -u postgres createdb --owner=${url.username} ${name}) or correct --to\n`,
    );
    expect(r.stdout).toBe('');
  }, 120_000);
});
