import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply } from '../../src/core/command.js';
import type { Request } from '../../src/core/router.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { queueRoller } from '../helpers/app.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { unitsFromLedger, unitsFromRoster, type UnitState } from '../helpers/roster-ledger.js';
import { tmpDb } from '../helpers/tmp.js';

// A command decides from what it reads inside its own transaction, and writes only the
// fields it changes. Two commands in flight on one unit must come out as if they had run one after
// the other (in either order): each lands, or is refused with the reason it would have been given
// in that order — and the ledger's unit rows tell exactly the roster that results. Every pair of
// the writers below races, in both orders, on SQLite (a real file) and on a real PostgreSQL server.
const server = await testPostgres();
afterAll(() => server?.stop());

type Writer = { actor: 'alice' | 'gm'; req: { type: 'command'; name: string; subcommand?: string; options: Record<string, unknown> }; dice?: number[] };
const WRITERS: Record<string, Writer> = {
  // A roll that writes back: a rally of the unit (a 6 rallies it: disorder 2 → 0).
  roll: { actor: 'alice', req: { type: 'command', name: 'rally', options: { unit: 'Guard' } }, dice: [6] },
  // A stale edit by the owner of one field.
  edit: { actor: 'alice', req: { type: 'command', name: 'unit', subcommand: 'edit', options: { unit: 'Guard', fields: 'disorder:5' } } },
  // A GM gives the unit away and sets its side.
  transfer: { actor: 'gm', req: { type: 'command', name: 'unit', subcommand: 'edit', options: { unit: 'Guard', owner: 'bob', side: 'Blue' } } },
  // The turn ends with the brigade shaken: one disorder marker on each of its units.
  turnEnd: { actor: 'alice', req: { type: 'command', name: 'game', subcommand: 'turn', options: { number: 2 } } },
};
const PAIRS = Object.keys(WRITERS).flatMap((a, i) =>
  Object.keys(WRITERS)
    .slice(i + 1)
    .flatMap((b) => [[a, b] as const, [b, a] as const]),
);

type Backend = { name: string; open(): Promise<LedgerStore> };
const BACKENDS: Backend[] = [
  { name: 'SQLite', open: async () => sqliteStore(Ledger.open(tmpDb())) },
  ...(server ? [{ name: 'PostgreSQL', open: async () => PgStore.connect(await freshDatabase(server)) }] : []),
];

