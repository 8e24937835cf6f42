import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply, UserFacts } from '../../src/core/command.js';
import { exportLedger } from '../../src/core/export-files.js';
import { verifyLedger } from '../../src/core/verify-ledger.js';
import type { LedgerStore } from '../../src/ledger/store.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { createLogger } from '../../src/log.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { alice, bob, expectError, expectMessage, gm, press, queueRoller, subcommand, testApp, type TestApp } from '../helpers/app.js';
import { fakeDiscordKey, playBeaconGame } from '../helpers/beacon-game.js';
import { testChain } from '../helpers/beacon-relay.js';
import { tmpDb } from '../helpers/tmp.js';
import { erasePerson, personalFile } from '../../src/core/privacy.js';
import { rewritten } from '../helpers/verify-corpus-evidence.js';

type Row = Record<string, any>;
/** An export's evidence line of this interaction, taken out. */
const drop = (all: Row[], interaction: string) =>
  all.splice(
    all.findIndex((r) => r.evidence?.interaction === interaction),
    1,
  );
import { freshDatabase, testPostgres } from '../helpers/postgres.js';

// A person's own data: /privacy show lists what is kept, /privacy export hands all of it over as
// one file, /privacy erase (after a confirmation only they can press) erases everything beside the
// chain, in every guild, and each guild's chain records that an erasure happened, naming no one.

let app: TestApp | undefined;
afterEach(() => {
  app?.ledger.close();
  app = undefined;
});

const member = (name: string): UserFacts => ({ name, bot: false, member: true });
const USERS: Record<string, UserFacts> = { alice: member('Alice'), bob: member('Bob'), gm: member('Game Master') };
const elsewhere: Actor = { ...alice, guildId: 'g2', channelId: 'c9' };

/** A club game in c1 where Alice and Bob each hold a unit and roll, Alice is asked for a roll and has the turn; and a roll of Alice's in another guild. */
async function played(router: TestApp['router'], dice: ReturnType<typeof queueRoller>, gameDicePinned = true) {
  const app = { router } as TestApp;
  expectMessage(await subcommand(app, gm, 'game', 'start', { system: 'asl', name: 'Arnhem' }));
  expectMessage(await subcommand(app, alice, 'unit', 'add', { name: 'Red Devils', fields: 'counter:British 6-4-8' }));
  expectMessage(await subcommand(app, bob, 'unit', 'add', { name: 'Hohenstaufen', fields: 'counter:German 4-6-7' }));
  // Pinned, or drawn from the game's seed (then every verifier recomputes them once the game ends).
  if (gameDicePinned) dice.push(2, 3, 4, 4);
  expectMessage(await router.handle({ type: 'command', name: 'mc', options: { unit: 'Red Devils' }, actor: alice }));
  expectMessage(await router.handle({ type: 'command', name: 'mc', options: { unit: 'Hohenstaufen' }, actor: bob }));
  expectMessage(
    await router.handle({
      type: 'command',
      name: 'ask',
      subcommand: 'roll',
      options: { player: 'alice', roll: "mc unit:'Red Devils'" },
      actor: gm,
      users: USERS,
    }),
  );
  expectMessage(await router.handle({ type: 'command', name: 'game', subcommand: 'turn', options: { number: 1, player: 'alice' }, actor: gm, users: USERS }));
  dice.push(1, 2);
  expectMessage(await router.handle({ type: 'command', name: 'dr', options: { note: 'Bridge too far, says Alice' }, actor: elsewhere }));
}

const text = (r: Reply) => {
  const m = expectMessage(r);
  return `${m.embed.title}\n${m.embed.description}`;
};

/** What Alice is and typed: none of it may be left anywhere once she is erased. */
const HERS = ['alice', 'Alice', 'Red Devils', 'Bridge too far', 'holds the line'];

/** What /stats says of the whole server, which erasure must leave as it was. */
const stats = async (router: TestApp['router']) => text(await router.handle({ type: 'command', name: 'stats', options: { scope: 'server' }, actor: gm }));

