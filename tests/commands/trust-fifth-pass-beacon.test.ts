import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RELAYS, QUICKNET } from '../../src/beacon/chain.js';
import { relaySource, type BeaconSource } from '../../src/beacon/relay.js';
import type { Actor, Reply } from '../../src/core/command.js';
import { attachmentData } from '../../src/core/command.js';
import { resumeBindings } from '../../src/core/resume-bindings.js';
import { cryptoRoller } from '../../src/dice/roller.js';
import { BeaconRoller } from '../../src/dice/seeded.js';
import { checkPromises, type Row } from '../../src/verify/checks.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { alice, bob, gm } from '../helpers/app.js';
import { BeaconTable, rowsIn, type BeaconProcess } from '../helpers/beacon-clock.js';
import { fakeDiscordKey } from '../helpers/beacon-game.js';
import { testChain } from '../helpers/beacon-relay.js';
import { tmpDb } from '../helpers/tmp.js';

// A hostile host who knows the server seed knows each die the moment its round is published. What
// he could still do through the beacon's machinery, closed: withhold rounds at his relay (a veto),
// have a binding rolled late, end a game over a bound roll, or reach the bot's own dice.

const { chain, sign } = testChain(17, 3);
const MINUTE = 60_000;
let table: BeaconTable | undefined;
const running: BeaconProcess[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) if (p.ledger.db.open) p.stop();
  await table?.stop();
  table = undefined;
});

async function open(o: { discord?: ReturnType<typeof fakeDiscordKey> } = {}) {
  table = await BeaconTable.open(tmpDb(), chain, sign, o);
  return table;
}

function start(t: BeaconTable, o: Parameters<BeaconTable['start']>[0] = {}): BeaconProcess {
  const p = t.start(o);
  running.push(p);
  return p;
}

