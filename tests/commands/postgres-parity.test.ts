import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply } from '../../src/core/command.js';
import type { Request } from '../../src/core/router.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { alice, bob, gm, queueRoller } from '../helpers/app.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { tmpDb } from '../helpers/tmp.js';

// The bot on PostgreSQL answers exactly as on SQLite. One scripted session — games, a
// roster, rolls that write back to it, a re-roll button, a sealed roll and its reveal, GM settings,
// history, verification, autocomplete, refusals — runs through the real router on each backend with
// the same dice; every reply must match once ids, hashes and times are set aside.
const server = await testPostgres();
afterAll(() => server?.stop());

const other: Actor = { ...alice, guildId: 'g2', channelId: 'c9', userId: 'carol', userName: 'Carol' };
type Step = { actor: Actor; req: Omit<Request, 'actor'>; dice?: number[] };
const cmd = (actor: Actor, name: string, options: Record<string, unknown> = {}, dice?: number[], subcommand?: string): Step => ({
  actor,
  req: { type: 'command', name, options, ...(subcommand ? { subcommand } : {}) } as Omit<Request, 'actor'>,
  ...(dice ? { dice } : {}),
});
const sub = (actor: Actor, name: string, subcommand: string, options: Record<string, unknown> = {}, dice?: number[]) =>
  cmd(actor, name, options, dice, subcommand);

/** The session; a step may use an earlier reply (a button's custom_id, a roll id). */
const script: ((replies: Reply[]) => Step)[] = [
  () => sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' }),
  () => sub(alice, 'unit', 'add', { name: '1st Foot', fields: 'disorder:2 quality:regular original:4 strength:4' }),
  () => sub(bob, 'unit', 'add', { name: '1st foot', fields: 'original:3' }),
  () => cmd(alice, 'rally', { unit: '1st Foot', commander_near: true }, [1]),
  (r) => ({ actor: gm, req: { type: 'button', customId: buttonOf(r[3]!) }, dice: [5] }),
  (r) => ({ actor: gm, req: { type: 'button', customId: buttonOf(r[3]!) } }),
  () => sub(alice, 'unit', 'show', { unit: '1st Foot' }),
  () => sub(gm, 'game', 'turn', { number: 2, phase: 'Rally Phase' }),
  () => cmd(bob, 'disorder', { strength: 4, lost: 1, melee: 'defeated' }),
  () => cmd(bob, 'rally', { disorder: 1, sealed: true }, [6]),
  (r) => cmd(gm, 'reveal', { id: rollIdOf(r[9]!) }),
  () => cmd(other, 'rally', { disorder: 3, unit: 'Grenadiers' }, [2]),
  () => ({ actor: alice, req: { type: 'autocomplete', name: 'rally', option: 'unit', value: '1st' } }),
  () => ({ actor: other, req: { type: 'autocomplete', name: 'rally', option: 'unit', value: '' } }),
  () => sub(gm, 'config', 'gm-role', { role: 'r1' }),
  () => cmd(alice, 'history', {}),
  () => cmd(gm, 'history', { scope: 'server', user: 'bob' }),
  () => cmd(gm, 'verify', {}),
  () => cmd(gm, 'stats', { scope: 'server' }),
  () => cmd(gm, 'export', {}),
  () => cmd(other, 'verify', {}),
  () => sub(alice, 'game', 'status'),
  () => sub(alice, 'unit', 'list'),
  () => sub(bob, 'unit', 'remove', { unit: '1st Foot' }),
  () => sub(alice, 'game', 'end'),
  () => sub(alice, 'game', 'status'),
  () => cmd(alice, 'morale', { morale: 'professional' }, [3, 3, 3]),
];

function buttonOf(reply: Reply): string {
  if (reply.type !== 'message' || !reply.buttons[0]) throw new Error(`no button in ${JSON.stringify(reply)}`);
  return reply.buttons[0].custom_id;
}
function rollIdOf(reply: Reply): string {
  if (reply.type !== 'message' || !reply.record) throw new Error(`no roll in ${JSON.stringify(reply)}`);
  return reply.record.roll_id;
}

/**
 * A reply with what must differ between two ledgers set aside: the ids the ledger drew (rolls, games,
 * saved queries — numbered in order of appearance), hashes and times.
 */
function normalised(reply: Reply, drawn: Set<string>, ids: Map<string, string>): unknown {
  const text = JSON.stringify(reply)
    .replace(/\b[0-9a-z]{10}\b/g, (id) => {
      if (!drawn.has(id)) return id;
      if (!ids.has(id)) ids.set(id, `<id${ids.size}>`);
      return ids.get(id)!;
    })
    .replace(/\b[0-9a-f]{64}\b/g, '<hash>')
    .replace(/`[0-9a-f]{12}…`/g, '`<fingerprint>…`')
    .replace(/`[0-9a-f]{8}`/g, '`<hash8>`')
    .replace(/hash [0-9a-f]{8}\b/g, 'hash <hash8>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>')
    .replace(/<t:\d+(:\w)?>/g, '<t>')
    .replace(/"path":"[^"]+"/g, '"path":"<spooled>"');
  return JSON.parse(text);
}

