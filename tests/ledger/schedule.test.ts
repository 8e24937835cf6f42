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

const run = async (
  store: LedgerStore,
  actor: Actor,
  name: string,
  subcommand: string | undefined,
  options: Record<string, unknown>,
  where: { guildLocale?: string } = {},
) => {
  const dice = queueRoller();
  const router = createRouter({ ledger: store, log, roller: dice, gameRoller: () => dice });
  const reply: Reply = await router.handle({ type: 'command', name, ...(subcommand ? { subcommand } : {}), options, actor, users: USERS, ...where } as Request);
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

describe('reminders in the language of the server', () => {
  it('speak German to a German server and French to a French one, whatever language last rolled there', async () => {
    for (const [locale, turn, asked] of [
      ['de', '<@bob>, Slow Game wartet auf deinen Zug', '<@bob>, Slow Game wartet auf deinen Wurf: `/hob unit:"Squad 3"`, angefordert von <@alice>'],
      ['fr', '<@bob>, Slow Game attend ton coup', '<@bob>, Slow Game attend ton jet : `/hob unit:"Squad 3"`, demandé par <@alice>'],
    ] as const) {
      const clock = testClock();
      const ledger = Ledger.open(tmpDb(), { now: clock.now });
      const store = sqliteStore(ledger);
      await run(store, alice, 'game', 'start', { system: 'asl', name: 'Slow Game' });
      await run(store, alice, 'game', 'clock', { remind_after: '12h' }, { guildLocale: locale });
      await run(store, alice, 'game', 'turn', { number: 1, player: 'bob' }, { guildLocale: locale });
      await run(store, alice, 'unit', 'add', { name: 'Squad 3', fields: 'counter:German 4-6-7' });
      await run(store, alice, 'ask', 'roll', { player: 'bob', roll: 'hob unit:"Squad 3"' }, { guildLocale: locale });
      const d = recorder();
      clock.set(12 * H);
      await new Scheduler(store, d.out, log, clock.now).tick();
      // French spacing before a colon is the formatter's (a no-break space): read here as a space.
      const said = d.reminders().map((p) => (p.content ?? '').replace(/[\u00a0\u202f]/g, ' '));
      expect(said.some((c) => c.startsWith(turn))).toBe(true);
      expect(said.some((c) => c.startsWith(asked))).toBe(true);
      expect(d.posts.find((p) => p.embed)?.embed?.title).toBe(locale === 'de' ? 'Stand · Slow Game' : 'État · Slow Game');
      ledger.close();
    }
  });
});

describe('quiet hours across a change of the clocks', () => {
  it('end when the zone reads their end, the nights summer time begins and ends', async () => {
    // 22:00–07:00 in Berlin. The night of 27–28 March 2027 loses an hour, that of 30–31 October gains one.
    for (const [turnAt, quietEndsAt] of [
      ['2027-03-27T10:00:00.000Z', '2027-03-28T05:00:00.000Z'],
      ['2027-10-30T09:00:00.000Z', '2027-10-31T06:00:00.000Z'],
    ] as const) {
      let t = Date.parse(turnAt);
      const now = () => new Date(t);
      const ledger = Ledger.open(tmpDb(), { now });
      const store = sqliteStore(ledger);
      await run(store, alice, 'game', 'start', { system: 'asl', name: 'Slow Game' });
      await run(store, alice, 'game', 'clock', { remind_after: '12h', quiet: '22-07', time_zone: 'Europe/Berlin' });
      await run(store, alice, 'game', 'turn', { number: 1, player: 'bob' });
      const d = recorder();
      const scheduler = new Scheduler(store, d.out, log, now);
      t += 12 * H;
      await scheduler.tick();
      expect(d.reminders()).toEqual([]);
      expect(ledger.requests.schedule(`turn:${ledger.roster.activeGame('g1', 'c1')!.id}`)!.due_at).toBe(quietEndsAt);
      ledger.close();
    }
  });
});

describe('a reminder Discord did not take', () => {
  /** A Discord that fails the next `failing` posts. */
  function flaky(failing: number) {
    const d = recorder();
    const nonces: (string | undefined)[] = [];
    const out: ClockPost = {
      ...d.out,
      post: async (g, c, m) => {
        nonces.push(m.nonce);
        if (failing-- > 0) throw new Error('503 Service Unavailable');
        return d.out.post(g, c, m);
      },
    };
    return { ...d, out, nonces };
  }

  for (const backend of ['SQLite', 'PostgreSQL'] as const) {
    it.skipIf(backend === 'PostgreSQL' && !server)(`is tried again after 1, 2 and 4 minutes, under the same nonce, on ${backend}`, async () => {
      const clock = testClock();
      const store =
        backend === 'SQLite' ? sqliteStore(Ledger.open(tmpDb(), { now: clock.now })) : await PgStore.connect(await freshDatabase(server!), { now: clock.now });
      try {
        await run(store, alice, 'game', 'start', { system: 'asl', name: 'Slow Game' });
        await run(store, alice, 'game', 'clock', { remind_after: '12h', repeat_every: '6h' });
        await run(store, alice, 'game', 'turn', { number: 1, player: 'bob' });
        // The card is drawn first; then three posts fail.
        const d = flaky(0);
        const scheduler = new Scheduler(store, d.out, log, clock.now);
        await scheduler.tick();
        const failing = flaky(3);
        const retried = new Scheduler(store, failing.out, log, clock.now);
        const minutes = [0, 1, 3, 7];
        for (const m of minutes) {
          clock.set(12 * H + m * 60_000);
          await retried.tick();
        }
        expect(failing.reminders().map((p) => p.mention)).toEqual(['bob']);
        expect(failing.nonces).toHaveLength(4);
        expect(new Set(failing.nonces).size).toBe(1);
        // Delivered, its tries start again: the next firing (6 h on) has a nonce of its own.
        clock.set(18 * H + 7 * 60_000);
        await retried.tick();
        expect(failing.reminders()).toHaveLength(2);
        expect(failing.nonces.at(-1)).not.toBe(failing.nonces[0]);
      } finally {
        await store.close();
      }
    });
  }

  it('is given up after five tries, and the next firing still comes', async () => {
    const clock = testClock();
    const ledger = Ledger.open(tmpDb(), { now: clock.now });
    const store = sqliteStore(ledger);
    await run(store, alice, 'game', 'start', { system: 'asl', name: 'Slow Game' });
    await run(store, alice, 'game', 'clock', { remind_after: '12h', repeat_every: '6h' });
    await run(store, alice, 'game', 'turn', { number: 1, player: 'bob' });
    await new Scheduler(store, recorder().out, log, clock.now).tick();
    const down = flaky(100);
    const scheduler = new Scheduler(store, down.out, log, clock.now);
    // Tries at 12 h and 1, 2, 4 and 8 minutes after each: five in all, then none until the repeat.
    for (const m of [0, 1, 3, 7, 15, 31, 63]) {
      clock.set(12 * H + m * 60_000);
      await scheduler.tick();
    }
    expect(down.nonces).toHaveLength(5);
    clock.set(18 * H + 15 * 60_000);
    await scheduler.tick();
    expect(down.nonces).toHaveLength(6);
    // Given up once, the next firing is tried again as the first was.
    clock.set(18 * H + 16 * 60_000);
    await scheduler.tick();
    expect(down.nonces).toHaveLength(7);
    expect(down.nonces[6]).toBe(down.nonces[5]);
    ledger.close();
  });
});

describe("a reminder's nonce", () => {
  it('is new for the first reminder of a new turn, though its schedule starts counting again', async () => {
    const clock = testClock();
    const ledger = Ledger.open(tmpDb(), { now: clock.now });
    const store = sqliteStore(ledger);
    await gameWithClock(store);
    const d = recorder();
    const nonces: (string | undefined)[] = [];
    const out: ClockPost = {
      ...d.out,
      post: async (g, c, m) => {
        nonces.push(m.nonce);
        return d.out.post(g, c, m);
      },
    };
    const scheduler = new Scheduler(store, out, log, clock.now);
    await scheduler.tick();
    clock.set(12 * H);
    await scheduler.tick();
    await run(store, alice, 'game', 'turn', { number: 2, player: 'bob' });
    clock.set(25 * H);
    await scheduler.tick();
    const reminders = d.posts.flatMap((p, i) => (p.mention ? [nonces[i]] : []));
    expect(reminders).toHaveLength(2);
    expect(reminders[0]).not.toBe(reminders[1]);
    ledger.close();
  });
});

describe('a request settled', () => {
  it('has its message edited to say so, its button gone, in the language it was asked in', async () => {
    const clock = testClock();
    const ledger = Ledger.open(tmpDb(), { now: clock.now });
    const store = sqliteStore(ledger);
    await gameWithClock(store);
    await run(store, alice, 'unit', 'add', { name: 'Squad 3', fields: 'counter:German 4-6-7' });
    const asked = await run(store, alice, 'ask', 'roll', { player: 'bob', roll: 'hob unit:"Squad 3"' }, { guildLocale: 'de' });
    expect(asked).toMatchObject({ mention: 'bob' });
    const id = (asked as Extract<Reply, { type: 'message' }>).shows!;
    expect((asked as Extract<Reply, { type: 'message' }>).buttons[0]!.custom_id).toBe(`v1:ask:${id}`);
    ledger.history.linkMessage(id, 'request-message');
    const d = recorder();
    const scheduler = new Scheduler(store, d.out, log, clock.now);
    clock.set(H);
    await scheduler.tick();
    expect(d.edits.filter((e) => e.messageId === 'request-message')).toEqual([]);
    await run(store, alice, 'ask', 'cancel', { request: id });
    clock.set(2 * H);
    await scheduler.tick();
    const edit = d.edits.find((e) => e.messageId === 'request-message')!;
    expect(edit.embed.title).toBe('Anforderung zurückgezogen');
    expect(edit.embed.description).toBe('Der bei <@bob> angeforderte Wurf `/hob unit:"Squad 3"` wurde von <@alice> zurückgezogen.');
    // Once: a second tick edits nothing more.
    await scheduler.tick();
    expect(d.edits.filter((e) => e.messageId === 'request-message')).toHaveLength(1);
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