function expectBound(reply: Reply) {
  if (reply.type !== 'bound') throw new Error(`expected a bound roll, got ${JSON.stringify(reply)}`);
  return reply;
}
function expectMessage(reply: Reply) {
  if (reply.type !== 'message' && reply.type !== 'update') throw new Error(`expected a message, got ${JSON.stringify(reply)}`);
  return reply;
}
function expectError(reply: Reply): string {
  if (reply.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(reply)}`);
  return reply.message;
}

async function startGame(t: BeaconTable, p: BeaconProcess, actor: Actor = alice, system = 'hearts-of-tin', fair?: 'tournament') {
  expectMessage(await t.ask(p, actor, 'game', { system, name: 'Ligny', ...(fair ? { fair } : {}) }, 'start'));
  return p.ledger.roster.activeGame(actor.guildId, actor.channelId)!;
}

/** The export a GM takes, and what the offline verifier's core says of it (the CLI and verify.html run the same). */
async function exported(t: BeaconTable, p: BeaconProcess) {
  const reply = expectMessage(await t.ask(p, gm, 'export'));
  const text = attachmentData((reply as Extract<Reply, { type: 'message' }>).files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
  return verifyExport(text);
}

/** Waits (a few seconds at most) until the relay has been asked again since `asked` requests. */
async function askedAgain(t: BeaconTable, asked: number): Promise<void> {
  for (let i = 0; i < 1000 && t.relay.requests <= asked; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(t.relay.requests, 'the relay was asked again').toBeGreaterThan(asked);
}

const inBotVerify = async (t: BeaconTable, p: BeaconProcess) => expectMessage(await t.ask(p, gm, 'verify')).embed.description!;

describe("a veto through the host's relay", () => {
  it("rounds the host's relay withholds expire on the record: /stats counts them per player, every verifier reports them", async () => {
    const t = await open();
    const p = start(t);
    const game = await startGame(t, p);
    // Bob rallies fourteen times; the host, who knows the seed, lets through only the rounds that
    // give him a 1, 2 or 3, and his relay withholds the others until their ten minutes are up.
    let rolled = 0;
    let withheld = 0;
    for (let i = 0; i < 14; i++) {
      const bound = expectBound(await t.ask(p, bob, 'rally', { disorder: 1, unit: `Bob ${i}` }));
      const round = BeaconTable.roundOf(bound);
      const interaction = JSON.parse(p.ledger.db.prepare('SELECT request FROM beacon_bindings ORDER BY rowid DESC LIMIT 1').pluck().get() as string)
        .interactionId as string;
      if (t.firstDie(game.server_seed!, game.id, interaction, round) > 3) {
        t.relay.down = true;
        t.pass(11 * MINUTE);
        expect(expectError(await bound.result)).toBe(
          `No valid beacon round ${round} came within ten minutes (the beacon's relays did not answer), so nothing was rolled: roll again.`,
        );
        t.relay.down = false;
        withheld++;
      } else {
        expectMessage(await t.settle(bound));
        rolled++;
      }
    }
    expect(withheld).toBeGreaterThan(0);
    const rows = rowsIn(p.ledger);
    const expiries = rows.filter((r) => r.kind === 'expiry');
    expect(expiries).toHaveLength(withheld);
    for (const e of expiries) {
      expect(e).toMatchObject({ user_id: 'bob', user_name: 'Bob', game_id: game.id, command: 'rally', dice: [], result: 'expired' });
      expect(e.input).toEqual({ game: game.id, interaction: expect.stringMatching(/^\d+$/), round: expect.any(Number), why: 'relays_silent' });
    }
    // /stats: beside Bob's rolls, his expiries.
    const stats = expectMessage(await t.ask(p, bob, 'stats')).embed.description!;
    expect(stats).toContain(
      `<@bob>: ${withheld} roll${withheld === 1 ? '' : 's'} bound to a beacon round and expired unrolled, beside ${rolled} roll${rolled === 1 ? '' : 's'} rolled`,
    );
    // Every verifier, before and after the game ends.
    const said = `beacon: ${withheld} roll${withheld === 1 ? '' : 's'} bound and expired unrolled (Bob ${withheld}): a published round the bot's relays did not deliver (the game's relays: ${t.relay.url})`;
    expect(await inBotVerify(t, p)).toContain(said);
    expectMessage(await t.ask(p, alice, 'game', {}, 'end'));
    expect(await inBotVerify(t, p)).toContain(said);
    const offline = await exported(t, p);
    expect(offline.ok).toBe(true);
    expect(offline.lines.join('\n')).toContain(said);
    expect(checkPromises(rowsIn(p.ledger) as Row[]).lines.join('\n')).toContain(said);
  });

  it('a tournament game never expires a binding: it keeps asking every relay, says so in the channel, and rolls when the round comes', async () => {
    const t = await open({ discord: fakeDiscordKey() });
    const p = start(t);
    await startGame(t, p, alice, 'hearts-of-tin', 'tournament');
    t.relay.down = true;
    const bound = expectBound(await t.ask(p, bob, 'rally', { disorder: 1, unit: 'Guard' }));
    expect(bound.embed.description).toContain(
      `A tournament game: this roll never expires. The bot asks every relay (1 relay) again and again until round ${BeaconTable.roundOf(bound)} comes`,
    );
    // Twenty minutes of a withheld round, past a club game's ten and the signed request's fifteen: the
    // relay is asked again and again, the binding waits.
    for (let m = 0; m < 20; m++) {
      const asked = t.relay.requests;
      t.pass(MINUTE);
      await askedAgain(t, asked);
    }
    expect(p.ledger.db.prepare('SELECT state FROM beacon_bindings').pluck().all()).toEqual(['pending']);
    t.relay.down = false;
    expectMessage(await bound.result);
    const rows = rowsIn(p.ledger);
    expect(rows.filter((r) => r.kind === 'expiry')).toEqual([]);
    expect(rows.filter((r) => r.kind === 'roll')).toHaveLength(1);
    expectMessage(await t.ask(p, alice, 'game', {}, 'end'));
    // Recorded past a club game's ten minutes and past its request's fifteen, and no verifier holds that
    // against a tournament roll: its dice are fixed by its interaction and round, not by when it was written.
    const verdict = await inBotVerify(t, p);
    expect(verdict).toMatch(/^Intact: 3 rows, .* every die of 1 ended game recomputed from its seeds/);
  });

  it("a club game's roll sharing its round with a tournament game's still expires in its ten minutes; the tournament's waits", async () => {
    const t = await open({ discord: fakeDiscordKey() });
    const p = start(t);
    const club: Actor = { ...alice, channelId: 'club' };
    await startGame(t, p, club);
    await startGame(t, p, alice, 'hearts-of-tin', 'tournament');
    t.relay.down = true;
    // Asked at the same moment: one round for both, the tournament's asked first (with no deadline).
    const waits = expectBound(await t.ask(p, bob, 'rally', { disorder: 1, unit: 'Guard' }));
    const expires = expectBound(await t.ask(p, { ...bob, channelId: 'club' }, 'rally', { disorder: 1, unit: 'Line' }));
    expect(BeaconTable.roundOf(expires)).toBe(BeaconTable.roundOf(waits));
    t.pass(11 * MINUTE);
    expect(expectError(await expires.result)).toMatch(/^No valid beacon round \d+ came within ten minutes/);
    t.relay.down = false;
    expectMessage(await waits.result);
    expect(rowsIn(p.ledger).map((r) => [r.channel_id, r.kind])).toEqual([
      ['club', 'game'],
      ['c1', 'game'],
      ['club', 'expiry'],
      ['c1', 'roll'],
    ]);
  });

  it('a tournament binding left by a stopped bot is not expired on start: the channel is told it still waits, then its result', async () => {
    const t = await open({ discord: fakeDiscordKey() });
    const first = start(t);
    await startGame(t, first, alice, 'hearts-of-tin', 'tournament');
    t.relay.down = true;
    expectBound(await t.ask(first, bob, 'rally', { disorder: 1, unit: 'Guard' }));
    first.stop();
    t.pass(12 * MINUTE);
    const second = start(t);
    const posts: string[] = [];
    const post = async (_g: string, _c: string, m: { content: string }) => {
      posts.push(m.content);
      if (posts.length === 1) t.relay.down = false;
      return `m${posts.length}`;
    };
    expect(await resumeBindings(second.router.binder!, post, { shown: () => undefined }, second.log)).toBe(1);
    expect(posts).toEqual([
      expect.stringMatching(/^<@bob>: your roll bound to beacon round \d+ still waits for its round\. A tournament game: it never expires/),
      expect.stringMatching(/^<@bob>: your roll bound to beacon round \d+ is rolled/),
    ]);
    expect(rowsIn(second.ledger).filter((r) => r.kind === 'expiry')).toEqual([]);
  });

  it("the game's first row commits its relays; the default list names independent public relays", async () => {
    const t = await open();
    const p = start(t);
    await startGame(t, p);
    expect(rowsIn(p.ledger)[0]!.input).toMatchObject({ relays: [t.relay.url] });
    // Three operators, none the host: a round one withholds, another serves.
    const operators = new Set(DEFAULT_RELAYS.map((u) => new URL(u).hostname.split('.').slice(-2).join('.')));
    expect(operators).toEqual(new Set(['drand.sh', 'cloudflare.com', 'secureweb3.com']));
    expect(relaySource(QUICKNET, { urls: DEFAULT_RELAYS }).relays).toEqual(DEFAULT_RELAYS);
    // A relay's password or query never reaches the chain.
    expect(relaySource(QUICKNET, { urls: ['https://host:secret@relay.example/drand/?key=1'] }).relays).toEqual(['https://relay.example/drand']);
  });
});

