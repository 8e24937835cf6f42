import { createHmac, createHash } from 'node:crypto';
import { forgedHash } from '../helpers/forge.js';
import { afterEach, describe, expect, it } from 'vitest';
import { roundAt, roundTime, snowflakeAt, type BeaconChain } from '../../src/beacon/chain.js';
import { relaySource, type BeaconSource } from '../../src/beacon/relay.js';
import { createLogger } from '../../src/log.js';
import { resumeBindings } from '../../src/core/resume-bindings.js';
import type { Reply } from '../../src/core/command.js';
import { parseRow, type LedgerRow, type RawRow } from '../../src/ledger/rows.js';
import { canonicalJson, GENESIS_HASH } from '../../src/ledger/chain.js';
import { checkPromises, type Row } from '../../src/verify/checks.js';
import { alice, bob, command, expectError, expectMessage, gm, subcommand, testApp, type TestApp } from '../helpers/app.js';
import { invalidRoundsInWorkers } from '../../src/beacon/verify-pool.js';
import { FakeRelay, testChain } from '../helpers/beacon-relay.js';
import { tmpDb } from '../helpers/tmp.js';

// A beacon game's dice come from a round of a public beacon published after the
// roll was asked. A test chain of our own (a round a second) stands in for drand's quicknet.

const { chain, sign } = testChain(9, 1);
let relay: FakeRelay | undefined;
let app: TestApp | undefined;
afterEach(async () => {
  app?.ledger.close();
  await relay?.stop();
  app = relay = undefined;
});

async function beaconApp(file = tmpDb()) {
  relay = await new FakeRelay(chain, sign).start();
  const beacon = relaySource(chain, { urls: [relay.url], retryMs: 100 });
  app = testApp(file, { beacon });
  return { app, beacon };
}

const rowsOf = (a: TestApp): LedgerRow[] => (a.ledger.db.prepare('SELECT * FROM rolls ORDER BY seq').all() as RawRow[]).map(parseRow);

function expectBound(reply: Reply) {
  if (reply.type !== 'bound') throw new Error(`expected a bound roll, got ${JSON.stringify(reply)}`);
  return reply;
}

/** A die as the published scheme makes it, written out here (not the bot's code). */
function die(seed: string, game: string, interaction: string, round: number, randomness: string, index: number, sides: number): number {
  for (let attempt = 0; ; attempt++) {
    const mac = createHmac('sha256', seed)
      .update(JSON.stringify(['beacon-v1', game, interaction, round, randomness, index, attempt]))
      .digest();
    const v = mac.readUInt32BE(0);
    if (v < 2 ** 32 - (2 ** 32 % sides)) return (v % sides) + 1;
  }
}

