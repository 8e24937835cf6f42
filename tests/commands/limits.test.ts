import { afterEach, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import { MAX_SEEDS_PER_GAME } from '../../commands/roster/seeds.js';
import { MAX_UNITS_PER_GAME } from '../../commands/roster/unit.js';
import { MAX_TRACKED_PLAYERS, RateLimiter } from '../../src/core/rate-limit.js';
import { commitment } from '../../src/dice/seeded.js';
import { parseConfig } from '../../src/config.js';
import { HISTORY_COUNT_CAP } from '../../src/ledger/history.js';
import { alice, bob, expectError, expectMessage, fillRolls, subcommand, testApp, type TestApp } from '../helpers/app.js';

// A per-player rate limit, and caps on what one game may hold.
let app: TestApp;
afterEach(() => app?.ledger.close());

describe('the per-player rate limit', () => {
  const limited = (burst: number, perMinute: number) => {
    app = testApp();
    let now = 1_000_000;
    const clock = {
      advance(ms: number) {
        now += ms;
      },
    };
    const router = createRouter({
      ledger: app.ledger,
      log: app.log,
      roller: app.dice,
      gameRoller: () => app.dice,
      limiter: new RateLimiter({ burst, perMinute }, () => now),
    });
    return { router, clock };
  };
  const rally = (router: ReturnType<typeof createRouter>, actor = alice) => {
    app.dice.push(4);
    return router.handle({ type: 'command', name: 'rally', options: { disorder: 1 }, actor });
  };

  it('a player past the burst gets a clear ephemeral refusal with the wait, and no row; others are not slowed', async () => {
    const { router, clock } = limited(3, 6);
    for (let i = 0; i < 3; i++) expectMessage(await rally(router));
    const refused = await rally(router);
    // 6 a minute: one token every 10 s.
    expect(expectError(refused)).toBe('Slow down: you are sending commands faster than this server allows. Try again in 10 s.');
    expect(app.ledger.count('g1')).toBe(3);
    app.dice.clear();
    expectMessage(await rally(router, bob));
    expect(app.ledger.count('g1')).toBe(4);
    clock.advance(9_000);
    expect(expectError(await rally(router))).toContain('Try again in 1 s.');
    app.dice.clear();
    clock.advance(1_000);
    expectMessage(await rally(router));
    expect(app.ledger.count('g1')).toBe(5);
  });

  it('a heavy command’s button spends what the command does: /privacy erase pressed costs as /privacy does', async () => {
    const { router } = limited(10, 60);
    const press = () => router.handle({ type: 'button', customId: 'v1:privacy_erase:alice', actor: alice });
    expectMessage(await press());
    expectMessage(await press());
    // 5 a press: the third finds the bucket empty.
    expect(expectError(await press())).toContain('Slow down');
  });

  it('a heavy command spends more: /export takes a whole bucket', async () => {
    const { router } = limited(10, 60);
    const gmActor = { ...alice, isGm: true };
    const exported = await router.handle({ type: 'command', name: 'export', options: {}, actor: gmActor });
    expect(exported.type).toBe('message');
    expect(expectError(await router.handle({ type: 'command', name: 'history', options: {}, actor: gmActor }))).toContain('Try again in 2 s.');
  });

  it('autocomplete is never limited; memory stays bounded however many players there are', async () => {
    const { router } = limited(1, 1);
    expectMessage(await rally(router));
    const choices = await router.handle({ type: 'autocomplete', name: 'rally', option: 'unit', value: '', actor: alice });
    expect(choices.type).toBe('choices');
    const limiter = new RateLimiter({ burst: 1, perMinute: 1 });
    for (let i = 0; i < MAX_TRACKED_PLAYERS + 10; i++) limiter.take(`g:${i}`, 1);
    expect(limiter.tracked).toBe(MAX_TRACKED_PLAYERS);
  });

  it('is configured from the environment, with defaults and a clear error', () => {
    expect(parseConfig({}).rateLimit).toEqual({ burst: 10, perMinute: 30 });
    expect(parseConfig({ RATE_LIMIT_BURST: '4', RATE_LIMIT_PER_MINUTE: '12' }).rateLimit).toEqual({ burst: 4, perMinute: 12 });
    expect(() => parseConfig({ RATE_LIMIT_BURST: '0' })).toThrow('RATE_LIMIT_BURST is malformed: expected a whole number from 1 to 1000');
  });
});

describe('caps on a game', () => {
  it(`a roster holds at most ${MAX_UNITS_PER_GAME} units; the next is refused and nothing is recorded`, async () => {
    app = testApp();
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Big' }));
    const game = app.ledger.roster.activeGame('g1', 'c1')!;
    // Filled directly: the cap is what is under test, not 500 commands.
    for (let i = 0; i < MAX_UNITS_PER_GAME; i++) {
      app.ledger.roster.addUnit({
        game_id: game.id,
        name: `U${i}`,
        owner_id: 'alice',
        owner_name: 'Alice',
        side: null,
        fields: { original: 8, quality: 'regular', disorder: 0 },
        at: new Date().toISOString(),
      });
    }
    const rows = app.ledger.count('g1');
    expect(expectError(await subcommand(app, alice, 'unit', 'add', { name: 'One more', fields: 'original:8' }))).toBe(
      `Big already has ${MAX_UNITS_PER_GAME} units, the most a game's roster holds: remove one with /unit remove first.`,
    );
    expect(app.ledger.count('g1')).toBe(rows);
    expect(app.ledger.roster.countUnits(game.id)).toBe(MAX_UNITS_PER_GAME);
  });

  it(`a game takes at most ${MAX_SEEDS_PER_GAME} seed commitments`, async () => {
    app = testApp();
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Seeds' }));
    for (let i = 0; i < MAX_SEEDS_PER_GAME; i++) {
      const player = { ...alice, userId: `p${i}`, userName: `P${i}` };
      expectMessage(await subcommand(app, player, 'game', 'join', { side: i % 2 ? 'axis' : 'allied' }));
      expectMessage(await subcommand(app, player, 'game', 'seed', { commit: commitment(`seed ${i}`) }));
    }
    const late = { ...alice, userId: 'late', userName: 'Late' };
    expectMessage(await subcommand(app, late, 'game', 'join', { side: 'axis' }));
    expect(expectError(await subcommand(app, late, 'game', 'seed', { commit: commitment('late') }))).toBe(
      `Seeds already has ${MAX_SEEDS_PER_GAME} seed commitments, the most a game takes.`,
    );
  });
});

// Unit autocomplete reads one row per name (channel_units), not every roll of the channel.
describe('unit autocomplete on a busy channel', () => {
  it("10,000 unit names: newest first, by case-insensitive prefix, per system (the keystroke's time is the bench's line 9)", async () => {
    app = testApp();
    const append = (unit: string, system = 'hearts-of-tin') =>
      app.ledger.append({
        guildId: 'g1',
        channelId: 'c1',
        userId: 'alice',
        userName: 'Alice',
        command: system === 'hearts-of-tin' ? 'rally' : 'morale',
        system,
        kind: 'roll',
        unit,
        input: {},
        dice: [4],
        outcome: { steps: [] },
        result: 'rally',
      });
    app.ledger.db.transaction(() => {
      for (let i = 0; i < 10_000; i++) append(`Regiment ${i}`);
      // Rolled again later, spelt differently: one entry, the newest spelling, now the most recent.
      append('regiment 5');
      append('Panzer Lehr', 'lightning-war');
    })();
    const complete = (name: string, value: string) => app.router.handle({ type: 'autocomplete', name, option: 'unit', value, actor: alice });
    const first = await complete('rally', 'REGIMENT 5');
    expect(first.type === 'choices' && first.choices.slice(0, 3).map((c) => c.name)).toEqual(['regiment 5', 'Regiment 5999', 'Regiment 5998']);
    expect(first.type === 'choices' && first.choices).toHaveLength(25);
    // Another system's names are not offered.
    expect(await complete('rally', 'Panzer')).toEqual({ type: 'choices', choices: [] });
    expect(await complete('morale', 'pan')).toEqual({ type: 'choices', choices: [{ name: 'Panzer Lehr', value: 'Panzer Lehr' }] });
  }, 120_000);
});

describe('/history on a busy channel', () => {
  it(`counts matching rows only up to ${HISTORY_COUNT_CAP}: the footer says so and how to reach older rows (its time is the bench's line 6)`, async () => {
    app = testApp();
    fillRolls(app, HISTORY_COUNT_CAP + 5);
    const history = () => app.router.handle({ type: 'command', name: 'history', options: {}, actor: alice });
    const first = expectMessage(await history());
    expect(first.embed.footer?.text).toBe('this channel · page 1 of 1000 · the newest 10000 rolls (narrow with until: for older ones) · newest first');
    expect(first.embed.description).toContain(`U${HISTORY_COUNT_CAP + 4}`);
    // Under the cap the count is exact.
    expect(app.ledger.history.page({ guildId: 'g1', channelId: 'c1' }, 10, 0, 20_000)).toMatchObject({ total: HISTORY_COUNT_CAP + 5, capped: false });
  }, 120_000);
});
