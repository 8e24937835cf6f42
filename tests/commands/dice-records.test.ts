import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply } from '../../src/core/command.js';
import type { Request } from '../../src/core/router.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { tallyId, type StoredTally } from '../../src/ledger/tally.js';
import { createLogger } from '../../src/log.js';
import { alice, bob, command, expectError, expectMessage, gm, press, queueRoller, subcommand, testApp } from '../helpers/app.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { tmpDb } from '../helpers/tmp.js';
import { BIG_GUILD, fillBigServer, gm as bigGm } from '../../bench/big-server.js';

// /dr and /roll dice on the one ledger with everything a morale roll has, through the
// router as a player would, on SQLite and on a real PostgreSQL server.
const server = await testPostgres();
afterAll(() => server?.stop());

type Backend = { name: string; open(): Promise<LedgerStore> };
const BACKENDS: Backend[] = [
  { name: 'SQLite', open: async () => sqliteStore(Ledger.open(tmpDb())) },
  ...(server ? [{ name: 'PostgreSQL', open: async () => PgStore.connect(await freshDatabase(server)) }] : []),
];

/** A router on a store with the game's real seeded dice, and its players. */
function table(store: LedgerStore) {
  const dice = queueRoller();
  const router = createRouter({ ledger: store, log: createLogger({ level: 'silent' }), roller: dice });
  const run = (actor: Actor, name: string, options: Record<string, unknown> = {}, subcommand?: string) =>
    router.handle({ type: 'command', name, options, actor, ...(subcommand ? { subcommand } : {}) } as Request);
  return { router, run, dice };
}
const said = (r: Reply) => (r.type === 'error' ? `refused: ${r.message}` : r.type === 'message' ? 'landed' : r.type);
const sorted = (ts: StoredTally[]) => ts.map((t) => `${tallyId(t)}=${t.n}`).sort();