/** A fresh guild with a Hearts of Tin game at turn 1: Guard (alice's, 2 disorder) and Line, one brigade that has lost half. */
async function table(store: LedgerStore, guildId: string) {
  const dice = queueRoller();
  const router = createRouter({ ledger: store, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
  const actors: Record<string, Actor> = {
    alice: { guildId, channelId: 'c1', userId: 'alice', userName: 'Alice', isGm: false },
    gm: { guildId, channelId: 'c1', userId: 'gm', userName: 'Game Master', isGm: true },
  };
  const run = (w: Writer) => {
    dice.push(...(w.dice ?? []));
    return router.handle({ ...w.req, actor: actors[w.actor]! } as Request);
  };
  const setup: Writer[] = [
    { actor: 'alice', req: { type: 'command', name: 'game', subcommand: 'start', options: { system: 'hearts-of-tin', name: 'Race' } } },
    {
      actor: 'alice',
      req: { type: 'command', name: 'unit', subcommand: 'add', options: { name: 'Guard', fields: 'original:4 strength:3 disorder:2 brigade:1st' } },
    },
    { actor: 'alice', req: { type: 'command', name: 'unit', subcommand: 'add', options: { name: 'Line', fields: 'original:4 strength:1 brigade:1st' } } },
    { actor: 'alice', req: { type: 'command', name: 'game', subcommand: 'turn', options: { number: 1 } } },
  ];
  for (const w of setup) expect((await run(w)).type).toBe('message');
  const game = (await store.roster.activeGame(guildId, 'c1'))!;
  return { run, game, dice };
}

/** What a reply says for the comparison: landed, or refused with its reason. */
const said = (r: Reply) => (r.type === 'error' ? `refused: ${r.message}` : r.type === 'message' || r.type === 'update' ? 'landed' : r.type);
type Result = { replies: string[]; units: UnitState[] };

/** The two writers, one after the other or both in flight at once; the roster is checked against the ledger either way. */
async function race(store: LedgerStore, guildId: string, a: string, b: string, together: boolean): Promise<Result> {
  const t = await table(store, guildId);
  const replies = together ? await Promise.all([t.run(WRITERS[a]!), t.run(WRITERS[b]!)]) : [await t.run(WRITERS[a]!), await t.run(WRITERS[b]!)];
  const units = await unitsFromRoster(store, t.game.id);
  // The check that reads both: every unit row replayed gives the roster as it stands.
  expect(await unitsFromLedger(store, guildId, t.game.id)).toEqual(units);
  expect((await store.verifyInChunks(guildId)).ok).toBe(true);
  return { replies: replies.map(said), units };
}

describe.each(BACKENDS)('two commands in flight on one unit, on $name', (backend) => {
  it.each(PAIRS)('%s with %s: the same as one after the other, and the ledger tells the roster', async (a, b) => {
    const store = await backend.open();
    try {
      const ab = await race(store, `${a}-${b}-serial`, a, b, false);
      const ba = await race(store, `${b}-${a}-serial`, b, a, false);
      const together = await race(store, `${a}-${b}-together`, a, b, true);
      const asBa = { replies: [...ba.replies].reverse(), units: ba.units };
      // Serialisable: the concurrent run is one of the two serial orders, replies and roster alike.
      expect([ab, asBa]).toContainEqual(together);
    } finally {
      await store.close();
    }
  });

  // The outcomes written out by hand, for each order the two may take (on PostgreSQL the order is
  // whichever transaction takes the guild's lock first; on SQLite, the order they were sent).
  const NOT_YOURS = 'refused: Only bob, who owns Guard, or a GM can change it.';
  const REPORTED: [string, string, Record<string, { replies: string[]; guard: [string, string | null, number] }>][] = [
    // A GM's transfer and a rally: the rally first, both land; the transfer first, alice no longer owns Guard.
    [
      'roll',
      'transfer',
      {
        'roll first': { replies: ['landed', 'landed'], guard: ['bob', 'Blue', 0] },
        'transfer first': { replies: [`${NOT_YOURS} To roll without changing the roster, leave the unit out.`, 'landed'], guard: ['bob', 'Blue', 2] },
      },
    ],
    // A stale disorder edit racing the transfer: never the old owner written back.
    [
      'edit',
      'transfer',
      {
        'edit first': { replies: ['landed', 'landed'], guard: ['bob', 'Blue', 5] },
        'transfer first': { replies: [NOT_YOURS, 'landed'], guard: ['bob', 'Blue', 2] },
      },
    ],
    // The turn end and a rally change the same field: they serialise (2 → 0 → 1, or 2 → 3 → 0).
    [
      'roll',
      'turnEnd',
      {
        'roll first': { replies: ['landed', 'landed'], guard: ['alice', null, 1] },
        'turn end first': { replies: ['landed', 'landed'], guard: ['alice', null, 0] },
      },
    ],
  ];

  it.each(REPORTED)('%s racing %s: one of the outcomes worked out by hand', async (a, b, outcomes) => {
    const store = await backend.open();
    try {
      const seen = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const r = await race(store, `${a}-${b}-${i}`, ...((i % 2 ? [b, a] : [a, b]) as [string, string]), true);
        const replies = i % 2 ? [...r.replies].reverse() : r.replies;
        const guard = r.units.find((u) => u.name === 'Guard' && !u.removed)!;
        const got = { replies, guard: [guard.owner_id, guard.side, guard.fields.disorder] };
        const which = Object.entries(outcomes).find(([, o]) => JSON.stringify(o) === JSON.stringify(got));
        expect(which, JSON.stringify(got)).toBeDefined();
        seen.add(which![0]);
      }
      // Sent in each order twice: on SQLite each order shows up (on PostgreSQL it may not).
      if (backend.name === 'SQLite') expect([...seen].sort()).toEqual(Object.keys(outcomes).sort());
    } finally {
      await store.close();
    }
  });
});
