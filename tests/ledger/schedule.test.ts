import { afterAll, describe, expect, it } from 'vitest';
import type { APIEmbed } from 'discord.js';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply, UserFacts } from '../../src/core/command.js';
import type { Request } from '../../src/core/router.js';
import { Scheduler, type ClockPost } from '../../src/core/schedule.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { alice, bob, queueRoller } from '../helpers/app.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { tmpDb } from '../helpers/tmp.js';

// Reminders and status cards live in the ledger's database: they survive a restart, and of several
// processes on one database one fires each, once. The clock is the test's: it is set, never waited on.

const server = await testPostgres();
afterAll(() => server?.stop());

const log = createLogger({ level: 'silent', write: () => undefined });
const USERS: Record<string, UserFacts> = { bob: { name: 'Bob', bot: false, member: true }, alice: { name: 'Alice', bot: false, member: true } };
const H = 3600_000;
const T0 = Date.parse('2026-03-02T08:00:00.000Z');

/** A clock the test moves. */
function testClock() {
  let t = T0;
  return {
    now: () => new Date(t),
    set: (ms: number) => {
      t = T0 + ms;
    },
  };
}

/** A Discord that keeps what the scheduler posts and edits. */
function recorder() {
  const posts: { channelId: string; content?: string; embed?: APIEmbed; mention?: string; id: string }[] = [];
  const edits: { messageId: string; embed: APIEmbed }[] = [];
  let n = 0;
  const out: ClockPost = {
    post: async (_g, channelId, m) => {
      const id = `m${++n}`;
      posts.push({ channelId, ...m, id });
      return id;
    },
    edit: async (_g, _c, messageId, embed) => {
      edits.push({ messageId, embed });
      return true;
    },
  };
  return { out, posts, edits, reminders: () => posts.filter((p) => p.mention) };
}

const run = async (store: LedgerStore, actor: Actor, name: string, subcommand: string | undefined, options: Record<string, unknown>) => {
  const dice = queueRoller();
  const router = createRouter({ ledger: store, log, roller: dice, gameRoller: () => dice });
  const reply: Reply = await router.handle({ type: 'command', name, ...(subcommand ? { subcommand } : {}), options, actor, users: USERS } as Request);
  if (reply.type === 'error') throw new Error(reply.message);
  return reply;
};

/** A game whose clock reminds after 12 h and again every 6 h, with Bob to move. */
async function gameWithClock(store: LedgerStore): Promise<void> {
  await run(store, alice, 'game', 'start', { system: 'asl', name: 'Slow Game' });
  await run(store, alice, 'game', 'clock', { remind_after: '12h', repeat_every: '6h' });
  await run(store, alice, 'game', 'turn', { number: 1, player: 'bob' });
}

