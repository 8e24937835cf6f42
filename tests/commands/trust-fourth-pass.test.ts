import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/command.js';
import { attachmentData } from '../../src/core/command.js';
import { commitment } from '../../src/dice/seeded.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { alice, command, expectError, expectMessage, gm, subcommand, testApp, type TestApp } from '../helpers/app.js';

// Trust, fourth pass, games without a beacon: the old player-seed scheme closed where it stays.

let app: TestApp | undefined;
afterEach(() => {
  app?.ledger.close();
  app = undefined;
});

const host: Actor = { ...alice, userId: 'host', userName: 'Host' };
const puppet = (i: number): Actor => ({ ...alice, userId: `puppet${i}`, userName: `Puppet ${i}` });

describe('the seed-withholding attack', () => {
  it("puppets commit, the player reveals, the operator reveals the puppets it likes and drops the rest: every verifier names the game's dice steerable", async () => {
    app = testApp();
    expectMessage(await subcommand(app, host, 'game', 'start', { system: 'hearts-of-tin', name: 'Ligny' }));
    for (const p of [1, 2, 3].map(puppet)) {
      expectMessage(await subcommand(app, p, 'game', 'join', { side: 'axis' }));
      expectMessage(await subcommand(app, p, 'game', 'seed', { commit: commitment(`${p.userId} seed`) }));
    }
    expectMessage(await subcommand(app, alice, 'game', 'join', { side: 'allied' }));
    expectMessage(await subcommand(app, alice, 'game', 'seed', { commit: commitment('alice seed') }));
    expectMessage(await subcommand(app, alice, 'game', 'seed', { reveal: 'alice seed' }));
    // Knowing the server seed and hers, the operator reveals the subset that gives her the worst dice.
    expectMessage(await subcommand(app, puppet(1), 'game', 'seed', { reveal: 'puppet1 seed' }));
    const drops = [];
    for (const who of ['puppet2', 'puppet3']) drops.push(expectMessage(await subcommand(app, host, 'game', 'seed', { drop: who })));
    expect(drops[1]!.embed.description).toContain("Every verifier will report this game's dice as steerable");
    app.dice.push(1);
    expectMessage(await command(app, alice, 'rally', { disorder: 2 }));
    expectMessage(await subcommand(app, host, 'game', 'end'));
    const dropRows = app.ledger.history
      .page({ guildId: 'g1', kinds: ['game'], result: 'seed_dropped' }, 5, 0)
      .rows.map((r) => r.id)
      .reverse();
    const game = app.ledger.history.page({ guildId: 'g1', kinds: ['game'], result: 'game_started' }, 1, 0).rows[0]!.game_id!;
    const line = `game ${game}: FAILED: steerable: 2 seed commitments dropped (rows ${dropRows.join(', ')}): whoever knew the server seed could choose which seeds were revealed, so its dice prove nothing`;

    // The bot's /verify …
    const verdict = expectMessage(await command(app, gm, 'verify', {}));
    expect(JSON.stringify(verdict.embed)).toContain(line.replace(`game ${game}: FAILED: `, ''));
    // … and the export, as npm run verify and verify.html read it.
    const exported = await command(app, gm, 'export', {});
    if (exported.type !== 'message') throw new Error(JSON.stringify(exported));
    const report = verifyExport(attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString());
    expect(report.ok).toBe(false);
    expect(report.lines).toContain(line);
  });
});

describe('seed commitments: one per player on a side', () => {
  it('a member on no side is refused, naming how to join', async () => {
    app = testApp();
    expectMessage(await subcommand(app, host, 'game', 'start', { system: 'hearts-of-tin', name: 'Ligny' }));
    expect(expectError(await subcommand(app, alice, 'game', 'seed', { commit: commitment('x') }))).toBe(
      'Only a player on a side of Ligny can commit to a seed: join one first (/game join side:axis or side:allied).',
    );
  });

  it('twenty-five puppets who took commitments first no longer lock a player out', async () => {
    app = testApp();
    expectMessage(await subcommand(app, host, 'game', 'start', { system: 'hearts-of-tin', name: 'Ligny' }));
    for (let i = 1; i <= 25; i++) {
      expectMessage(await subcommand(app, puppet(i), 'game', 'join', { side: 'axis' }));
      expectMessage(await subcommand(app, puppet(i), 'game', 'seed', { commit: commitment(`p${i}`) }));
    }
    expectMessage(await subcommand(app, alice, 'game', 'join', { side: 'allied' }));
    expect(expectMessage(await subcommand(app, alice, 'game', 'seed', { commit: commitment('alice seed') })).embed.description).toMatch(
      /^Commitment 26 taken\./,
    );
  });
});