async function startGame(a: TestApp) {
  expectMessage(await subcommand(a, alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Ligny' }));
  return a.ledger.roster.activeGame('g1', 'c1')!;
}

describe('a beacon game', () => {
  it('commits to its chain at the start and takes no player seeds', async () => {
    const { app } = await beaconApp();
    const game = await startGame(app);
    const start = rowsOf(app)[0]!;
    expect(start.input).toMatchObject({ dice_scheme: 'beacon-v1', beacon: chain });
    expect(JSON.stringify(start.outcome)).not.toContain(game.server_seed);
    await subcommand(app, alice, 'game', 'join', { side: 'axis' });
    const hash = createHash('sha256').update('mine').digest('hex');
    expect(expectError(await subcommand(app, alice, 'game', 'seed', { commit: hash }))).toBe(
      'Ligny takes its dice from the public beacon, which nobody can foresee or steer: it takes no player seeds.',
    );
  });

  it('binds a roll to the round two after its interaction, then rolls it from that round', async () => {
    const { app } = await beaconApp();
    const game = await startGame(app);
    const asked = Date.now();
    const interactionId = snowflakeAt(asked, 1);
    const round = roundAt(chain, asked) + 2;
    const bound = expectBound(
      await app.router.handle({ type: 'command', name: 'rally', options: { disorder: 2, unit: '1st Foot' }, actor: alice, interactionId }),
    );
    // Answered before the round was out (no relay had served it): who rolled, and the round.
    expect(relay!.served.filter((r) => r >= round)).toEqual([]);
    expect(bound.embed.title).toBe(`/rally · bound to beacon round ${round}`);
    expect(bound.embed.description).toContain('Rolled by <@alice>');
    expect(rowsOf(app).filter((r) => r.kind === 'roll')).toHaveLength(0);
    const result = expectMessage(await bound.result);
    expect(Date.now()).toBeGreaterThanOrEqual(roundTime(chain, round));
    const row = rowsOf(app).find((r) => r.kind === 'roll')!;
    const signature = sign(round).signature;
    expect((row.input as { beacon: unknown }).beacon).toEqual({ interaction: interactionId, round, signature });
    const randomness = createHash('sha256').update(Buffer.from(signature, 'hex')).digest('hex');
    expect(row.dice).toEqual([die(game.server_seed!, game.id, interactionId, round, randomness, 0, 6)]);
    expect(result.record!.roll_id).toBe(row.id);
  });

  it('every verifier check holds for an honest game, and names the chain as private', async () => {
    const { app } = await beaconApp();
    await startGame(app);
    const rolls = await Promise.all(
      [alice, bob, alice].map((actor, i) =>
        app.router.handle({ type: 'command', name: 'rally', options: { disorder: 1, unit: `U${i}` }, actor, interactionId: snowflakeAt(Date.now(), i) }),
      ),
    );
    for (const r of rolls) expectMessage(await expectBound(r).result);
    expectMessage(await subcommand(app, alice, 'game', 'end'));
    const found = checkPromises(rowsOf(app));
    expect(found.ok).toBe(true);
    expect(found.lines.join('\n')).toMatch(
      /all 3 rolls' dice recomputed and equal; numbered 1\.\.3 with no gap; [12] beacon rounds? of a private beacon chain \([0-9a-f]{12}…\): trust its operator, each signed/,
    );
  });
});

describe('a beacon game’s other rolls', () => {
  /** A command bound and rolled; the result. */
  const rolled = async (a: TestApp, req: Parameters<TestApp['router']['handle']>[0]) => expectMessage(await expectBound(await a.router.handle(req)).result);

  it('a sealed roll stays sealed while bound and rolled; revealed, its dice are the round’s, and the game verifies', async () => {
    const { app } = await beaconApp();
    await startGame(app);
    const sealed = await rolled(app, {
      type: 'command',
      name: 'rally',
      options: { disorder: 2, unit: 'Hidden', sealed: true },
      actor: alice,
      interactionId: snowflakeAt(Date.now(), 1),
    });
    expect(sealed.record!.sealed).toBe(true);
    const row = rowsOf(app).find((r) => r.kind === 'roll')!;
    expect(row.dice).toEqual([]);
    expect((row.input as { beacon: { round: number } }).beacon.round).toBeGreaterThan(0);
    expectMessage(await command(app, alice, 'reveal', { id: sealed.record!.roll_id }));
    expectMessage(await subcommand(app, alice, 'game', 'end'));
    const found = checkPromises(rowsOf(app));
    expect(found.ok).toBe(true);
    expect(found.lines.join('\n')).toContain("all 1 rolls' dice recomputed and equal");
  });

  it('the commander’s re-roll (a button) binds to its own round and rolls from it', async () => {
    const { app } = await beaconApp();
    await startGame(app);
    // Rally until one fails with the re-roll on offer (a die of 1 or 2 on a militia unit with 3 markers).
    let offered: string | undefined;
    for (let i = 0; !offered && i < 40; i++) {
      const first = await rolled(app, {
        type: 'command',
        name: 'rally',
        options: { disorder: 3, quality: 'militia', unit: `Landwehr ${i}`, commander_near: true },
        actor: alice,
        interactionId: snowflakeAt(Date.now(), i),
      });
      offered = first.buttons[0]?.custom_id;
    }
    expect(offered).toBeDefined();
    const pressId = snowflakeAt(Date.now(), 99);
    const bound = expectBound(await app.router.handle({ type: 'button', customId: offered!, actor: alice, interactionId: pressId }));
    expect(bound.embed.title).toMatch(/^Roll · bound to beacon round \d+$/);
    expectMessage(await bound.result);
    const reroll = rowsOf(app).find((r) => r.kind === 'reroll')!;
    expect((reroll.input as { beacon: { interaction: string } }).beacon.interaction).toBe(pressId);
    expectMessage(await subcommand(app, alice, 'game', 'end'));
    expect(checkPromises(rowsOf(app)).ok).toBe(true);
  });
});

describe('a bound roll refused when its round comes', () => {
  it('is answered with why, and its binding ends (a restart does not run it again)', async () => {
    const { app } = await beaconApp();
    await startGame(app);
    expectMessage(await subcommand(app, alice, 'unit', 'add', { name: 'Guard', fields: 'original:8' }));
    const bound = expectBound(
      await app.router.handle({
        type: 'command',
        name: 'rally',
        options: { unit: 'Guard', disorder: 1 },
        actor: alice,
        interactionId: snowflakeAt(Date.now(), 1),
      }),
    );
    // Before its round is out, the unit leaves the roster.
    expectMessage(await subcommand(app, alice, 'unit', 'remove', { unit: 'Guard' }));
    expect(expectError(await bound.result)).toMatch(/^Guard left the roster of Ligny/);
    expect(app.ledger.db.prepare('SELECT state FROM beacon_bindings').all()).toEqual([{ state: 'not_rolled' }]);
    expect(await app.ledger.history.pendingBindings(10)).toEqual([]);
  });
});

describe('a beacon roll read again', () => {
  it('"Roll again" asks with the first roll’s options, not its round; a receipt’s command line names only the options', async () => {
    const { app } = await beaconApp();
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'asl', name: 'Stalingrad' }));
    const first = expectMessage(
      await expectBound(
        await app.router.handle({ type: 'command', name: 'dr', options: { category: 'IFT' }, actor: alice, interactionId: snowflakeAt(Date.now(), 1) }),
      ).result,
    );
    const again = first.buttons.find((b) => b.label.includes('again'))!.custom_id;
    const pressId = snowflakeAt(Date.now(), 2);
    expectMessage(await expectBound(await app.router.handle({ type: 'button', customId: again, actor: alice, interactionId: pressId })).result);
    const [one, two] = rowsOf(app).filter((r) => r.kind === 'roll');
    expect(two!.input).toEqual({ ...(one!.input as object), beacon: { interaction: pressId, round: expect.any(Number), signature: expect.any(String) } });
    // Once the game is over, rolled again outside any game: no beacon, and none carried over.
    expectMessage(await subcommand(app, alice, 'game', 'end'));
    app.dice.push(3, 4);
    expectMessage(await app.router.handle({ type: 'button', customId: again, actor: alice, interactionId: snowflakeAt(Date.now(), 3) }));
    const three = rowsOf(app).filter((r) => r.kind === 'roll')[2]!;
    expect(three.game_id).toBeNull();
    expect(three.input).toEqual({ category: 'IFT', sealed: false });
    const receipt = expectMessage(await subcommand(app, alice, 'roll', 'receipt', { id: one!.id }));
    expect(receipt.embed.description).toContain('/dr category:IFT');
    expect(receipt.embed.description).not.toContain('beacon');
  });
});