describe.each(BACKENDS)('on $name', ({ open }) => {
  it('two /dr in flight in one game both land, each with its own place in the game; a join and a SAN in flight both keep', async () => {
    const store = await open();
    const t = table(store);
    expectMessage(await t.run(alice, 'game', { system: 'asl', name: 'Race' }, 'start'));
    const [a, b] = await Promise.all([t.run(alice, 'dr', { category: 'IFT' }), t.run(bob, 'dr', { category: 'TH' })]);
    expect([said(a), said(b)]).toEqual(['landed', 'landed']);
    const game = (await store.roster.activeGame('g1', 'c1'))!;
    // /history filters on the category on either backend (SQLite's json_extract, PostgreSQL's ->>).
    expect(expectMessage(await t.run(gm, 'history', { category: 'IFT' })).embed.footer!.text).toContain('1 roll');
    expect(expectMessage(await t.run(gm, 'history', { category: 'CC' })).embed.description).toBe('No rolls match.');
    const seqs = await Promise.all([a, b].map(async (r) => (await store.get('g1', expectMessage(r).record!.roll_id))!.game_seq));
    expect(seqs.sort()).toEqual([1, 2]);
    // Both write the game's options: neither is lost whatever order they land in.
    const [join, san] = await Promise.all([t.run(bob, 'game', { side: 'allied' }, 'join'), t.run(alice, 'game', { axis: 3, allied: 4 }, 'san')]);
    expect([said(join), said(san)]).toEqual(['landed', 'landed']);
    expect(JSON.parse((await store.roster.game('g1', game.id))!.options!)).toEqual({
      san: { axis: 3, allied: 4 },
      sides: { bob: { side: 'allied', name: 'Bob' } },
    });
    // The same player joining twice at once: one lands, the other is refused with the reason.
    const twice = await Promise.all([t.run(alice, 'game', { side: 'axis' }, 'join'), t.run(alice, 'game', { side: 'allied' }, 'join')]);
    expect(twice.map(said).sort()).toEqual(['landed', expect.stringMatching(/^refused: You already joined Race as (Axis|Allied): a GM can move you/)]);
    // Each join patches its own player's side: Bob's stays beside Alice's, the SANs beside both.
    const after = JSON.parse((await store.roster.game('g1', game.id))!.options!);
    expect([Object.keys(after.sides).sort(), after.san]).toEqual([['alice', 'bob'], { axis: 3, allied: 4 }]);
    await store.close();
  });

  it('the migration fills the aggregates from the rows on record: the same as the appends kept', async () => {
    const store = await open();
    const t = table(store);
    t.dice.push(5, 2, 6, 1, 3, 4, 4);
    expectMessage(await t.run(alice, 'rally', { disorder: 2 }));
    const sealed = expectMessage(await t.run(bob, 'rally', { disorder: 1, sealed: true })).record!.roll_id;
    const voided = expectMessage(await t.run(alice, 'morale', { morale: 'professional' })).record!.roll_id;
    expectMessage(await t.run(gm, 'reveal', { id: sealed }));
    expectMessage(await t.run(gm, 'void', { id: voided, reason: 'wrong unit' }));
    expectMessage(await t.run(alice, 'roll', { expression: 'd6' }, 'dice'));
    const kept = sorted(await store.guildTallies('g1'));
    expect(kept).toHaveLength(3);
    await store.close();
    // The same database as it was before the migration: no aggregates, no game options.
    const again = await rewound(store);
    expect(sorted(await again.guildTallies('g1'))).toEqual(kept);
    await again.close();
  });

  it('/verify names an aggregate that does not match the rows (edited, or missing)', async () => {
    const store = await open();
    const t = table(store);
    t.dice.push(5, 5);
    expectMessage(await t.run(alice, 'rally', { disorder: 1 }));
    expectMessage(await t.run(alice, 'rally', { disorder: 1 }));
    expect(expectMessage(await t.run(bob, 'verify')).embed.title).toBe('Ledger intact');
    await tamper(store, 'UPDATE dice_tallies SET n = n + 1');
    const broken = expectMessage(await t.run(bob, 'verify'));
    expect(broken.embed.title).toBe('Ledger broken');
    expect(broken.embed.description).toMatch(/• dice report: 1d6 total 5 \(rally, \d{4}-\d\d-\d\dT\d\d\): the aggregates hold 3, the rows give 2/);
    await tamper(store, 'DELETE FROM dice_tallies');
    expect(expectMessage(await t.run(bob, 'verify')).embed.description).toMatch(/the aggregates hold 0, the rows give 2/);
    await store.close();
  });
});

/** Reopens a store's database as if the dice-report migration had not run, so it runs again. */
async function rewound(store: LedgerStore): Promise<LedgerStore> {
  if (store.backend === 'sqlite') {
    const ledger = Ledger.open(store.sqliteFile!);
    ledger.db.exec('DROP TABLE dice_tallies; ALTER TABLE games DROP COLUMN options; DELETE FROM schema_migrations WHERE version = 10');
    ledger.close();
    return sqliteStore(Ledger.open(store.sqliteFile!));
  }
  const url = (store as PgStore).ledger.pool.options.connectionString!;
  const before = await PgStore.connect(url);
  await before.ledger.pool.query("DROP TABLE dice_tallies; ALTER TABLE games DROP COLUMN options; DELETE FROM schema_migrations WHERE name = 'dice_report'");
  await before.close();
  return PgStore.connect(url);
}

async function tamper(store: LedgerStore, sql: string) {
  if (store.backend === 'sqlite') {
    const ledger = Ledger.open(store.sqliteFile!);
    ledger.db.exec(sql);
    ledger.close();
  } else await (store as PgStore).ledger.pool.query(sql);
}