describe('reminders on SQLite', () => {
  it('fire once when due, again at most as often as set, and not again after a restart', async () => {
    const file = tmpDb();
    const clock = testClock();
    let ledger = Ledger.open(file, { now: clock.now });
    await gameWithClock(sqliteStore(ledger));
    const d = recorder();
    let scheduler = new Scheduler(sqliteStore(ledger), d.out, log, clock.now);
    clock.set(11 * H);
    await scheduler.tick();
    expect(d.reminders()).toEqual([]);
    clock.set(12 * H);
    await scheduler.tick();
    await scheduler.tick();
    expect(d.reminders().map((p) => p.mention)).toEqual(['bob']);
    expect(d.reminders()[0]!.content).toContain('<@bob>, Slow Game waits for your move');
    // A restart: the reminder that fired is not fired again.
    ledger.close();
    ledger = Ledger.open(file, { now: clock.now });
    scheduler = new Scheduler(sqliteStore(ledger), d.out, log, clock.now);
    await scheduler.tick();
    clock.set(17 * H);
    await scheduler.tick();
    expect(d.reminders()).toHaveLength(1);
    clock.set(18 * H);
    await scheduler.tick();
    await scheduler.tick();
    expect(d.reminders()).toHaveLength(2);
    ledger.close();
  });

  it('keeps quiet hours: a reminder due in them waits for their end', async () => {
    const clock = testClock();
    const ledger = Ledger.open(tmpDb(), { now: clock.now });
    const store = sqliteStore(ledger);
    await gameWithClock(store);
    // 08:00 + 12 h = 20:00 UTC, in the quiet hours 19:00–07:30.
    await run(store, alice, 'game', 'clock', { quiet: '19-07:30' });
    const d = recorder();
    const scheduler = new Scheduler(store, d.out, log, clock.now);
    clock.set(12 * H);
    await scheduler.tick();
    clock.set(23 * H);
    await scheduler.tick();
    expect(d.reminders()).toEqual([]);
    expect(ledger.requests.schedule(`turn:${ledger.roster.activeGame('g1', 'c1')!.id}`)!.due_at).toBe('2026-03-03T07:30:00.000Z');
    clock.set(23.5 * H);
    await scheduler.tick();
    expect(d.reminders()).toHaveLength(1);
    ledger.close();
  });

  it('remind an asked player until they answer, and never after', async () => {
    const clock = testClock();
    const ledger = Ledger.open(tmpDb(), { now: clock.now });
    const store = sqliteStore(ledger);
    await gameWithClock(store);
    await run(store, alice, 'unit', 'add', { name: 'Squad 3', fields: 'counter:German 4-6-7' });
    const asked = await run(store, alice, 'ask', 'roll', { player: 'bob', roll: 'hob unit:"Squad 3"' });
    const id = /v1:ask:(\w+)/.exec((asked as Extract<Reply, { type: 'message' }>).buttons[0]!.custom_id)![1]!;
    const d = recorder();
    const scheduler = new Scheduler(store, d.out, log, clock.now);
    clock.set(12 * H);
    await scheduler.tick();
    expect(d.reminders().filter((p) => p.content?.includes('waits for your roll'))).toHaveLength(1);
    ledger.requests.cancelRequest(id, 'alice', new Date(T0 + 13 * H).toISOString());
    clock.set(30 * H);
    await scheduler.tick();
    expect(d.reminders().filter((p) => p.content?.includes('waits for your roll'))).toHaveLength(1);
    ledger.close();
  });
});