/** A game's expiry row changed by an operator with the database; what the shared checks say. */
async function gameWithExpiry() {
  const t = await open();
  const p = start(t);
  await startGame(t, p);
  t.relay.down = true;
  const bound = expectBound(await t.ask(p, bob, 'rally', { disorder: 1, unit: 'Late' }));
  t.pass(11 * MINUTE);
  expectError(await bound.result);
  t.relay.down = false;
  expectMessage(await t.settle(expectBound(await t.ask(p, bob, 'rally', { disorder: 1, unit: 'On time' }))));
  expectMessage(await t.ask(p, alice, 'game', {}, 'end'));
  return rowsIn(p.ledger) as Row[];
}

describe('what the verifiers refuse of an expiry', () => {
  const problem = (rows: Row[]) => checkPromises(rows).games[0]?.problem;
  const editExpiry = (rows: Row[], change: (e: Row) => Row) => rows.map((r) => (r.kind === 'expiry' ? change(r) : r));

  it('an expiry recorded before its ten minutes were up (a roll dropped once its round was out)', async () => {
    const rows = await gameWithExpiry();
    expect(checkPromises(rows).ok).toBe(true);
    const e = rows.find((r) => r.kind === 'expiry')!;
    const early = editExpiry(rows, (x) => ({ ...x, created_at: new Date(Date.parse(x.created_at) - 6 * MINUTE).toISOString() }));
    expect(problem(early)).toMatch(new RegExp(`^expiry ${e.id} was recorded \\d+ s after its roll was asked, before its ten minutes were up`));
  });

  it('an expiry of another round than its interaction binds, of an interaction a roll answered, or in a tournament game', async () => {
    const rows = await gameWithExpiry();
    const e = rows.find((r) => r.kind === 'expiry')!;
    const input = e.input as { round: number; interaction: string };
    expect(problem(editExpiry(rows, (x) => ({ ...x, input: { ...input, round: input.round + 1 } })))).toBe(
      `expiry ${e.id} names beacon round ${input.round + 1}, but its interaction ${input.interaction} binds it to round ${input.round}`,
    );
    const roll = rows.find((r) => r.kind === 'roll')!;
    const answered = (roll.input as { beacon: { interaction: string; round: number } }).beacon;
    const twice = editExpiry(rows, (x) => ({ ...x, input: { ...input, interaction: answered.interaction, round: answered.round } }));
    expect(problem(twice)).toBe(`expiry ${e.id} answers interaction ${answered.interaction}, which another row of the game answered`);
    const tournament = rows.map((r) => (r.result === 'game_started' ? { ...r, input: { ...(r.input as object), fair: 'tournament' } } : r));
    expect(problem(tournament)).toBe(
      `expiry ${e.id}: a binding of a tournament game expired, but a tournament game's binding never expires: its roll was dropped`,
    );
  });
});