describe('/dr through the router', () => {
  it('"Roll again" makes the same /dr a new roll of its own, for its roller only', async () => {
    const app = testApp();
    app.dice.push(2, 5);
    const first = expectMessage(await command(app, alice, 'dr', { category: 'TH', drm: 1, note: 'vs the Sherman' }));
    expect(first.buttons).toEqual([{ custom_id: `v1:dr_again:${first.record!.roll_id}`, label: 'Roll again', style: 'secondary' }]);
    expect(expectError(await press(app, bob, first.buttons[0]!.custom_id))).toBe(`Only Alice, who made roll ${first.record!.roll_id}, can roll it again.`);
    app.dice.push(4, 1);
    const again = expectMessage(await press(app, alice, first.buttons[0]!.custom_id));
    expect(again.record).toMatchObject({ command: 'dr', dice: [4, 1], original: 5, final: 6, notes: ['Hull'], category: 'TH' });
    expect(again.record!.roll_id).not.toBe(first.record!.roll_id);
    expect(app.ledger.get('g1', again.record!.roll_id)!.input).toEqual(app.ledger.get('g1', first.record!.roll_id)!.input);
    // A button naming no /dr of this server is refused, whatever it says.
    expect(expectError(await press(app, alice, 'v1:dr_again:nosuchroll'))).toBe('That roll is not on record in this server.');
    app.dice.push(6);
    const rally = expectMessage(await command(app, alice, 'rally', { disorder: 1 })).record!.roll_id;
    expect(expectError(await press(app, alice, `v1:dr_again:${rally}`))).toBe(`Roll ${rally} is a /rally roll, not a /dr: it has nothing to roll again.`);
    app.ledger.close();
  });

  it('refuses DR for a dr-only category, naming it; offers the roster as units', async () => {
    const app = testApp();
    expect(expectError(await command(app, alice, 'dr', { category: 'SA', dice: 'DR' }))).toBe('`category` SA is a dr (one die): leave `dice` out or give dr.');
    expect(expectError(await command(app, alice, 'dr', { drm: 11 }))).toMatch(/^`drm`/);
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'asl', name: 'G' }));
    expectMessage(await subcommand(app, alice, 'unit', 'add', { name: '8-1 Leader', side: 'axis', fields: 'counter:German 8-1 leader' }));
    expect(await app.router.handle({ type: 'autocomplete', name: 'dr', option: 'unit', value: '8', actor: alice })).toEqual({
      type: 'choices',
      choices: [{ name: '8-1 Leader', value: '8-1 Leader' }],
    });
    // The unit's own side files the roll, over the side its roller joined.
    expectMessage(await subcommand(app, alice, 'game', 'join', { side: 'allied' }));
    app.dice.push(3, 3, 3, 3);
    const withUnit = expectMessage(await command(app, alice, 'dr', { unit: '8-1 Leader' })).record!.roll_id;
    const without = expectMessage(await command(app, alice, 'dr', {})).record!.roll_id;
    expect([withUnit, without].map((id) => (app.ledger.get('g1', id)!.outcome as { side: string }).side)).toEqual(['axis', 'allied']);
    app.ledger.close();
  });
});

describe('/stats user: one player against everyone else', () => {
  it('compares the player with the rest of the channel by a chi-square test of homogeneity, once each has n* rolls', async () => {
    const app = testApp();
    // 1d6's n* is 39: with two rolls each the test cannot tell.
    app.dice.push(6, 6, 1, 1);
    for (const who of [alice, alice, bob, bob]) expectMessage(await command(app, who, 'rally', { disorder: 1 }));
    expect(expectMessage(await command(app, alice, 'stats', { user: 'alice' })).embed.description).toContain(
      '**1d6** · <@alice> vs everyone else: too few rolls to compare (2 and 2; 39 each needed)',
    );
    // 39 each: Alice 20 sixes and 19 fives; Bob 2 ones, 17 sixes and 20 fives. Expected per cell (half
    // each column): ones 1, fives 19.5, sixes 18.5. χ² = 2 × (1/1 + 0.25/19.5 + 2.25/18.5) = 2.269 on
    // 2 df, p = e^(−2.269/2) = 0.322.
    for (let i = 0; i < 37; i++) {
      app.dice.push(i < 18 ? 6 : 5);
      expectMessage(await command(app, alice, 'rally', { disorder: 1 }));
      app.dice.push(i < 17 ? 6 : 5);
      expectMessage(await command(app, bob, 'rally', { disorder: 1 }));
    }
    expect(expectMessage(await command(app, alice, 'stats', { user: 'alice' })).embed.description).toContain(
      '**1d6** · <@alice> vs everyone else: chi-square test of homogeneity, χ² = 2.27 on 2 df, p = 0.322 — no sign they differ',
    );
    app.ledger.close();
  });
});