/** The person-data scenario on a store: show, export, erase, and what each leaves. */
async function scenario(store: LedgerStore, router: TestApp['router'], dice: ReturnType<typeof queueRoller>) {
  await played(router, dice, false);
  // A roll of a club's own pack with a note, and a sealed morale check the GM reveals (its payload names her unit).
  expectMessage(await router.handle({ type: 'command', name: 'pack', subcommand: 'install', options: { example: 'bolt-action-order' }, actor: gm }));
  dice.push(3, 4);
  expectMessage(await router.handle({ type: 'command', name: 'bolt-action-order', options: { morale: 9, note: 'Alice holds the line' }, actor: alice }));
  const sealed = expectMessage(await router.handle({ type: 'command', name: 'mc', options: { unit: 'Red Devils', sealed: true }, actor: alice }));
  expectMessage(await router.handle({ type: 'command', name: 'reveal', options: { id: sealed.record!.roll_id }, actor: gm }));
  // Her rows: a unit, a morale check (and, on a 2 or a 12 of the seed's dice, the Heat of Battle it calls), a roll elsewhere.
  const hers = async (guildId: string) => {
    let n = 0;
    for await (const chunk of store.history.chunks({ guildId, kinds: 'all' })) n += chunk.filter((r) => r.user_id === 'alice').length;
    return n;
  };
  const [here, there] = [await hers('g1'), await hers('g2')];
  // The rows that commit to a value of hers: her own, and others' naming her (a request, a reveal, its change to her unit).
  const naming = async (guildId: string) => {
    const rows: { user_id: string; chained?: string | null }[] = [];
    for await (const chunk of store.history.chunks({ guildId, kinds: 'all' })) rows.push(...chunk);
    const key = (JSON.parse(rows.find((r) => r.user_id === 'alice')!.chained!) as { user_id: { by: string[] } }).user_id.by[0]!;
    return rows.filter((r) => r.chained?.includes(`"${key}"`)).length;
  };
  expect([here >= 2, there]).toEqual([true, 1]);
  const shown = text(await router.handle({ type: 'command', name: 'privacy', subcommand: 'show', options: {}, actor: alice }));
  expect(shown).toContain('In 2 servers');
  expect(shown).toContain(`${here + there} rows you made in the record (${here} in this server)`);
  expect(shown).toContain('1 roster unit you own');
  expect(shown).toContain('1 requested roll you asked for or were asked');
  expect(shown).toContain('1 game clock showing your turn');

  // The export: exactly Alice's rows, and what the side tables hold of her.
  const exported = expectMessage(await router.handle({ type: 'command', name: 'privacy', subcommand: 'export', options: {}, actor: alice }));
  expect(exported.type === 'message' && exported.ephemeral).toBe(true);
  const file = exported.type === 'message' ? exported.files![0]! : undefined;
  const data = JSON.parse(('data' in file! ? file.data : fs.readFileSync(file!.path)).toString('utf8'));
  const mine: string[] = [];
  for (const g of ['g1', 'g2'])
    for await (const chunk of store.history.chunks({ guildId: g, kinds: 'all' })) for (const r of chunk) if (r.user_id === 'alice') mine.push(r.id);
  type Server = { guild_id: string; rows: { id: string; user_id: string }[]; beside: Record<string, { name?: string }[]> };
  const servers = data.servers as Server[];
  expect(servers.map((s) => s.guild_id)).toEqual(['g1', 'g2']);
  const exportedRows = servers.flatMap((s) => s.rows);
  expect(exportedRows.map((r) => r.id).sort()).toEqual(mine.sort());
  expect(exportedRows.every((r) => r.user_id === 'alice')).toBe(true);
  expect(servers[0]!.beside.units!.map((u) => u.name)).toEqual(['Red Devils']);
  expect(servers[0]!.beside.requests).toHaveLength(1);
  expect(servers[0]!.beside.clockTurns).toHaveLength(1);
  // Her seat in the game she started, never the game's seed nor the other players' seats.
  expect(servers[0]!.beside.games).toEqual([]);
  expect(JSON.stringify(data)).not.toContain('server_seed');
  expect(JSON.stringify(data)).not.toContain('Hohenstaufen');

  // The game ends (its seed revealed): every verifier recomputes its dice, hers too, after she is erased.
  expectMessage(await router.handle({ type: 'command', name: 'game', subcommand: 'end', options: {}, actor: gm }));
  const named = { here: await naming('g1'), there: await naming('g2') };
  expect(named.here).toBeGreaterThan(here);
  const before = await stats(router);
  const bobs = await store.personal.summary('bob');
  expect(bobs.total.units).toBe(1);
  // Erasing asks first; the button is Alice's alone.
  const confirm = expectMessage(await router.handle({ type: 'command', name: 'privacy', subcommand: 'erase', options: {}, actor: alice }));
  expect(confirm.embed.description).toContain('This erases, in 2 servers');
  // What lies beside the chain is listed as going; the rows stay, without her name, id and typed text.
  expect(confirm.embed.description).toContain('1 roster unit you own');
  expect(confirm.embed.description).toContain('your name, id and what you typed leave them.');
  expect(confirm.embed.description).not.toContain('rows you made in the record');
  expect(confirm.buttons).toEqual([expect.objectContaining({ custom_id: 'v1:privacy_erase:alice', style: 'danger' })]);
  expect(expectError(await router.handle({ type: 'button', customId: 'v1:privacy_erase:alice', actor: bob }))).toContain('not yours');
  expect((await store.personal.summary('alice')).total.units).toBe(1);
  const done = text(await router.handle({ type: 'button', customId: 'v1:privacy_erase:alice', actor: alice }));
  expect(done).toContain('Your data is erased');
  expect(done).toContain(`Erased in 2 servers: your name, id and typed text in ${named.here + named.there} rows of the record; 1 roster unit you own`);
  expect(done).toContain('Your rows stay, with their dice, naming no one.');

  const after = await store.personal.summary('alice');
  expect(after.total).toMatchObject({ units: 0, requests: 0, clockTurns: 0, reminders: 0, savedQueries: 0, evidence: 0, games: 0, rows: 0 });
  // Bob's unit and his roll are untouched; /stats counts what it counted.
  expect(await store.personal.summary('bob')).toEqual(bobs);
  expect(await stats(router)).toBe(before);
  // The chain holds, with an erasure row naming no one.
  const verdict = await verifyLedger(store, 'g1');
  expect(verdict.chain).toMatchObject({ ok: true, erased: named.here });
  expect(text(await router.handle({ type: 'command', name: 'verify', options: {}, actor: gm }))).toContain(
    `${named.here} of them hold a person’s values that were erased: their commitments stay, and everything else in them was checked.`,
  );
  expect(verdict.promises.ok, verdict.promises.lines.join('\n')).toBe(true);
  const rows: { kind: string; user_id: string; user_name: string; input: unknown }[] = [];
  for await (const chunk of store.history.chunks({ guildId: 'g1', kinds: 'all' })) rows.push(...chunk);
  const erasure = rows.filter((r) => r.kind === 'erasure');
  expect(erasure).toHaveLength(1);
  expect(erasure[0]).toMatchObject({
    user_id: '',
    user_name: '',
    input: { erased: { units: 1, requests: 1, clockTurns: 1 }, evidence_erased: [], salts_erased: [expect.stringMatching(/^[0-9a-f]{24}$/)] },
  });
  expect(JSON.stringify(erasure[0])).not.toMatch(/alice/i);
  // A new export holds nothing of hers, and every verifier passes it, naming the erased rows.
  const fresh = await exportLedger(store, { filter: { guildId: 'g1', kinds: 'all' }, limit: 1 << 22, stamp: 'after', now: Date.now() + 16 * 60_000 });
  if (!fresh.ok) throw new Error('the export did not fit');
  const jsonl = fs.readFileSync(fresh.files.find((f) => f.name.endsWith('.jsonl'))!.path, 'utf8');
  for (const hers of HERS) expect(jsonl.includes(hers), `${hers}: ${jsonl.split('\n').find((l) => l.includes(hers))}`).toBe(false);
  const offline = verifyExport(jsonl);
  expect(offline.ok, offline.lines.join('\n')).toBe(true);
  expect(offline.lines).toContain(
    `guild g1: chain intact, ${verdict.chain.count} rows, head hash ${(verdict.chain as { headHash: string }).headHash}; ${named.here} of them hold a person's values that were erased (their commitments stay; dice, outcomes and every other value verified)`,
  );
  expect(offline.lines.join('\n')).toMatch(/pack rolls?.*(re-adjudicated|hold)/i);
  // Pressed again: nothing is left beside the chain, so nothing more is written.
  text(await router.handle({ type: 'button', customId: 'v1:privacy_erase:alice', actor: alice }));
  let erasures = 0;
  for await (const chunk of store.history.chunks({ guildId: 'g1', kinds: 'all' })) erasures += chunk.filter((r) => r.kind === 'erasure').length;
  expect(erasures).toBe(1);
}