describe.skipIf(!server)('reminders on PostgreSQL, two processes', () => {
  it('are fired by one process, once', async () => {
    const url = await freshDatabase(server!);
    const clock = testClock();
    const [a, b] = [await PgStore.connect(url, { now: clock.now }), await PgStore.connect(url, { now: clock.now })];
    try {
      await gameWithClock(a);
      const [da, db] = [recorder(), recorder()];
      const [sa, sb] = [new Scheduler(a, da.out, log, clock.now), new Scheduler(b, db.out, log, clock.now)];
      clock.set(12 * H);
      await Promise.all([sa.tick(), sb.tick(), sa.tick(), sb.tick()]);
      expect([...da.reminders(), ...db.reminders()].map((p) => p.mention)).toEqual(['bob']);
      // Both read the same due time; only one conditional update finds it.
      clock.set(18 * H);
      const [seenA, seenB] = [await a.requests.dueSchedules(clock.now().toISOString(), 10), await b.requests.dueSchedules(clock.now().toISOString(), 10)];
      const turn = seenA.find((s) => s.kind === 'turn')!;
      expect(seenB.find((s) => s.kind === 'turn')!.due_at).toBe(turn.due_at);
      const claims = await Promise.all(
        [a, b].map((store) => store.transaction((tx) => tx.requests.claimSchedule(turn.id, turn.due_at!, null, clock.now().toISOString()), 'g1')),
      );
      expect(claims.sort()).toEqual([false, true]);
      // A third process started later finds nothing left to fire.
      const c = await PgStore.connect(url, { now: clock.now });
      const dc = recorder();
      await new Scheduler(c, dc.out, log, clock.now).tick();
      expect(dc.reminders()).toEqual([]);
      await c.close();
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the status card', () => {
  it('is posted once, then edited in place as the game goes', async () => {
    const clock = testClock();
    const ledger = Ledger.open(tmpDb(), { now: clock.now });
    const store = sqliteStore(ledger);
    await gameWithClock(store);
    const d = recorder();
    const scheduler = new Scheduler(store, d.out, log, clock.now);
    await scheduler.tick();
    const cards = () => d.posts.filter((p) => p.embed);
    expect(cards()).toHaveLength(1);
    expect(cards()[0]!.embed!.fields!.find((f) => f.name === 'Whose move')!.value).toContain('<@bob>');
    await run(store, bob, 'game', 'turn', { number: 2, player: 'alice' }).catch(() => undefined);
    await run(store, alice, 'game', 'turn', { number: 2, player: 'alice' });
    await scheduler.tick();
    expect(cards()).toHaveLength(1);
    expect(d.edits.map((e) => e.messageId)).toEqual([cards()[0]!.id]);
    expect(d.edits[0]!.embed.fields!.find((f) => f.name === 'Turn')!.value).toBe('2');
    ledger.close();
  });
});

/** One result of each built-in system, as its game makes it: the command, its options, its pinned dice. */
const SYSTEM_ROLLS: { system: string; units?: Record<string, string>; name: string; sub?: string; options: Record<string, unknown>; dice: number[] }[] = [
  { system: 'asl', name: 'mc', options: { unit: 'German 4-6-7', number: 1 }, dice: [3, 4] },
  { system: 'hearts-of-tin', name: 'rally', options: { disorder: 2, unit: '1st Foot' }, dice: [4] },
  { system: 'lightning-war', name: 'morale', options: { morale: 'professional', unit: 'Panzer IV' }, dice: [3, 3, 3] },
  {
    system: 'wacht-am-rhein',
    units: { A: 'attack:4 defense:4 movement:4' },
    name: 'fatigue',
    sub: 'event',
    options: { unit: 'A', event: 'ena_activated' },
    dice: [],
  },
];

describe.each(SYSTEM_ROLLS)('the status card of a $system game', (t) => {
  it('follows the game: its turn, whose move, its open requests and its last rolls', async () => {
    const clock = testClock();
    const ledger = Ledger.open(tmpDb(), { now: clock.now });
    const store = sqliteStore(ledger);
    const dice = queueRoller();
    const router = createRouter({ ledger: store, log, roller: dice, gameRoller: () => dice });
    const send = async (actor: Actor, name: string, subcommand: string | undefined, options: Record<string, unknown>) => {
      const reply = await router.handle({ type: 'command', name, ...(subcommand ? { subcommand } : {}), options, actor, users: USERS } as Request);
      if (reply.type === 'error') throw new Error(reply.message);
      return reply;
    };
    await send(alice, 'game', 'start', { system: t.system, name: 'Long Game' });
    for (const [name, fields] of Object.entries(t.units ?? {})) await send(bob, 'unit', 'add', { name, fields });
    await send(alice, 'game', 'clock', { remind_after: '1d' });
    await send(alice, 'game', 'turn', { number: 3, phase: 'combat', player: 'bob' });
    const d = recorder();
    const scheduler = new Scheduler(store, d.out, log, clock.now);
    await scheduler.tick();
    const card = () => d.edits.at(-1)?.embed ?? d.posts.find((p) => p.embed)!.embed!;
    const field = (name: string) => card().fields!.find((f) => f.name === name)!.value;
    expect(card().title).toBe('Status · Long Game');
    expect(field('Turn')).toBe('3 · combat');
    expect(field('Last rolls')).toBe('none yet');

    // A requested roll is on the card while it waits (Wacht am Rhein has no roll to ask for).
    if (!t.sub) {
      const roll = [t.name, ...Object.entries(t.options).map(([k, v]) => `${k}:"${String(v)}"`)].join(' ');
      await send(alice, 'ask', 'roll', { player: 'bob', roll });
      clock.set(30_000);
      await scheduler.tick();
      expect(field('Open requests')).toContain(`<@bob> \`/${t.name} `);
    }
    dice.push(...t.dice);
    await send(bob, t.name, t.sub, t.options);
    expect(dice.pending()).toBe(0);
    clock.set(60_000);
    await scheduler.tick();
    expect(field('Last rolls')).toMatch(new RegExp(`^<@bob> /${t.name}`));
    await send(alice, 'game', 'turn', { number: 4, player: 'alice' });
    await scheduler.tick();
    expect(field('Turn')).toBe('4');
    expect(field('Whose move')).toContain('<@alice>');
    // Posted once; every change after is an edit of that message.
    expect(d.posts.filter((p) => p.embed)).toHaveLength(1);
    expect(new Set(d.edits.map((e) => e.messageId))).toEqual(new Set([d.posts.find((p) => p.embed)!.id]));
    ledger.close();
  });
});