describe('/game join, san and booby_traps: who may', () => {
  it('SANs and booby traps by the starter or a GM, in ASL games only; another player on a side by a GM only', async () => {
    const app = testApp();
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' }));
    expect(expectError(await subcommand(app, alice, 'game', 'san', { axis: 3, allied: 4 }))).toBe(
      "Waterloo is not an ASL game: SANs and booby traps are ASL's (A14, B28.9).",
    );
    expectMessage(await subcommand(app, alice, 'game', 'end'));
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'asl', name: 'Arnhem' }));
    const notManager = 'Only the player who started Arnhem, or a GM, can change it.';
    expect(expectError(await subcommand(app, bob, 'game', 'san', { axis: 3, allied: 4 }))).toBe(notManager);
    expect(expectError(await subcommand(app, bob, 'game', 'booby_traps', { axis: 'A', allied: 'none' }))).toBe(notManager);
    expectMessage(await subcommand(app, gm, 'game', 'booby_traps', { axis: 'A', allied: 'none' }));
    expect(expectError(await subcommand(app, bob, 'game', 'join', { side: 'axis', user: 'alice' }))).toBe('Only a GM can put another player on a side.');
    expectMessage(await subcommand(app, bob, 'game', 'join', { side: 'axis' }));
    const moved = expectMessage(await subcommand(app, gm, 'game', 'join', { side: 'allied', user: 'bob' }));
    expect(moved.embed.description).toBe('Booby traps: Axis A · Allied none\nAllied: <@bob>');
    // Each write patches its own key: a join keeps the other player's side and the booby traps.
    const both = expectMessage(await subcommand(app, alice, 'game', 'join', { side: 'axis' }));
    expect(both.embed.title).toBe('Sides · Arnhem');
    expect(both.embed.description).toBe('Booby traps: Axis A · Allied none\nAxis: <@alice>\nAllied: <@bob>');
    const sanSet = expectMessage(await subcommand(app, gm, 'game', 'san', { axis: 3, allied: 0 }));
    expect([sanSet.embed.title, sanSet.embed.description]).toEqual([
      'SAN set · Arnhem',
      'SAN: Axis 3 · Allied none\nBooby traps: Axis A · Allied none\nAxis: <@alice>\nAllied: <@bob>',
    ]);
    const rows = app.ledger.history.page({ guildId: 'g1', kinds: ['game'] }, 10, 0).rows.map((r) => r.result);
    expect(rows).toEqual(['san_set', 'side_joined', 'side_joined', 'side_joined', 'booby_traps_set', 'game_started', 'game_ended', 'game_started']);
    app.ledger.close();
  });
});