async function session(store: LedgerStore, idsDrawn: () => Promise<string[]>): Promise<unknown[]> {
  const dice = queueRoller();
  const router = createRouter({ ledger: store, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
  const replies: Reply[] = [];
  const ids = new Map<string, string>();
  for (const step of script) {
    const s = step(replies);
    if (s.dice) dice.push(...s.dice);
    replies.push(await router.handle({ ...s.req, actor: s.actor } as Request));
  }
  expect(dice.pending()).toBe(0);
  const drawn = new Set(await idsDrawn());
  return replies.map((r) => normalised(r, drawn, ids));
}

describe.skipIf(!server)('the bot on PostgreSQL answers as on SQLite', () => {
  it('a whole scripted session: every reply the same, every chain whole', async () => {
    const sqlite = Ledger.open(tmpDb());
    const pg = await PgStore.connect(await freshDatabase(server!));
    const ID_SQL = 'SELECT id FROM rolls UNION ALL SELECT id FROM games UNION ALL SELECT id FROM saved_queries';
    const onSqlite = await session(sqliteStore(sqlite), async () => (sqlite.db.prepare(ID_SQL).all() as { id: string }[]).map((r) => r.id));
    const onPg = await session(pg, async () => (await pg.ledger.pool.query<{ id: string }>(ID_SQL)).rows.map((r) => r.id));
    for (let i = 0; i < script.length; i++) expect(onPg[i], `step ${i}: ${JSON.stringify(onSqlite[i]).slice(0, 200)}`).toEqual(onSqlite[i]);
    // The session did what it says (a sanity check of the script, on either backend).
    for (const said of ['already joined', 'Dice report', 'Ledger export', 'Ledger intact', 'revealed by Game Master'])
      expect(JSON.stringify(onSqlite)).toContain(said);
    expect(await pg.verifyInChunks('g1')).toMatchObject({ ok: true, count: sqlite.count('g1') });
    expect(await pg.verifyInChunks('g2')).toMatchObject({ ok: true, count: 1 });
    sqlite.close();
    await pg.close();
  });
});

describe.skipIf(!server)('a row edited outside the bot, on PostgreSQL', () => {
  it('/verify names the break and /roll show marks the row, where a JSON column does not parse or is of a shape the bot never writes', async () => {
    const pg = await PgStore.connect(await freshDatabase(server!));
    const dice = queueRoller();
    const router = createRouter({ ledger: pg, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
    const ask = (actor: Actor, req: Record<string, unknown>) => router.handle({ ...req, actor } as Request);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      dice.push(5);
      ids.push(rollIdOf(await ask(alice, { type: 'command', name: 'rally', options: { disorder: 1, unit: `Unit ${i}` } })));
    }
    await pg.ledger.pool.query('ALTER TABLE rolls DISABLE TRIGGER rolls_no_change');
    for (const [column, text] of [
      ['outcome', '{not json'],
      ['dice', '7'],
      ['input', 'null'],
    ]) {
      await pg.ledger.pool.query(`UPDATE rolls SET ${column} = $1 WHERE id = $2`, [text, ids[1]]);
      const verdict = await ask(gm, { type: 'command', name: 'verify', options: {} });
      expect(verdict.type === 'message' && verdict.embed.description).toBe(
        `The chain breaks at row ${ids[1]} (position 2): hash does not match the row contents: the row was edited. The 1 row before it hold.`,
      );
      const shown = await ask(gm, { type: 'command', name: 'roll', subcommand: 'show', options: { id: ids[1] } });
      expect(shown.type === 'message' && shown.embed.fields!.at(-1)!.value).toContain(
        'This row holds values the bot never writes: it was edited outside the bot.',
      );
    }
    await pg.close();
  });

  it('/verify names the break where a committed value is replaced by one no commitment can be made of (a lone surrogate)', async () => {
    const pg = await PgStore.connect(await freshDatabase(server!));
    const dice = queueRoller();
    const router = createRouter({ ledger: pg, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
    dice.push(3, 4);
    const id = rollIdOf(await router.handle({ type: 'command', name: 'dr', options: { note: 'Alice aims at the bridge' }, actor: alice } as Request));
    await pg.ledger.pool.query('ALTER TABLE rolls DISABLE TRIGGER rolls_no_change');
    await pg.ledger.pool.query(`UPDATE rolls SET input = replace(input, '"Alice aims at the bridge"', '"\\ud800"') WHERE id = $1`, [id]);
    expect(await pg.verifyInChunks('g1')).toMatchObject({ ok: false, broken: { id, reason: 'hash does not match the row contents: the row was edited' } });
    await pg.close();
  });
});
