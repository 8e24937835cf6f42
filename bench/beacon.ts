import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRouter } from '../src/app.js';
import { roundAt, roundTime, snowflakeAt } from '../src/beacon/chain.js';
import { relaySource } from '../src/beacon/relay.js';
import { verifyRound } from '../src/beacon/verify-round.js';
import { attachmentData, type Reply } from '../src/core/command.js';
import { Ledger } from '../src/ledger/ledger.js';
import { createLogger } from '../src/log.js';
import { fakeDiscordKey, playBeaconGame } from '../tests/helpers/beacon-game.js';
import { FakeRelay, testChain } from '../tests/helpers/beacon-relay.js';
import { fmt, type Line, median, pct, repeated } from './repeat.js';
import { inChromium } from './verify-speed.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

/**
 * A burst of `players` beacon rolls in one game, all asked in the same moment against a local relay
 * on a quicknet-like test chain (a round every 3 s): each first answer's time, and how long after
 * its round's publication each result came. The baseline, in the same trial: a bare client that
 * fetches the same round from the same relay and checks its signature, the least any roll must wait.
 */
async function burst(players: number, dir: string) {
  const { chain, sign } = testChain(17, 3, Math.floor(Date.now() / 1000) - 3000);
  const relay = await new FakeRelay(chain, sign).start();
  const ledger = Ledger.open(path.join(dir, `beacon-${Date.now()}.db`));
  try {
    const router = createRouter({ ledger, log: createLogger({ level: 'silent' }), beacon: relaySource(chain, { urls: [relay.url] }) });
    const actor = (i: number) => ({ guildId: 'g1', channelId: 'c1', userId: `p${i}`, userName: `P${i}`, isGm: false });
    await router.handle({ type: 'command', name: 'game', subcommand: 'start', options: { system: 'hearts-of-tin', name: 'Burst' }, actor: actor(0) });
    // Asked early in a round, so every roll binds to the same round two later.
    const due = roundTime(chain, roundAt(chain, Date.now()) + 1);
    await new Promise((r) => setTimeout(r, due - Date.now() + 100));
    const asked = Date.now();
    const bareFetch = (async () => {
      const round = roundAt(chain, asked) + 2;
      await new Promise((r) => setTimeout(r, roundTime(chain, round) - Date.now()));
      for (;;) {
        const res = await fetch(`${relay.url}/v2/chains/${chain.hash}/rounds/${round}`);
        if (res.ok && verifyRound(chain, (await res.json()) as { round: number; signature: string })) return Date.now() - roundTime(chain, round);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const first: number[] = [];
    const after: number[] = [];
    await Promise.all(
      Array.from({ length: players }, async (_, i) => {
        const reply: Reply = await router.handle({
          type: 'command',
          name: 'rally',
          options: { disorder: 2, unit: `U${i}` },
          actor: actor(i),
          interactionId: snowflakeAt(asked, i),
        });
        first.push(Date.now() - asked);
        if (reply.type !== 'bound') throw new Error(`a burst roll did not bind: ${JSON.stringify(reply)}`);
        const round = Number(/round (\d+)/.exec(reply.embed.title ?? '')![1]);
        const result = await reply.result;
        if (result.type !== 'message') throw new Error(`a burst roll was not rolled: ${JSON.stringify(result)}`);
        after.push(Date.now() - roundTime(chain, round));
      }),
    );
    return { firstMax: Math.max(...first), p50: median(after), p99: pct(after, 99), bare: await bareFetch };
  } finally {
    ledger.close();
    await relay.stop();
  }
}

/** The beacon's bench lines: a burst's answers, and verifying a game of many beacon rolls. */
export async function beaconLines(quick: boolean): Promise<Line[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-beacon-bench-'));
  try {
    const players = 50;
    const b = await repeated(async () => {
      const r = await burst(players, dir);
      return { ...r, ratio: r.p50 / Math.max(1, r.bare) };
    });
    const lines: Line[] = [
      {
        what: `a beacon roll's result after its round is out, ${players} players at once (local relay)`,
        ours: `median ${fmt(b.med.p50)} ms, p99 ${fmt(b.med.p99)} ms after the round; every first answer within ${fmt(b.med.firstMax)} ms`,
        baseline: `${fmt(b.med.bare)} ms: a bare fetch of the round and its signature check`,
        ratio: b.med.ratio,
        spread: b.spread,
        target: 'p99 ≤ 300 ms after the round; first answers < 3,000 ms',
        met: b.med.p99 <= 300 && b.med.firstMax < 3000,
      },
    ];
    lines.push(...(await verifyBeaconGame(quick ? 100 : 1000, dir)));
    return lines;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `npm run verify` and verify.html on the export of a beacon game of `rolls` rolls, each on its
 * own round; the baseline is checking those rounds' signatures one by one (what a verifier without
 * batching does), in this process.
 */
async function verifyBeaconGame(rolls: number, dir: string): Promise<Line[]> {
  const { chain, sign } = testChain(19, 3);
  // A tournament game: every row's Discord-signed request is checked too (its Ed25519 signature, its fields).
  const { ledger } = await playBeaconGame(path.join(dir, 'verify.db'), chain, sign, { rolls, players: 20, discord: fakeDiscordKey() });
  const rows = ledger.db.prepare("SELECT input FROM rolls WHERE kind = 'roll'").all() as { input: string }[];
  const rounds = rows.map((r) => (JSON.parse(r.input) as { beacon: { round: number; signature: string } }).beacon);
  const router = createRouter({ ledger, log: createLogger({ level: 'silent' }) });
  const gm = { guildId: 'g1', channelId: 'c1', userId: 'gm', userName: 'GM', isGm: true };
  const exported = await router.handle({ type: 'command', name: 'export', options: {}, actor: gm });
  ledger.close();
  if (exported.type !== 'message') throw new Error('the beacon game did not export');
  const file = path.join(dir, 'beacon-game.jsonl');
  fs.writeFileSync(file, attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!));
  const distinct = new Set(rounds.map((r) => r.round)).size;
  const node = await repeated(async () => {
    let t = performance.now();
    const { stdout } = await run(process.execPath, [path.join(ROOT, 'dist/src/verify/main.js'), file], { maxBuffer: 1 << 26 });
    const ms = performance.now() - t;
    if (!stdout.includes('verified: all holds')) throw new Error(`the beacon game did not verify:\n${stdout}`);
    t = performance.now();
    for (const r of rounds) if (!verifyRound(chain, r)) throw new Error('a bench round does not verify');
    const one = performance.now() - t;
    return { ms, one, ratio: ms / one };
  });
  const page = fs.existsSync('/usr/bin/chromium')
    ? await repeated(async () => {
        const p = await inChromium(file);
        return { ms: p.ms, holds: p.holds ? 1 : 0, ratio: p.ms / node.med.ms };
      })
    : undefined;
  const what = `a tournament beacon game of ${fmt(rolls)} rolls (${fmt(distinct)} distinct rounds, every request Discord-signed)`;
  return [
    {
      what: `npm run verify of ${what}`,
      ours: `${fmt(node.med.ms / 1000, 2)} s`,
      baseline: `${fmt(node.med.one / 1000, 2)} s: each round's signature checked alone`,
      ratio: node.med.ratio,
      spread: node.spread,
      target: '≤ 5 s',
      met: node.med.ms <= 5000,
    },
    ...(page
      ? [
          {
            what: `verify.html of ${what}, in Chromium`,
            ours: `${fmt(page.med.ms / 1000, 2)} s`,
            baseline: `${fmt(node.med.ms / 1000, 2)} s: npm run verify on the same file`,
            ratio: page.med.ms / node.med.ms,
            spread: page.spread,
            target: '≤ 5 s; verified',
            met: page.med.ms <= 5000 && page.med.holds === 1,
          },
        ]
      : []),
  ];
}