describe('/roll dice through the router', () => {
  it('every die and the exact odds; a bad expression refused at its first bad character, with what is allowed', async () => {
    const app = testApp();
    app.dice.push(6, 1, 4, 3);
    const r = expectMessage(await subcommand(app, alice, 'roll', 'dice', { expression: '4d6kh3+2' }));
    expect(r.embed.title).toBe('4d6kh3+2 → 15');
    expect(r.embed.description).toBe('`4d6kh3` 6 ~~1~~ 4 3 → **13**\n`+2` **+2**\nTotal **15**');
    // 15 on 4d6kh3+2 is 13 on 4d6kh3: 172 of 1,296 ways (43/324); 13 or more: 172+160+131+94+54+21 = 632 (79/162).
    expect(r.embed.fields).toEqual([{ name: 'Odds', value: '15: 43/324 (13.3%) · 15 or higher: 79/162 (48.8%)', inline: false }]);
    expect(r.record).toMatchObject({ command: 'roll', dice: [6, 1, 4, 3], original: 15, final: 15, notes: [], category: null });
    expect(expectError(await subcommand(app, alice, 'roll', 'dice', { expression: '3d6+2x' }))).toBe(
      '`expression` "3d6+2x": character 6 ("x"): + or - between terms. Allowed: NdS (N 1–100, S 2–1000, d% for d100), constants 0–1000, + and -, one of kh/kl/dh/dl per term; at most 20 terms and 200 dice. Example: 4d6kh3+2.',
    );
    app.dice.push(...Array.from({ length: 200 }, () => 100));
    const big = expectMessage(await subcommand(app, alice, 'roll', 'dice', { expression: '100d100+100d100' }));
    expect(big.embed.fields).toEqual([{ name: 'Odds', value: 'odds not computed: too many outcomes', inline: false }]);
    app.ledger.close();
  });

  it('in a game it takes the game dice of any system, and /verify recomputes them after the end', async () => {
    const store = sqliteStore(Ledger.open(tmpDb()));
    const t = table(store);
    expectMessage(await t.run(alice, 'game', { system: 'lightning-war', name: 'Any' }, 'start'));
    const rolled = expectMessage(await t.run(alice, 'roll', { expression: '2d20kl1+d%' }, 'dice'));
    expect(t.dice.pending()).toBe(0);
    const row = (await store.get('g1', rolled.record!.roll_id))!;
    expect([row.game_id, row.game_seq, row.system, row.dice.length]).toEqual([expect.any(String), 1, 'lightning-war', 3]);
    expectMessage(await t.run(alice, 'game', {}, 'end'));
    const verified = expectMessage(await t.run(gm, 'verify'));
    expect(verified.embed.description).toContain('every die of 1 ended game recomputed from its seeds');
    await store.close();
  });
});

describe('/stats on the big-server bench ledger', () => {
  it('its figures equal a full recount of the rows', async () => {
    const file = tmpDb();
    await fillBigServer(file, 30_000);
    const ledger = Ledger.open(file);
    // The recount, straight from the rows with SQL of its own: each player's d6 faces.
    const rows = ledger.db
      .prepare("SELECT user_id, json_extract(dice, '$[0]') AS face, COUNT(*) AS n FROM rolls WHERE guild_id = ? AND kind = 'roll' GROUP BY 1, 2")
      .all(BIG_GUILD) as { user_id: string; face: number; n: number }[];
    const sums = ledger.tallySums({ guildId: BIG_GUILD }, 'user');
    const key = (u: string, t: number, n: number) => `${u}:${t}:${n}`;
    expect(sums.map((s) => key(s.grp, s.total, s.n)).sort()).toEqual(rows.map((r) => key(r.user_id, r.face, r.n)).sort());
    const router = createRouter({ ledger, log: createLogger({ level: 'silent' }) });
    const reply = expectMessage(await router.handle({ type: 'command', name: 'stats', options: { scope: 'server' }, actor: bigGm }));
    // 30,000 rolls: the router's own first one, then face (i mod 6) + 1 for roll i; every face within one of 5,000, so p rounds to 1.00.
    expect(reply.embed.description).toContain(
      '30,000 rolls on record · whole server\n\n**1d6** — 30,000 rolls, mean 3.50 (exact 3.50); as fair as dice come (p = 1.00)',
    );
    ledger.close();
  }, 120_000);
});