describe('/privacy on SQLite', () => {
  it('shows, exports exactly their rows, and erases everything beside the chain after a confirmation only they can press', async () => {
    app = testApp();
    // The game's dice from its seed: the verifiers recompute them after the erasure.
    const router = createRouter({ ledger: app.ledger, log: app.log, roller: app.dice });
    await scenario(sqliteStore(app.ledger), router, app.dice);
    // The side tables hold her no more: her unit is no one's, under a name she did not type.
    const units = app.ledger.db.prepare("SELECT owner_id, owner_name, name FROM units WHERE side IS NULL AND owner_id = ''").get();
    expect(units).toEqual({ owner_id: '', owner_name: '', name: expect.stringMatching(/^erased-[0-9a-f]{8}$/) });
    expect(app.ledger.db.prepare('SELECT asker_id, player_id, player_name, roll, state FROM roll_requests').get()).toEqual({
      asker_id: 'gm',
      player_id: '',
      player_name: '',
      roll: '',
      state: 'cancelled',
    });
    // Nowhere in the file, byte for byte once freed pages are gone: her id, her name, what she typed.
    const file = `${tmpDb()}.vacuumed`;
    app.ledger.db.prepare('VACUUM INTO ?').run(file);
    const bytes = fs.readFileSync(file);
    for (const hers of HERS) expect(bytes.includes(Buffer.from(hers)), hers).toBe(false);
    // Bob's are untouched.
    for (const his of ['bob', 'Bob', 'Hohenstaufen']) expect(bytes.includes(Buffer.from(his)), his).toBe(true);
  });

  it('is refused while a running game waits for her seed: nobody could reveal it after', async () => {
    app = testApp();
    expectMessage(await subcommand(app, gm, 'game', 'start', { system: 'asl', name: 'Seeded' }));
    expectMessage(await subcommand(app, alice, 'game', 'join', { side: 'axis' }));
    expectMessage(await subcommand(app, alice, 'game', 'seed', { commit: 'a'.repeat(64) }));
    expect(expectError(await press(app, alice, 'v1:privacy_erase:alice'))).toBe(
      'Game Seeded waits for your seed: reveal it with /game seed first, or a GM drops it; a seed nobody can reveal would stop the game for everyone.',
    );
  });

  it('is refused while a running game of per-player dice keyed to Discord ids (started before the upgrade) has rolls of hers', async () => {
    app = testApp();
    expectMessage(await subcommand(app, gm, 'game', 'start', { system: 'asl', name: 'Old' }));
    app.ledger.db.prepare("UPDATE games SET dice_scheme = 'player-v1'").run();
    app.dice.push(3, 4);
    expectMessage(await app.router.handle({ type: 'command', name: 'dr', options: {}, actor: alice }));
    expect(expectError(await press(app, alice, 'v1:privacy_erase:alice'))).toBe(
      'Game Old is still running with your rolls in it: each player’s dice there follow their count of rolls, which an erasure would start again. Erase once a GM ends it with /game end.',
    );
    expectMessage(await subcommand(app, gm, 'game', 'end'));
    expect(text(await press(app, alice, 'v1:privacy_erase:alice'))).toContain('Your data is erased');
  });

  it('two players of one game erased: each one’s dice still recomputed, in their own sequence', async () => {
    app = testApp();
    // The game's dice from its seed (not pinned), so the verifiers recompute each.
    const router = createRouter({ ledger: app.ledger, log: app.log, roller: app.dice });
    const run = (actor: Actor, name: string, sub?: string) =>
      router.handle({ type: 'command', name, options: {}, actor, ...(sub ? { subcommand: sub } : {}) } as Parameters<typeof router.handle>[0]);
    expectMessage(await router.handle({ type: 'command', name: 'game', subcommand: 'start', options: { system: 'lightning-war', name: 'Two' }, actor: gm }));
    for (const who of [alice, bob, alice, bob, bob, alice])
      expectMessage(await router.handle({ type: 'command', name: 'morale', options: { morale: 'professional' }, actor: who }));
    await erasePerson(sqliteStore(app.ledger), 'alice');
    await erasePerson(sqliteStore(app.ledger), 'bob');
    expectMessage(await run(gm, 'game', 'end'));
    const verdict = await verifyLedger(sqliteStore(app.ledger), 'g1');
    expect(verdict.promises.lines.join('\n')).toMatch(/all 6 rolls' dice recomputed and equal/);
    expect(verdict.promises.ok && verdict.chain.ok).toBe(true);
  });

  it('exports a chunk at a time, refused once the file passes the limit; others’ searches of her are neither hers to take nor kept', async () => {
    app = testApp();
    await played(app.router, app.dice);
    expectMessage(await app.router.handle({ type: 'command', name: 'history', options: { user: 'alice' }, actor: bob, users: USERS }));
    const store = sqliteStore(app.ledger);
    await expect(personalFile(store, 'alice', store.timestamp(), 2000)).rejects.toThrow(
      /more than the 0 MB this reply may carry \(it passed that after \d of your rows\)/,
    );
    const { file } = await personalFile(store, 'alice', store.timestamp(), 1 << 22);
    expect('data' in file && file.data.toString()).not.toContain('"bob"');
    expectMessage(await subcommand(app, gm, 'game', 'end'));
    text(await press(app, alice, 'v1:privacy_erase:alice'));
    expect(app.ledger.db.prepare('SELECT COUNT(*) AS n FROM saved_queries').get()).toEqual({ n: 0 });
  });

  it('finds a person’s servers on a ledger of many without holding the event loop', async () => {
    app = testApp();
    for (let g = 0; g < 450; g++)
      app.ledger.append({
        guildId: `g${String(g).padStart(3, '0')}`,
        channelId: 'c',
        userId: 'other',
        userName: 'Other',
        command: 'dr',
        system: 'asl',
        kind: 'roll',
        input: {},
        dice: [3],
        outcome: {},
        result: 'x',
      });
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const summary = await sqliteStore(app.ledger).personal.summary('alice');
    clearInterval(ticking);
    expect(summary.byGuild).toEqual([]);
    expect(turns).toBeGreaterThan(0);
  });

  it('someone with nothing kept is told so, and erasing them writes nothing', async () => {
    app = testApp();
    const nobody: Actor = { ...alice, userId: 'nobody', userName: 'Nobody' };
    expect(text(await app.router.handle({ type: 'command', name: 'privacy', subcommand: 'show', options: {}, actor: nobody }))).toContain(
      'keeps nothing about you',
    );
    const r = expectMessage(await app.router.handle({ type: 'command', name: 'privacy', subcommand: 'erase', options: {}, actor: nobody }));
    expect(r.buttons).toEqual([]);
    // One who only rolled: nothing of theirs beside the chain is listed, and their rows are not offered as going.
    app.dice.push(4);
    expectMessage(await app.router.handle({ type: 'command', name: 'rally', options: { disorder: 1 }, actor: nobody }));
    const rows = text(await app.router.handle({ type: 'command', name: 'privacy', subcommand: 'erase', options: {}, actor: nobody }));
    expect(rows).toContain(
      'This erases, in 1 server:\nnothing beside the record but what other members’ signed requests hold of you, looked for when you press',
    );
  });

  it('answers in German and French', async () => {
    app = testApp();
    await played(app.router, app.dice);
    const de = text(await app.router.handle({ type: 'command', name: 'privacy', subcommand: 'show', options: {}, actor: alice, locale: 'de' }));
    expect(de).toContain('Was dieser Bot über dich speichert');
    expect(de).toContain('3 Einträge von dir im Protokoll (2 auf diesem Server)');
    const fr = text(await app.router.handle({ type: 'command', name: 'privacy', subcommand: 'erase', options: {}, actor: alice, locale: 'fr' }));
    expect(fr).toContain('Effacer tes données\u202f?');
  });
});

describe('/privacy on PostgreSQL', () => {
  it('does the same on the shared backend', async (t) => {
    const server = await testPostgres();
    if (!server) return t.skip();
    const store = await PgStore.connect(await freshDatabase(server));
    try {
      const dice = queueRoller();
      const router = createRouter({ ledger: store, log: createLogger({ level: 'silent' }), roller: dice });
      await scenario(store, router, dice);
      // Every table of the database as text: nothing of hers, Bob's still there.
      const tables = (await store.ledger.pool.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'")).rows.map((r) => r.t);
      let all = '';
      for (const t of tables) all += (await store.ledger.pool.query<{ r: string }>(`SELECT x::text AS r FROM ${t} x`)).rows.map((r) => r.r).join('\n');
      for (const hers of HERS) expect(all.includes(hers), hers).toBe(false);
      for (const his of ['bob', 'Bob', 'Hohenstaufen']) expect(all.includes(his), his).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('a tournament game whose player is erased', () => {
  /** The export at `now` (ms), as text. */
  async function exported(store: LedgerStore, now: number): Promise<string> {
    const result = await exportLedger(store, { filter: { guildId: 'g1', kinds: 'all' }, limit: 1 << 22, stamp: `t${now}`, now });
    if (!result.ok) throw new Error('the export did not fit');
    return fs.readFileSync(result.files.find((f) => f.name.endsWith('.jsonl'))!.path, 'utf8');
  }

  /** A tournament beacon game of four rolls by players p0 and p1, every request Discord-signed, ended. */
  const tournament = () => {
    const test = testChain(13, 3);
    const startMs = (test.chain.genesis_time + 39 * test.chain.period) * 1000 + 1500 - test.chain.period * 1000;
    return playBeaconGame(tmpDb(), test.chain, test.sign, { rolls: 4, players: 2, startMs, discord: fakeDiscordKey() });
  };

  it('loses their signed requests; every verifier says they were erased, and when, instead of failing the game', async () => {
    const { ledger } = await tournament();
    const store = sqliteStore(ledger);
    try {
      const later = Date.parse(store.timestamp()) + 16 * 60_000;
      const before = verifyExport(await exported(store, later));
      expect(before.ok, before.lines.join('\n')).toBe(true);
      const kept = () => (ledger.db.prepare('SELECT COUNT(*) AS n FROM interaction_evidence').get() as { n: number }).n;
      expect(kept()).toBe(6);
      const theirs: string[] = [];
      for await (const chunk of store.history.chunks({ guildId: 'g1', kinds: 'all' })) for (const r of chunk) if (r.user_id === 'p1') theirs.push(r.id);
      expect(theirs).toHaveLength(2);
      await erasePerson(store, 'p1');
      // Player 1's two requests are gone; player 0's four (the start, two rolls, the end) stay.
      expect(kept()).toBe(4);
      // Nothing of theirs in the file, byte for byte once freed pages are gone; player 0's name stays.
      const file = `${tmpDb()}.vacuumed`;
      ledger.db.prepare('VACUUM INTO ?').run(file);
      const bytes = fs.readFileSync(file);
      expect([bytes.includes(Buffer.from('Player 1')), bytes.includes(Buffer.from('"p1"')), bytes.includes(Buffer.from('Player 0'))]).toEqual([
        false,
        false,
        true,
      ]);
      const inBot = await verifyLedger(store, 'g1');
      expect(inBot.promises.ok, inBot.promises.lines.join('\n')).toBe(true);
      const erasedLine = new RegExp(
        `tournament: every roll asked through Discord but those erased below; .*2 requests erased with a person's data, so those rows rest on the host's word: ${theirs[0]} \\(.+, row \\w+\\), ${theirs[1]} \\(`,
      );
      expect(inBot.promises.lines.join('\n')).toMatch(erasedLine);
      const text = await exported(store, Date.parse(store.timestamp()) + 16 * 60_000);
      const report = verifyExport(text);
      expect(report.ok, report.lines.join('\n')).toBe(true);
      expect(report.lines.join('\n')).toMatch(erasedLine);

      // An erasure stands for a request only after its row: one moved before the roll is no erasure of it.
      const forged = rewritten(text, (all) => {
        const [erasure] = all.splice(
          all.findIndex((r) => r.kind === 'erasure'),
          1,
        );
        all.splice(
          all.findIndex((r) => r.id === theirs[1]),
          0,
          erasure!,
        );
        let n = 0;
        for (const r of all) if (!('evidence' in r) && !('signing_key' in r)) Object.assign(r, { seq: ++n, guild_seq: n });
      });
      const refused = verifyExport(forged);
      expect(refused.ok).toBe(false);
      expect(refused.lines.join('\n')).toContain(`the Discord-signed request of roll ${theirs[1]} is not in this export`);

      // A host's forgery laundered by an erasure row: a roll of player 0 pointed at an interaction nobody
      // asked (its request gone), named by a made-up erasure of others' requests. It is no interaction
      // of the row's time, so the erasure cannot stand for it.
      const launder = (bad: (roll: Row) => string) =>
        verifyExport(
          rewritten(text, (all) => {
            const roll = all.find((r) => r.user_id === 'p0' && r.kind === 'roll')!;
            drop(all, roll.input.evidence.interaction);
            roll.input.evidence.interaction = bad(roll);
            all.find((r) => r.kind === 'erasure')!.input.evidence_naming = [roll.input.evidence.interaction];
          }),
        );
      const madeUp = launder(() => 'made-up-by-the-host');
      expect(madeUp.ok).toBe(false);
      expect(madeUp.lines.join('\n')).toMatch(
        /is not in this export \(row \w+ names interaction made-up-by-the-host, which is no Discord interaction of the row's time/,
      );
      // A real snowflake of the row's time, but not the one its beacon round was bound to: the dice were not drawn for it.
      const rebound = launder((roll) => String(BigInt(roll.input.beacon.interaction) + 1n));
      expect(rebound.ok).toBe(false);
      expect(rebound.lines.join('\n')).toContain('but its beacon round was bound to');
    } finally {
      ledger.close();
    }
  });

  it('an erasure takes all of a person’s requests: one taking a single convenient roll’s is named', async () => {
    const { ledger } = await tournament();
    const store = sqliteStore(ledger);
    try {
      const text = await exported(store, Date.parse(store.timestamp()) + 16 * 60_000);
      const partial = verifyExport(
        rewritten(text, (all) => {
          const [first, second] = all.filter((r) => r.user_id === 'p1' && r.kind === 'roll');
          drop(all, second!.input.evidence.interaction);
          const last = all.filter((r) => !('evidence' in r) && !('signing_key' in r)).at(-1)!;
          const erasure = {
            ...last,
            id: 'erasure001',
            seq: last.seq + 1,
            guild_seq: last.guild_seq + 1,
            channel_id: '',
            user_id: '',
            user_name: '',
            game_id: null,
            turn: null,
            phase: null,
            game_seq: null,
            command: 'privacy',
            kind: 'erasure',
            system: null,
            unit: null,
            input: { erased: { evidence: 1 }, evidence_erased: [second!.input.evidence.interaction], evidence_naming: [] },
            dice: [],
            outcome: { result: 'erased', steps: [], system: 'unknown', tone: 'neutral' },
            result: 'erased',
            parent_id: null,
            once_key: null,
            created_at: new Date(Date.parse(last.created_at) + 60_000).toISOString(),
          };
          all.splice(all.indexOf(last) + 1, 0, erasure);
          expect(first).toBeDefined();
        }),
      );
      expect(partial.ok).toBe(false);
      expect(partial.lines.join('\n')).toMatch(
        /erasure row erasure001 takes some of a player's requests but leaves the one of row \w+: an erasure takes all of a person's requests/,
      );
    } finally {
      ledger.close();
    }
  });

  it('a filtered export, and /verify up to a roll before the erasure, still hold', async () => {
    const { ledger, gameId } = await tournament();
    const store = sqliteStore(ledger);
    try {
      await erasePerson(store, 'p1');
      const now = Date.parse(store.timestamp()) + 16 * 60_000;
      const result = await exportLedger(store, { filter: { guildId: 'g1', gameId, kinds: 'all', erasures: true }, limit: 1 << 22, stamp: 'game', now });
      if (!result.ok) throw new Error('the export did not fit');
      const report = verifyExport(fs.readFileSync(result.files.find((f) => f.name.endsWith('.jsonl'))!.path, 'utf8'));
      expect(report.ok, report.lines.join('\n')).toBe(true);
      const theirs: number[] = [];
      for await (const chunk of store.history.chunks({ guildId: 'g1', userId: 'p1', kinds: 'all' })) theirs.push(...chunk.map((r) => r.guild_seq));
      const upTo = await verifyLedger(store, 'g1', theirs.at(-1)!);
      expect(upTo.promises.ok, upTo.promises.lines.join('\n')).toBe(true);
    } finally {
      ledger.close();
    }
  });

  it('is refused while a roll of hers waits for its beacon round', async () => {
    app = testApp();
    app.ledger.db
      .prepare('INSERT INTO beacon_bindings (interaction_id, guild_id, channel_id, user_id, round, request, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run('1', 'g1', 'c1', 'alice', 42, '{}', new Date().toISOString());
    expect(expectError(await press(app, alice, 'v1:privacy_erase:alice'))).toContain('waits for beacon round 42');
  });
});
