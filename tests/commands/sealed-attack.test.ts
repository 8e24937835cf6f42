import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/command.js';
import { canonicalJson, rowHash } from '../../src/ledger/chain.js';
import { isCommitment } from '../../src/ledger/people.js';
import type { LedgerRow } from '../../src/ledger/rows.js';
import { alice, appWithGame, bob, command, expectMessage, rosterFields, subcommand, testApp, type TestApp } from '../helpers/app.js';

// An attacker — a member of the server, and the roller themself — tries every dice
// combination against everything they can see of a sealed roll, for each system. A control shows
// the same search finds an unsealed roll at once, so finding nothing for a sealed one means something.
let app: TestApp;
let scratch: TestApp;
afterEach(() => {
  app?.ledger.close();
  scratch?.ledger.close();
});

type Case = { system: string; name: string; unit: Record<string, unknown>; options: Record<string, unknown>; dice: number[][] };
const d6 = [1, 2, 3, 4, 5, 6];
const twoDice = d6.flatMap((a) => d6.map((b) => [a, b]));
const CASES: Case[] = [
  { system: 'hearts-of-tin', name: 'rally', unit: { original: 8, disorder: 2 }, options: {}, dice: d6.map((a) => [a]) },
  {
    system: 'lightning-war',
    name: 'morale',
    unit: { morale: 'professional', original: 4 },
    options: {},
    dice: d6.flatMap((a) => twoDice.map((bc) => [a, ...bc])),
  },
  // An Original 2 chains the Heat of Battle DR: two more dice.
  {
    system: 'asl',
    name: 'mc',
    unit: { counter: 'German 4-6-7' },
    options: {},
    dice: [...twoDice.filter(([a, b]) => a! + b! > 2), ...twoDice.map((hob) => [1, 1, ...hob])],
  },
  { system: 'asl', name: 'hob', unit: { counter: 'German 4-6-7', broken: true }, options: {}, dice: twoDice },
];

/** Everything the attacker can read of a row: all it shows, the dice, outcome and result aside. */
function visibleOf(row: LedgerRow) {
  const { dice: _d, outcome: _o, result: _r, ...seen } = row;
  return seen;
}

/** The command's options for a case: the same for the sealed roll and for every attempt to crack it. */
const optionsFor = (c: Case) => ({
  ...c.options,
  ...(c.name === 'rally'
    ? { disorder: 2 }
    : c.name === 'morale'
      ? { morale: 'professional' }
      : { unit: 'German 4-6-7', ...(c.name === 'hob' ? { broken: true } : {}) }),
});

/**
 * Whether a candidate is the row: its hash over the candidate's fields, or, for a row whose hash
 * covers a chained text (people.ts) the attacker sees whole, that text's dice and result (unless
 * committed) against the candidate's.
 */
function holdsAs(seen: ReturnType<typeof visibleOf>, candidate: Record<string, unknown>): boolean {
  if (typeof seen.chained !== 'string') return rowHash(seen.prev_hash, candidate as never) === seen.hash;
  const chained = JSON.parse(seen.chained) as { dice: unknown; result: unknown };
  const result = isCommitment(chained.result) || canonicalJson(chained.result) === canonicalJson(candidate.result ?? null);
  return canonicalJson(chained.dice) === canonicalJson(candidate.dice) && result;
}

/**
 * The attack: for every dice combination, work out the outcome the rules give (by rolling the same
 * command with those dice elsewhere), put it in the row, hash it, and compare with the visible hash.
 */
async function search(c: Case, seen: ReturnType<typeof visibleOf>, actor: Actor): Promise<number[][]> {
  const found: number[][] = [];
  for (const dice of c.dice) {
    scratch.dice.push(...dice);
    const options = optionsFor(c);
    await scratch.router.handle({ type: 'command', name: c.name, options, actor });
    const candidate = { ...seen, dice, outcome: undefined as unknown, result: undefined as unknown };
    const tried = scratch.ledger.history.page({ guildId: 'g1', kinds: ['roll'] }, 1, 0).rows[0];
    if (!tried) continue;
    candidate.outcome = tried.outcome;
    candidate.result = tried.result;
    if (holdsAs(seen, candidate)) found.push(dice);
  }
  return found;
}