describe('a binding rolls only inside its window', () => {
  it('the relay down for twelve minutes across a restart: the binding expires on the record, never rolled late, and the game verifies', async () => {
    const t = await open();
    const first = start(t);
    const game = await startGame(t, first);
    t.relay.down = true;
    const bound = expectBound(await first.router.handle(t.request({ type: 'command', name: 'rally', options: { disorder: 1, unit: 'Too late' }, actor: bob })));
    const round = BeaconTable.roundOf(bound);
    first.stop();
    // Twelve minutes with the relay down; then it is back, the round long published, and the bot starts again.
    t.pass(12 * MINUTE);
    t.relay.down = false;
    const second = start(t);
    const posts: string[] = [];
    const post = async (_g: string, _c: string, m: { content: string }) => {
      posts.push(m.content);
      return 'm1';
    };
    expect(await resumeBindings(second.router.binder!, post, { shown: () => undefined }, second.log)).toBe(1);
    expect(posts).toEqual([
      `<@bob>: your roll bound to beacon round ${round} was not rolled. Beacon round ${round} did not reach the bot within the roll's ten minutes (it was stopped), so nothing was rolled; the expiry is on the record: roll again.`,
    ]);
    // Past its window when looked at: its round is not even asked for, let alone rolled.
    expect(t.relay.served).not.toContain(round);
    const rows = rowsIn(second.ledger);
    expect(rows.filter((r) => r.kind === 'roll')).toEqual([]);
    expect(rows.filter((r) => r.kind === 'expiry').map((r) => r.input)).toEqual([
      { game: game.id, interaction: expect.any(String), round, why: 'window_passed' },
    ]);
    expectMessage(await t.ask(second, alice, 'game', {}, 'end'));
    const verdict = checkPromises(rowsIn(second.ledger) as Row[]);
    expect(verdict.ok).toBe(true);
    expect(verdict.lines.join('\n')).toContain('beacon: 1 roll bound and expired unrolled (Bob 1)');
  });

  it('a round that comes in time but would be recorded past the window expires instead, on the record', async () => {
    const t = await open();
    // A relay answering at nine and a half minutes, and a recording that comes after the ten.
    const slow = (s: BeaconSource): BeaconSource => ({
      ...s,
      round: async (round, deadline) => {
        t.pass(9.5 * MINUTE);
        const got = await s.round(round, deadline);
        t.pass(MINUTE);
        return got;
      },
    });
    const p = start(t, { source: slow });
    await startGame(t, p);
    const bound = expectBound(await t.ask(p, bob, 'rally', { disorder: 1, unit: 'Slow' }));
    expect(expectError(await bound.result)).toMatch(/did not reach the bot within the roll's ten minutes/);
    const rows = rowsIn(p.ledger);
    expect(rows.filter((r) => r.kind === 'roll')).toEqual([]);
    expect(rows.filter((r) => r.kind === 'expiry').map((r) => (r.input as { why: string }).why)).toEqual(['window_passed']);
    expectMessage(await t.ask(p, alice, 'game', {}, 'end'));
    expect(checkPromises(rowsIn(p.ledger) as Row[]).ok).toBe(true);
  });
});

describe('/game end and bound rolls', () => {
  it('refuses while a roll is bound, naming it; ends once it is rolled, from its round', async () => {
    const t = await open();
    const p = start(t);
    await startGame(t, p);
    const bound = expectBound(await t.ask(p, bob, 'rally', { disorder: 1, unit: 'Bound' }));
    const round = BeaconTable.roundOf(bound);
    expect(expectError(await t.ask(p, alice, 'game', {}, 'end'))).toBe(
      `Ligny cannot end while a roll waits for its beacon round: <@bob>'s /rally (round ${round}). The bot never rolls them itself: end the game once they are rolled or expired.`,
    );
    expectMessage(await t.settle(bound));
    expectMessage(await t.ask(p, alice, 'game', {}, 'end'));
    const rows = rowsIn(p.ledger);
    expect(rows.find((r) => r.kind === 'roll')!.input).toMatchObject({ beacon: { round } });
    expect(t.local).toEqual([]);
    expect(checkPromises(rows as Row[]).ok).toBe(true);
  });

  it("a bound roll whose game ended meanwhile rolls nothing: never the bot's own dice under its bound message", async () => {
    const t = await open();
    const p = start(t);
    const game = await startGame(t, p);
    const bound = expectBound(await t.ask(p, bob, 'rally', { disorder: 1, unit: 'Orphan' }));
    // The game ended behind the refusal's back (an older process, or a race with the binding).
    p.ledger.db.prepare('UPDATE games SET ended_at = ? WHERE id = ?').run(new Date(t.clock).toISOString(), game.id);
    expect(expectError(await t.settle(bound))).toBe(
      `This roll was bound to beacon round ${BeaconTable.roundOf(bound)} in a game that has ended since: nothing was rolled (the bot never rolls a bound roll with dice of its own). Roll again.`,
    );
    expect(t.local).toEqual([]);
    expect(rowsIn(p.ledger).filter((r) => r.kind === 'roll')).toEqual([]);
  });
});

describe('no local randomness in a beacon game', () => {
  it("a local roller is not a beacon game's roller (the compiler refuses it)", () => {
    const draw = { interactionId: '1', round: 1, randomness: '00' };
    // @ts-expect-error the bot's own dice are no beacon game's dice
    const local: BeaconRoller = cryptoRoller;
    // @ts-expect-error nor is anything that merely rolls like one
    const lookalike: BeaconRoller = { roll: () => 1, draw };
    // @ts-expect-error only BeaconRoller.of makes one, from a round's draw and the game's seed
    const made = new BeaconRoller('seed', 'game', draw);
    expect([local, lookalike, made]).toHaveLength(3);
    expect(BeaconRoller.of('seed', 'game', draw)).toBeInstanceOf(BeaconRoller);
  });

  it('every command, button, /game end and a restart in a beacon game: no die drawn outside the beacon', async () => {
    const t = await open();
    const p = start(t);
    const rolled = await sweepEveryCommand(t, p);
    expect(t.local).toEqual([]);
    expect([...rolled.systems].sort()).toEqual(['asl', 'hearts-of-tin', 'lightning-war', 'pack:nerve-test']);
    expect(rolled.buttons).toBeGreaterThan(0);
    const rows = rowsIn(p.ledger);
    const dice = rows.filter((r) => r.kind === 'roll' || r.kind === 'reroll' || r.dice.length);
    expect(dice.length).toBeGreaterThan(8);
    for (const r of dice) expect(r.input, `${r.command} ${r.id}`).toMatchObject({ beacon: { round: expect.any(Number) } });
    expect(checkPromises(rows as Row[]).ok).toBe(true);
    // A restart: a bound roll left by a stopped bot is rolled from its round by the next, never locally.
    const game = await startGame(t, p, { ...alice, channelId: 'restart' });
    expectBound(await t.ask(p, { ...alice, channelId: 'restart' }, 'rally', { disorder: 2, unit: 'Left' }));
    p.stop();
    const next = start(t);
    // Past its round (two or three periods ahead of the request).
    t.pass((3 * chain.period + 1) * 1000);
    expect(await resumeBindings(next.router.binder!, async () => 'm', { shown: () => undefined }, next.log)).toBe(1);
    expect(t.local).toEqual([]);
    expect(rowsIn(next.ledger).filter((r) => r.game_id === game.id && r.kind === 'roll')).toHaveLength(1);
  });
});

/** What a sweep rolled: the systems whose games took a die, and the buttons pressed. */
type Swept = { systems: Set<string>; buttons: number };

/** Each system's commands (their own examples, as a player types them), /roll dice, a pack, every button on every result, and /game end over a bound roll. */
async function sweepEveryCommand(t: BeaconTable, p: BeaconProcess): Promise<Swept> {
  const { COMMANDS } = await import('../../commands/index.js');
  const { parseLine } = await import('../../src/console/parse-line.js');
  const { optionsOf } = await import('../../src/core/command.js');
  const { installThrough, nervePack } = await import('../helpers/packs.js');
  expectMessage(await installThrough(p.router, nervePack()));
  const swept: Swept = { systems: new Set(), buttons: 0 };
  const lines = [
    ...COMMANDS.filter((c) => c.system).map((c) => ({ system: c.system!, line: c.example })),
    { system: 'hearts-of-tin', line: '/roll dice expression:2d6' },
    { system: 'nerve-test', line: '/nerve-test nerve:7' },
  ];
  for (const [i, { system, line }] of lines.entries()) {
    const actor: Actor = { ...alice, channelId: `sweep-${i}`, isGm: true };
    await startGame(t, p, actor, system);
    const parsed = parseLine(line) as { type: 'command'; name: string; subcommand?: string; options: Record<string, string> };
    const command = COMMANDS.find((c) => c.name === parsed.name);
    const spec = command ? optionsOf(command, parsed.subcommand) : undefined;
    const options = Object.fromEntries(Object.entries(parsed.options).map(([k, v]) => [k, spec?.[k]?.fromText(v) ?? Number(v) ?? v]));
    // Rolled a few times, so a result that offers a button (a commander's re-roll) comes up.
    for (let n = 0; n < 6; n++) {
      const reply = await t.ask(p, actor, parsed.name, options, parsed.subcommand);
      const shown = reply.type === 'bound' ? await t.settle(reply) : reply;
      if (rowsIn(p.ledger).some((r) => r.channel_id === actor.channelId && r.dice.length))
        swept.systems.add(p.ledger.roster.activeGame('g1', actor.channelId)!.system);
      if (shown.type !== 'message' && shown.type !== 'update') continue;
      for (const b of shown.buttons) {
        swept.buttons++;
        const pressed = await t.press(p, actor, b.custom_id);
        if (pressed.type === 'bound') await t.settle(pressed);
      }
    }
    // /game end over a bound roll: refused, then the roll comes in from its round, then the end.
    const bound = await t.ask(p, actor, parsed.name, options, parsed.subcommand);
    if (bound.type === 'bound') {
      expectError(await t.ask(p, actor, 'game', {}, 'end'));
      await t.settle(bound);
    }
    expectMessage(await t.ask(p, actor, 'game', { reveal_sealed: true }, 'end'));
  }
  return swept;
}