describe("the bot's own /verify", () => {
  it('checks a beacon game’s rounds (on worker threads), and names randomness an operator forged with the database', async () => {
    const { app } = await beaconApp();
    await startGame(app);
    const r = await app.router.handle({
      type: 'command',
      name: 'rally',
      options: { disorder: 1, unit: 'V' },
      actor: alice,
      interactionId: snowflakeAt(Date.now(), 1),
    });
    expectMessage(await expectBound(r).result);
    expectMessage(await subcommand(app, alice, 'game', 'end'));
    expect(expectMessage(await command(app, gm, 'verify', {})).embed.description).toContain('every die of 1 ended game recomputed from its seeds');
    // The operator, with the database, gives the roll another round's randomness and re-hashes the chain.
    const row = rowsOf(app).find((x) => x.kind === 'roll')!;
    const input = row.input as { beacon: { round: number } };
    const forged = { ...input, beacon: { ...input.beacon, signature: sign(input.beacon.round + 3).signature } };
    app.ledger.db.exec('DROP TRIGGER rolls_no_update');
    app.ledger.db.prepare('UPDATE rolls SET input = ? WHERE id = ?').run(canonicalJson(forged), row.id);
    let prev = GENESIS_HASH;
    for (const r of rowsOf(app)) {
      const hash = forgedHash(prev, r);
      app.ledger.db.prepare('UPDATE rolls SET prev_hash = ?, hash = ?, chained = ? WHERE id = ?').run(prev, hash, r.chained ?? null, r.id);
      prev = hash;
    }
    const verdict = expectMessage(await command(app, gm, 'verify', {})).embed.description!;
    expect(verdict).toContain(`the beacon signature of roll ${row.id} does not hold under the game's beacon key: forged randomness`);
  });

  it('rounds checked on worker threads name a forged one, as the one-thread check does', async () => {
    const good = Array.from({ length: 70 }, (_, i) => sign(500 + i));
    const forged = { round: 600, signature: sign(601).signature };
    expect(await invalidRoundsInWorkers(chain, [...good, forged, ...good])).toEqual([forged]);
    expect(await invalidRoundsInWorkers(chain, good)).toEqual([]);
  });
});