describe('a sealed roll cannot be cracked by the members who see it', () => {
  it.each(CASES)('$system /$name: nothing visible gives the result away, to a member or to the roller', async (c) => {
    app = await appWithGame(c.system, { Target: c.unit });
    // Outside a game, so the dice are the pinned ones (a game's stream would be another check).
    await subcommand(app, alice, 'game', 'end');
    app.dice.push(...c.dice[c.dice.length - 1]!);
    const sealed = expectMessage(await command(app, alice, c.name, { ...optionsFor(c), sealed: true }));
    const id = sealed.record!.roll_id;
    const stored = app.ledger.get('g1', id)!;
    expect(stored.dice).toEqual([]);
    expect(stored.result).toBeNull();
    expect(stored.outcome).toEqual({ sealed: true, commitment: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // What every member sees of the sealed roll's own reply: all of it but the GM-only parts (none here).
    const publicOf = (r: typeof sealed) => {
      const { private: gmOnly, notify: _gmChannel, ...seen } = r as typeof r & { private?: unknown; notify?: unknown };
      expect(gmOnly).toBeUndefined();
      return seen;
    };
    const publicReply = publicOf(sealed);
    // The same roll sealed with the first dice instead of the last: what members see of its reply is
    // the same once ids and hashes are set aside, so nothing in it depends on the dice.
    app.dice.push(...c.dice[0]!);
    const other = expectMessage(await command(app, alice, c.name, { ...optionsFor(c), sealed: true }));
    const normal = (v: unknown) =>
      JSON.stringify(v)
        .replace(/\b[0-9a-z]{10}\b/g, '<id>')
        .replace(/\b[0-9a-f]{8,64}\b/g, '<hash>');
    expect(normal(publicOf(other))).toBe(normal(publicReply));
    for (const who of [bob, alice]) {
      const shown = JSON.stringify([
        publicReply,
        expectMessage(await subcommand(app, who, 'roll', 'show', { id })).embed,
        expectMessage(await command(app, who, 'history', {})).embed,
        expectMessage(await command(app, who, 'stats', {})).embed,
      ]);
      expect(shown).not.toContain((stored.outcome as { commitment: string }).commitment);
      expect(shown).not.toMatch(/Original|Final|Step: /);
      expect(shown).toContain('sealed');
    }
    scratch = testApp();
    const found = await search(c, visibleOf(stored), alice);
    expect(found).toEqual([]);
  });

  it('the control: the same search finds an unsealed roll from what it shows', async () => {
    app = testApp();
    scratch = testApp();
    app.dice.push(3, 4, 5);
    const open = expectMessage(await command(app, alice, 'morale', { morale: 'professional' }));
    const row = app.ledger.get('g1', open.record!.roll_id)!;
    const c = CASES[1]!;
    expect(await search(c, visibleOf(row), alice)).toEqual([[3, 4, 5]]);
  });

  it('roster changes wait for the reveal, and happen then', async () => {
    app = await appWithGame('hearts-of-tin', { Guard: { original: 8, disorder: 2 } });
    app.dice.push(6);
    const sealed = expectMessage(await command(app, alice, 'rally', { unit: 'Guard', sealed: true }));
    const id = sealed.record!.roll_id;
    // 6 − 1 = 5: rallied, but nothing shows before the reveal: no unit row, no change on the roster.
    expect(rosterFields(app, 'Guard')).toMatchObject({ disorder: 2 });
    expect(app.ledger.children('g1', id)).toEqual([]);
    const revealed = expectMessage(await command(app, alice, 'reveal', { id }));
    expect(revealed.record).toMatchObject({ result: 'rally' });
    expect(rosterFields(app, 'Guard')).toMatchObject({ disorder: 0 });
    const reveal = app.ledger.children('g1', id).find((r) => r.kind === 'reveal')!;
    expect(app.ledger.children('g1', reveal.id).map((r) => [r.kind, r.result])).toEqual([['unit', 'unit_updated']]);
  });
});