describe('what the verifiers refuse in a beacon game', () => {
  async function endedGame() {
    const { app } = await beaconApp();
    await startGame(app);
    const bound = [];
    for (const i of [1, 2]) {
      const r = await app.router.handle({
        type: 'command',
        name: 'rally',
        options: { disorder: 1, unit: `U${i}` },
        actor: alice,
        interactionId: snowflakeAt(Date.now(), i),
      });
      bound.push(expectBound(r).result);
    }
    for (const r of bound) expectMessage(await r);
    expectMessage(await subcommand(app, alice, 'game', 'end'));
    return rowsOf(app) as Row[];
  }
  const editBeacon = (rows: Row[], n: number, change: (b: Record<string, unknown>) => Record<string, unknown>, at?: string) =>
    rows.map((r) => {
      if (r.kind !== 'roll' || r.game_seq !== n) return r;
      const input = r.input as { beacon: Record<string, unknown> };
      return { ...r, input: { ...input, beacon: change(input.beacon) }, ...(at ? { created_at: at } : {}) };
    });
  const problem = (rows: Row[]) => checkPromises(rows).games[0]?.problem;

  it("a forged round (another round's signature, or one bit changed)", async () => {
    const rows = await endedGame();
    const first = rows.find((r) => r.game_seq === 1)!;
    const other = (first.input as { beacon: { round: number } }).beacon.round + 7;
    expect(problem(editBeacon(rows, 1, (b) => ({ ...b, signature: sign(other).signature })))).toBe(
      `the beacon signature of roll ${first.id} does not hold under the game's beacon key: forged randomness`,
    );
    const flipped = (s: string) => (s[10] === '0' ? '1' : '0') + s.slice(1);
    expect(problem(editBeacon(rows, 1, (b) => ({ ...b, signature: flipped(String(b.signature)) })))).toMatch(/does not hold|forged randomness/);
  });

  it('a round chosen after the fact (not the one its interaction binds to)', async () => {
    const rows = await endedGame();
    const first = rows.find((r) => r.game_seq === 1)!;
    const b = (first.input as { beacon: { round: number; interaction: string } }).beacon;
    // An operator who knows the seed tries an earlier published round: honestly signed, but not this roll's.
    expect(problem(editBeacon(rows, 1, (x) => ({ ...x, round: b.round - 1, signature: sign(b.round - 1).signature })))).toBe(
      `roll ${first.id} used beacon round ${b.round - 1}, but its interaction ${b.interaction} binds it to round ${b.round} (2 after the round current when it was asked)`,
    );
  });

  it('a roll recorded before its round was published, or past its binding, or answering one interaction twice, or with no round', async () => {
    const rows = await endedGame();
    const first = rows.find((r) => r.game_seq === 1)!;
    const second = rows.find((r) => r.game_seq === 2)!;
    const b = (first.input as { beacon: { round: number; interaction: string } }).beacon;
    const early = new Date(roundTime(chain, b.round) - 1).toISOString();
    expect(problem(editBeacon(rows, 1, (x) => x, early))).toBe(
      `roll ${first.id} was recorded before its beacon round ${b.round} was published: nobody could have had its dice then`,
    );
    const late = new Date(Date.parse(first.created_at) + 12 * 60_000).toISOString();
    expect(problem(editBeacon(rows, 1, (x) => x, late))).toBe(
      `roll ${first.id} was recorded more than ten minutes after it was asked: its binding had expired`,
    );
    const b1 = (first.input as { beacon: Record<string, unknown> }).beacon;
    expect(problem(editBeacon(rows, 2, () => b1))).toBe(`roll ${second.id} answers interaction ${b1.interaction}, which another roll of the game answered`);
    expect(problem(editBeacon(rows, 1, () => ({})))).toBe(`roll ${first.id} of a beacon game names no beacon round (its interaction, round and signature)`);
  });

  it("dice that are not the round's", async () => {
    const rows = await endedGame();
    const first = rows.find((r) => r.game_seq === 1)!;
    const other = first.dice[0] === 6 ? 5 : 6;
    const edited = rows.map((r) => (r.id === first.id ? { ...r, dice: [other] } : r));
    expect(problem(edited)).toMatch(
      new RegExp(`^roll ${first.id} \\(game roll 1, beacon round \\d+\\) has dice ${other} but the seed gives ${first.dice[0]}$`),
    );
  });
});

/** A beacon whose rounds never come (the relays gone while the process stops). */
const hanging = (c: BeaconChain): BeaconSource => ({
  chain: c,
  relays: [],
  round: () => new Promise(() => undefined),
  status: () => ({ chain: c.hash, relays: 0, answering: false, lastRound: null, lastError: null }),
});

describe('a binding across a restart', () => {
  it('is rolled when the bot starts again, posted to its channel naming its roller, once', async () => {
    const file = tmpDb();
    const first = testApp(file, { beacon: hanging(chain) });
    expectMessage(await subcommand(first, alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Ligny' }));
    expectBound(await command(first, alice, 'rally', { disorder: 1, unit: 'Left behind' }));
    first.ledger.close();
    const { app } = await beaconApp(file);
    const posts: { channel: string; content: string; title?: string }[] = [];
    const post = async (_g: string, channel: string, m: { content: string; embed: { title?: string } }) => {
      posts.push({ channel, content: m.content, ...(m.embed.title ? { title: m.embed.title } : {}) });
      return `m${posts.length}`;
    };
    const links = { shown: (rollId: string, messageId: string) => app.ledger.history.linkMessage(rollId, messageId) };
    expect(await resumeBindings(app.router.binder!, post, links, app.log)).toBe(1);
    expect(posts).toEqual([
      {
        channel: 'c1',
        content: expect.stringMatching(/^<@alice>: your roll bound to beacon round \d+ is rolled \(the bot restarted before it could answer\)\.$/),
        title: expect.stringMatching(/^Rally · Left behind/),
      },
    ]);
    expect(rowsOf(app).filter((r) => r.kind === 'roll')).toHaveLength(1);
    expect(await resumeBindings(app.router.binder!, post, links, app.log)).toBe(0);
  });

  /** A rally bound in a game, the bot down for eleven minutes, the relays silent: what the restart posts. */
  async function expiredAfterRestart(locale?: string) {
    const file = tmpDb();
    const first = testApp(file, { beacon: hanging(chain) });
    expectMessage(await subcommand(first, alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Ligny' }));
    const bound = expectBound(await first.router.handle({ type: 'command', name: 'rally', options: { disorder: 1, unit: 'Too late' }, actor: alice, locale }));
    // Eleven minutes pass while the bot is down.
    first.ledger.db.prepare('UPDATE beacon_bindings SET created_at = ?').run(new Date(Date.now() - 11 * 60_000).toISOString());
    first.ledger.close();
    const { app } = await beaconApp(file);
    relay!.down = true;
    const posts: string[] = [];
    const post = async (_g: string, _c: string, m: { content: string }) => {
      posts.push(m.content);
      return 'm1';
    };
    expect(await resumeBindings(app.router.binder!, post, { shown: () => undefined }, app.log)).toBe(1);
    return { app, bound, posts };
  }

  it('expires after ten minutes without a round: nothing rolled, the player told, the expiry on the record', async () => {
    const { app, posts } = await expiredAfterRestart();
    expect(posts).toEqual([
      expect.stringMatching(
        /^<@alice>: your roll bound to beacon round \d+ was not rolled\. Beacon round \d+ did not reach the bot within the roll's ten minutes \(it was stopped\), so nothing was rolled; the expiry is on the record: roll again\.$/,
      ),
    ]);
    expect(rowsOf(app).filter((r) => r.kind === 'roll')).toHaveLength(0);
    expect(rowsOf(app).filter((r) => r.kind === 'expiry')).toEqual([
      expect.objectContaining({ user_id: 'alice', command: 'rally', dice: [], result: 'expired', input: expect.objectContaining({ why: 'window_passed' }) }),
    ]);
    expect(app.ledger.db.prepare('SELECT state FROM beacon_bindings').all()).toEqual([{ state: 'expired' }]);
  });

  it('speaks to a German player in German: the bound message, and the expiry posted after a restart', async () => {
    const { bound, posts } = await expiredAfterRestart('de');
    expect(bound.embed.title).toMatch(/^\/sammeln · an Beacon-Runde \d+ gebunden$/);
    expect(bound.embed.description).toMatch(/^Gewürfelt von <@alice>\. Die Würfel stammen aus Runde \d+ des öffentlichen Beacons/);
    expect(posts).toEqual([
      expect.stringMatching(
        /^<@alice>: dein an Beacon-Runde \d+ gebundener Wurf wurde nicht gewürfelt\. Beacon-Runde \d+ erreichte den Bot nicht in den zehn Minuten des Wurfs .*würfle erneut\.$/,
      ),
    ]);
  });
});

describe('the relays', () => {
  it('a relay serving a wrong signature is not believed; a good one answers', async () => {
    relay = await new FakeRelay(chain, sign).start();
    const liar = await new FakeRelay(chain, sign).start();
    liar.lie = true;
    try {
      const round = roundAt(chain, Date.now()) - 1;
      const source = relaySource(chain, { urls: [liar.url, relay.url], retryMs: 50 });
      expect(await source.round(round, Date.now() + 5000)).toEqual(sign(round));
      const alone = relaySource(chain, { urls: [liar.url], retryMs: 50 });
      await expect(alone.round(round, Date.now() + 300)).rejects.toThrow(`no relay gave round ${round} in time`);
      expect(alone.status()).toMatchObject({ answering: false, lastRound: null });
      expect(source.status()).toMatchObject({ answering: true, lastRound: round });
    } finally {
      await liar.stop();
    }
  });

  it('relays that do not answer are retried until the deadline and said once in the log, not at every try', async () => {
    relay = await new FakeRelay(chain, sign).start();
    relay.down = true;
    const lines: string[] = [];
    const log = createLogger({ level: 'warn', write: (l) => lines.push(l) });
    const source = relaySource(chain, { urls: [relay.url], retryMs: 50, log });
    const round = roundAt(chain, Date.now()) - 1;
    await expect(source.round(round, Date.now() + 1500)).rejects.toThrow(`no relay gave round ${round} in time: ${relay.url} answered 503`);
    expect(relay.requests).toBeGreaterThan(10);
    expect(lines.filter((l) => l.includes('the beacon relays did not give a round yet'))).toHaveLength(1);
  });

  it('a v1-only relay is read through the v1 path; fifty rolls of one round ask once', async () => {
    relay = await new FakeRelay(chain, sign, Date.now, true).start();
    const source = relaySource(chain, { urls: [relay.url], retryMs: 50 });
    const round = roundAt(chain, Date.now()) + 1;
    const got = await Promise.all(Array.from({ length: 50 }, () => source.round(round, Date.now() + 5000)));
    expect(new Set(got.map((g) => g.signature))).toEqual(new Set([sign(round).signature]));
    // One v2 miss and one v1 hit per attempt: never one request per roll.
    expect(relay.requests).toBeLessThanOrEqual(4);
  });
});
