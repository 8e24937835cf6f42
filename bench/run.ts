import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Events, GatewayIntentBits, MessageFlags } from 'discord.js';
import { createRouter } from '../src/app.js';
import type { Request } from '../src/core/router.js';
import { command, expectAnswer, fillBigServer, gm, openRouter, player, rallyStream, UNITS, UNLIMITED } from './big-server.js';
import { MessageLinks } from '../src/core/message-links.js';
import { beaconLines } from './beacon.js';
import { evidenceLines } from './evidence.js';
import { httpRoundTripLine } from './http-roundtrip.js';
import { peerLines } from './peer.js';
import { installLines, packLines } from './packs.js';
import { startupLine } from './startup.js';
import { beaconHourLine, tournamentLines } from './tournament.js';
import { createBot } from '../src/discord/bot.js';
import { GENESIS_HASH } from '../src/ledger/chain.js';
import { Ledger } from '../src/ledger/ledger.js';
import { type Tally, tallyParams, UPSERT_TALLY_SQL } from '../src/ledger/tally.js';
import { silentLogger } from '../src/log.js';
import { FakeDiscord, slashCommand } from '../tests/e2e/fake-discord.js';
import { postgresLines, stopBenchPostgres } from './postgres.js';
import { verifyLines } from './verify-speed.js';
import { fmt, type Line, pct, ratioLine, repeated } from './repeat.js';
import { AS_THE_BOT, actor, committingOneRoll, rally, rollWorkOf, type RollWork } from './roll-work.js';

/**
 * npm run bench [-- --quick]: each figure against a baseline measured in the same run, as a ratio,
 * because these machines are noisy. --quick runs small sizes (seconds) to keep the script working.
 */

const QUICK = process.argv.includes('--quick');
const N = QUICK
  ? { pipeline: 300, roundTrips: 40, historyRows: 20_000, historyQueries: 100, chainRows: 3_000, guilds: 50, bigRows: 20_000, pgRolls: 300, pgLatency: 100 }
  : {
      pipeline: 20_000,
      roundTrips: 1_000,
      historyRows: 1_000_000,
      historyQueries: 1_000,
      chainRows: 200_000,
      guilds: 500,
      bigRows: 1_000_000,
      pgRolls: 5_000,
      pgLatency: 2_000,
    };
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.BENCH0.BenchmarkTokenNotARealOneJustForTheFakeServer0';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-bench-'));

const lines: Line[] = [];
const now = () => performance.now();
/** Runs a measuring child with node (its flags in `args`) and parses the JSON of its last line on stdout. */
async function childFigures<T>(args: string[], timeoutMs: number): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, args, { encoding: 'utf8', timeout: timeoutMs });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

/**
 * The same SQL a roll writes, prepared once, with nothing else: its row (every index of the table),
 * its tally upsert and its unit name upsert, `perCommit` rolls to a transaction (1: one after
 * another; 50: a burst's group commit). What storage alone costs a roll, without parsing, rules,
 * hashing or rendering; rolls/s.
 */
function rawRollWork(work: RollWork, file: string, n: number, perCommit: number): number {
  const raw = Ledger.open(file, AS_THE_BOT);
  const columns = Object.keys(work.row);
  const insert = raw.db.prepare(`INSERT INTO rolls (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  const tally = raw.db.prepare(UPSERT_TALLY_SQL);
  const tallyRow = work.tally as unknown as Tally;
  const unit = raw.db.prepare(`INSERT INTO channel_units (guild_id, channel_id, system, unit_key, unit, last_seq) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (guild_id, channel_id, system, unit_key) DO UPDATE SET unit = excluded.unit, last_seq = excluded.last_seq`);
  const u = work.unit;
  const batch = raw.db.transaction((from: number) => {
    for (let i = from; i < from + perCommit; i++) {
      const info = insert.run({ ...work.row, id: `r${i}`, guild_seq: i + 1 });
      tally.run(...tallyParams(tallyRow, 1));
      unit.run(u.guild_id, u.channel_id, u.system, u.unit_key, u.unit, info.lastInsertRowid);
    }
  });
  const t = now();
  for (let i = 0; i < n; i += perCommit) batch.immediate(i);
  const rate = n / ((now() - t) / 1000);
  raw.close();
  return rate;
}

/** `bursts` bursts of 50 /rally from 50 players, all 50 in flight at once; rolls/s and rows per commit. */
async function burstRate(ledger: Ledger, router: ReturnType<typeof createRouter>, bursts: number) {
  const players = Array.from({ length: 50 }, (_, p) => String(300000000000000100n + BigInt(p)));
  const before = { ...ledger.commits };
  const t = now();
  for (let b = 0; b < bursts; b++) {
    const replies = await Promise.all(players.map((p) => router.handle(rally(p))));
    for (const r of replies) if (r.type !== 'message') throw new Error(`burst failed: ${JSON.stringify(r)}`);
  }
  const rate = (bursts * 50) / ((now() - t) / 1000);
  return { rate, perCommit: (ledger.commits.units - before.units) / (ledger.commits.commits - before.commits) };
}

/** 1–2. Adjudications per second through the whole pipeline, one after another and in bursts, vs raw sequential inserts of rows of the same size. */
async function pipeline() {
  let bytes = 0;
  const { med, spread } = await repeated(async (rep) => {
    const ledger = Ledger.open(path.join(dir, `pipeline-${rep}.db`), AS_THE_BOT);
    const router = createRouter({ ledger, log: silentLogger });
    for (let i = 0; i < 50; i++) await router.handle(rally());
    const t = now();
    for (let i = 0; i < N.pipeline; i++) {
      const r = await router.handle(rally());
      if (r.type !== 'message') throw new Error(`pipeline failed: ${JSON.stringify(r)}`);
    }
    const ours = N.pipeline / ((now() - t) / 1000);
    const burst = await burstRate(ledger, router, N.pipeline / 50);
    const work = rollWorkOf(ledger);
    bytes = JSON.stringify(work.row).length;
    ledger.close();
    // The baselines write the same SQL a roll writes into the same schema (same indexes and
    // pragmas): one roll a transaction, and fifty, as the burst's group commit makes them.
    const base = rawRollWork(work, path.join(dir, `raw-${rep}.db`), N.pipeline, 1);
    const batched = rawRollWork(work, path.join(dir, `raw50-${rep}.db`), N.pipeline, 50);
    return { ours, base, ratio: ours / base, burst: burst.rate, batched, burstRatio: burst.rate / batched, perCommit: burst.perCommit };
  });
  lines.push(
    ratioLine(
      'adjudications/s, one after another (parse → rules → ledger → render)',
      med.ratio,
      spread,
      {
        ours: `${fmt(med.ours)}/s`,
        baseline: `${fmt(med.base)}/s: the same SQL alone (row, tally, unit name), a transaction each`,
        detail: `${bytes} bytes a row`,
      },
      ['≥', 0.7],
    ),
  );
  lines.push(
    ratioLine(
      'adjudications/s, bursts of 50 in flight from 50 players',
      med.burstRatio,
      '(same runs as above)',
      {
        ours: `${fmt(med.burst)}/s`,
        baseline: `${fmt(med.batched)}/s: the same SQL alone, 50 rolls a transaction`,
        detail: `${fmt(med.perCommit, 1)} rows per commit (group commit)`,
      },
      ['≥', 0.3],
    ),
  );
}

/** A round trip's mean time through the real client and the fake: the bot, or a bare handler. */
async function roundTripOf(kind: 'bot' | 'bare', rep: number): Promise<number> {
  const fake = await new FakeDiscord().start();
  const time = async () => {
    const send = () => fake.send(slashCommand('rally', { disorder: 2 }, { member: { id: actor.userId, username: 'bench' } }));
    for (let i = 0; i < 20; i++) await send();
    const t = now();
    for (let i = 0; i < N.roundTrips; i++) await send();
    return (now() - t) / N.roundTrips;
  };
  try {
    if (kind === 'bot') {
      const ledger = Ledger.open(path.join(dir, `roundtrip-${rep}.db`), AS_THE_BOT);
      const bot = createBot({
        token: TOKEN,
        apiBase: fake.apiBase,
        router: createRouter({ ledger, log: silentLogger }),
        links: new MessageLinks(ledger, silentLogger),
        log: silentLogger,
      });
      await bot.start();
      const ms = await time();
      await bot.stop();
      ledger.close();
      return ms;
    }
    const bare = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiBase } });
    const embed = { title: 'Rally', description: 'fixed', color: 0x2e9d57 };
    // The bare handler commits a row of a roll's shape before it replies, as a roll must.
    const commit = await committingOneRoll(path.join(dir, `roundtrip-bare-${rep}.db`));
    bare.on(Events.InteractionCreate, (i) => {
      if (!i.isChatInputCommand()) return;
      commit();
      void i.reply({ embeds: [embed], withResponse: true, flags: i.options.data.length ? undefined : MessageFlags.Ephemeral });
    });
    const ready = new Promise<void>((r) => bare.once(Events.ClientReady, () => r()));
    await bare.login(TOKEN);
    await ready;
    const ms = await time();
    await bare.destroy();
    commit.close();
    return ms;
  } finally {
    await fake.stop();
  }
}

/** 3. A slash command round trip through the real client and the fake, vs a bare handler. */
async function roundTrip() {
  const { med, spread } = await repeated(async (rep) => {
    const ours = await roundTripOf('bot', rep);
    const base = await roundTripOf('bare', rep);
    return { ours, base, ratio: ours / base };
  });
  lines.push(
    ratioLine(
      'slash command round trip (real discord.js ↔ fake)',
      med.ratio,
      spread,
      { ours: `${fmt(med.ours, 3)} ms`, baseline: `${fmt(med.base, 3)} ms: a bare handler committing a row of a roll's shape before it replies` },
      ['≤', 1.3],
    ),
  );
}

/** 4. A /history page on a large ledger: p50 and p99 with its index, vs a full scan. */
async function historyPage() {
  const file = path.join(dir, 'history.db');
  const ledger = Ledger.open(file);
  const db = ledger.db;
  const insert =
    db.prepare(`INSERT INTO rolls (id, guild_id, guild_seq, channel_id, user_id, user_name, command, system, kind, unit, input, dice, outcome, result, created_at, prev_hash, hash)
    VALUES (?, 'g1', ?, ?, ?, ?, 'rally', 'hearts-of-tin', 'roll', 'Unit', '{"disorder":2}', '[4]', '{"result":"retreat"}', 'retreat', ?, ?, ?)`);
  const fill = db.transaction(() => {
    for (let i = 1; i <= N.historyRows; i++) {
      const user = `u${i % 100}`;
      insert.run(`r${i}`, i, `c${i % 5}`, user, user, new Date(1_700_000_000_000 + i * 1000).toISOString(), GENESIS_HASH, `h${i}`);
    }
  });
  fill();
  const filter = (u: number) => ({ guildId: 'g1', channelId: `c${u % 5}`, userId: `u${u}` });
  const plan = ledger.history.plan(filter(7));
  const timed = (n: number, f: (u: number) => void) => {
    const xs: number[] = [];
    for (let q = 0; q < n; q++) {
      const t = now();
      f(q % 100);
      xs.push(now() - t);
    }
    return xs;
  };
  const scan = db.prepare(
    `SELECT * FROM rolls NOT INDEXED WHERE guild_id = 'g1' AND channel_id = ? AND user_id = ? AND kind IN ('roll','reroll','check') ORDER BY seq DESC LIMIT 10`,
  );
  const count = db.prepare(
    `SELECT COUNT(*) FROM rolls NOT INDEXED WHERE guild_id = 'g1' AND channel_id = ? AND user_id = ? AND kind IN ('roll','reroll','check')`,
  );
  const { med, spread } = await repeated(() => {
    const ours = timed(N.historyQueries, (u) => ledger.history.page(filter(u), 10, 0));
    const base = timed(Math.max(10, Math.floor(N.historyQueries / 20)), (u) => {
      scan.all(`c${u % 5}`, `u${u}`);
      count.get(`c${u % 5}`, `u${u}`);
    });
    return { p50: pct(ours, 50), p99: pct(ours, 99), base: pct(base, 50), ratio: pct(ours, 50) / pct(base, 50) };
  });
  ledger.close();
  const usesIndex = plan.some((d) => /USING (COVERING )?INDEX/.test(d));
  lines.push({
    what: `/history page on ${fmt(N.historyRows)} rows (user filter, newest first)`,
    ours: `p50 ${fmt(med.p50, 3)} ms, p99 ${fmt(med.p99, 3)} ms`,
    baseline: `p50 ${fmt(med.base, 1)} ms full scan`,
    ratio: med.ratio,
    spread,
    target: 'p99 ≤ 5 ms, index used',
    met: med.p99 <= 5 && usesIndex,
    detail: `plan: ${plan.join('; ')}`,
  });
}

/** 5. Chain verification rows per second, as /verify walks it, vs raw SHA-256 over the same bytes in one thread. */
async function chain() {
  const file = path.join(dir, 'chain.db');
  const ledger = Ledger.open(file);
  const fill = ledger.db.transaction(() => {
    for (let i = 0; i < N.chainRows; i++) {
      ledger.append({
        guildId: 'g1',
        channelId: 'c1',
        userId: 'u1',
        userName: 'bench',
        command: 'rally',
        system: 'hearts-of-tin',
        kind: 'roll',
        unit: 'Unit',
        input: { disorder: 2, quality: 'militia' },
        dice: [4],
        outcome: { system: 'hearts-of-tin', result: 'retreat', steps: [{ kind: 'rally', dice: [4], final: 2 }] },
        result: 'retreat',
      });
    }
  });
  fill();
  ledger.close();
  // What /verify runs (past 50,000 rows, in worker threads), in a process as the bot's.
  const { med, spread } = await repeated(async () => {
    const { ours, base } = await childFigures<{ ours: number; base: number }>([path.join('bench', 'chain-child.mjs'), file, 'g1'], 300_000);
    return { ours, base, ratio: ours / base };
  });
  lines.push(
    // A guard: the walk canonicalises and hashes each row, so it stays near half of hashing alone.
    ratioLine("chain verification rows/s (/verify's walk)", med.ratio, spread, { ours: `${fmt(med.ours)}/s`, baseline: `${fmt(med.base)}/s raw SHA-256` }, [
      '≥',
      0.45,
    ]),
  );
}

/** 6. Resident memory of the ready bot with many guilds vs a bare client with the same intents. */
async function memory() {
  const guilds = Array.from({ length: N.guilds }, (_, i) => String(900000000000000001n + BigInt(i) * 7n));
  const measure = async (mode: 'bot' | 'bare', rep: number) => {
    const fake = await new FakeDiscord(guilds).start();
    try {
      // Each bot its own directory: a ledger's receipt key file sits beside it, and a new ledger
      // beside a kept key file is refused as a lost ledger.
      const own = fs.mkdtempSync(path.join(dir, `rss-${mode}-${rep}-`));
      const args = ['--expose-gc', path.join('bench', 'rss-child.mjs'), mode, fake.apiBase, TOKEN, path.join(own, 'ledger.db')];
      const m = await childFigures<{ rss: number; heapTotal: number; heapUsed: number; external: number }>(args, 120_000);
      return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20, reserved: m.heapTotal / 2 ** 20, rest: (m.rss - m.heapTotal) / 2 ** 20 };
    } finally {
      await fake.stop();
    }
  };
  const { med, spread } = await repeated(async (rep) => {
    const base = await measure('bare', rep);
    const ours = await measure('bot', rep);
    return {
      ...{ ours: ours.rss, base: base.rss, ratio: ours.rss / base.rss },
      ...{ heap: ours.heap, reserved: ours.reserved, rest: ours.rest, baseHeap: base.heap, baseReserved: base.reserved, baseRest: base.rest },
    };
  });
  // Where the difference lies: the JS heap (reserved, and in use after a full GC), and resident
  // memory outside it (code, native libraries, SQLite's cache).
  const parts = (heap: number, reserved: number, rest: number) =>
    `JS heap ${fmt(reserved, 1)} MiB reserved, ${fmt(heap, 1)} MiB in use; ${fmt(rest, 1)} MiB outside it`;
  lines.push(
    ratioLine(
      `resident memory, ready, ${N.guilds} guilds`,
      med.ratio,
      spread,
      {
        ours: `${fmt(med.ours, 1)} MiB (${parts(med.heap, med.reserved, med.rest)})`,
        baseline: `${fmt(med.base, 1)} MiB bare client (${parts(med.baseHeap, med.baseReserved, med.baseRest)})`,
      },
      ['≤', 1.3],
    ),
  );
}

/** The big server (bench/big-server.ts), filled once for the lines after. */
let bigFile: string | undefined;
async function bigServer(): Promise<string> {
  if (!bigFile) {
    bigFile = path.join(dir, 'big.db');
    const t = now();
    await fillBigServer(bigFile, N.bigRows);
    process.stderr.write(`big server: ${fmt(N.bigRows)} rows in ${fmt((now() - t) / 1000, 1)} s\n`);
  }
  return bigFile;
}

const timedAsync = async (n: number, f: (i: number) => Promise<unknown> | unknown) => {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = now();
    await f(i);
    xs.push(now() - t);
  }
  return xs;
};

/** A command's p50/p99 through the router against the query inside it, trial after trial, as one line. */
async function commandLine(
  what: string,
  req: (i: number) => Request,
  inner: (ledger: Ledger, i: number) => unknown,
  o: { baseline: string; type?: 'message' | 'choices' },
) {
  const { ledger, router } = openRouter(await bigServer());
  const run = (i: number) => expectAnswer(router, req(i), o.type);
  await timedAsync(20, run);
  const { med, spread } = await repeated(async () => {
    const ours = await timedAsync(N.historyQueries, run);
    const base = await timedAsync(N.historyQueries, (i) => inner(ledger, i));
    return { p50: pct(ours, 50), p99: pct(ours, 99), base: pct(base, 50), ratio: pct(ours, 50) / pct(base, 50) };
  });
  ledger.close();
  lines.push({
    what,
    ours: `p50 ${fmt(med.p50, 3)} ms, p99 ${fmt(med.p99, 3)} ms`,
    baseline: `p50 ${fmt(med.base, 3)} ms ${o.baseline}`,
    ratio: med.ratio,
    spread,
    target: 'p99 ≤ 5 ms',
    met: med.p99 <= 5,
  });
}

/** 7. The whole /history command as a player runs it, vs the page query inside it. */
const historyCommand = () =>
  commandLine(
    `whole /history command, ${fmt(N.bigRows)} rows in one server (router in → reply out)`,
    () => command('history', {}, player),
    (ledger) => ledger.history.page({ guildId: player.guildId, channelId: player.channelId }, 10, 0),
    { baseline: 'page query alone' },
  );

/** 8. The event loop while a GM runs /export, /verify and /stats on the big server, seen by /rally from other servers. */
async function stall() {
  const { ledger, router } = openRouter(await bigServer());
  let answered = 0;
  const { med, spread } = await repeated(async () => {
    // Baseline: the same stream with nothing else running, for about as long.
    const idle = await rallyStream(router, new Promise((r) => setTimeout(r, QUICK ? 500 : 3_000)));
    const gmWork = Promise.all([
      expectAnswer(router, command('export', {}, gm, UNLIMITED)),
      expectAnswer(router, command('verify', {}, gm)),
      expectAnswer(router, command('stats', { scope: 'server' }, gm)),
    ]);
    const t = now();
    const busy = await rallyStream(router, gmWork);
    answered = busy.latencies.length;
    const rallyP99 = pct(busy.latencies, 99);
    const rallyMax = Math.max(...busy.latencies);
    return {
      loopP99: busy.loopP99,
      loopMax: busy.loopMax,
      rallyP99,
      rallyMax,
      idleP99: pct(idle.latencies, 99),
      idleLoopP99: idle.loopP99,
      gmSeconds: (now() - t) / 1000,
      ratio: rallyP99 / pct(idle.latencies, 99),
    };
  });
  ledger.close();
  const p99 = Math.max(med.loopP99, med.rallyP99);
  const max = Math.max(med.loopMax, med.rallyMax);
  lines.push({
    what: `event-loop stall: /rally from 50 other servers while a GM runs /export, /verify, /stats on ${fmt(N.bigRows)} rows`,
    ours: `loop delay p99 ${fmt(med.loopP99, 1)} ms max ${fmt(med.loopMax, 1)} ms; /rally p99 ${fmt(med.rallyP99, 1)} ms max ${fmt(med.rallyMax, 1)} ms`,
    baseline: `/rally p99 ${fmt(med.idleP99, 1)} ms alone (loop p99 ${fmt(med.idleLoopP99, 1)} ms)`,
    ratio: med.ratio,
    spread,
    target: 'p99 ≤ 50 ms, max ≤ 200 ms',
    met: p99 <= 50 && max <= 200,
    detail: `${answered} /rally answered during the GM's ${fmt(med.gmSeconds, 1)} s (the last run)`,
  });
}

/** 9. Peak resident memory while a GM exports every row of the big server, vs the same process idle. */
async function exportMemory() {
  const file = await bigServer();
  let ms = 0;
  const { med, spread } = await repeated(async () => {
    const r = await childFigures<{ idle: number; peak: number; ms: number; rows: number }>(
      ['--expose-gc', '--import', 'tsx', path.join('bench', 'export-rss-child.ts'), file],
      1_800_000,
    );
    if (r.rows !== N.bigRows) throw new Error(`export wrote ${r.rows} rows, expected ${N.bigRows}`);
    ms = r.ms;
    return { peak: r.peak / 2 ** 20, idle: r.idle / 2 ** 20, ratio: r.peak / r.idle };
  });
  lines.push(
    ratioLine(
      `peak resident memory during /export of ${fmt(N.bigRows)} rows`,
      med.ratio,
      spread,
      {
        ours: `${fmt(med.peak, 1)} MiB`,
        baseline: `${fmt(med.idle, 1)} MiB idle, same process`,
        detail: `${fmt(N.bigRows)} rows exported in ${fmt(ms / 1000, 1)} s (the last run)`,
      },
      ['≤', 1.5],
    ),
  );
}

const prefixes = ['', 'u', 'Unit 1', 'unit 42', 'Unit 999', 'UNIT 5'];

/** 10. Unit autocomplete through the router with 10,000 names in the channel, vs its query alone. */
const autocomplete = () =>
  commandLine(
    `unit autocomplete, ${fmt(Math.min(UNITS, N.bigRows / 5))} names in the channel (router in → choices out)`,
    (i) => ({ type: 'autocomplete', name: 'rally', option: 'unit', value: prefixes[i % prefixes.length]!, actor: player }),
    (ledger, i) => ledger.recentUnits(player.guildId, player.channelId, prefixes[i % prefixes.length]!, 25, 'hearts-of-tin'),
    { baseline: 'query alone', type: 'choices' },
  );

/** 11. The dice report (/stats) through the router on the big server, vs the aggregate query inside it. */
const statsReqs = [command('stats', {}, player), command('stats', { scope: 'server', by: 'user' }, gm), command('stats', { by: 'command' }, player)];
const statsFilters = [
  { guildId: player.guildId, channelId: player.channelId },
  { guildId: gm.guildId },
  { guildId: player.guildId, channelId: player.channelId },
];
const statsBy = [undefined, 'user', 'command'] as const;
const statsCommand = () =>
  // A player's channel report, and a GM's whole-server report by player: each query a distinct one, each chart drawn once.
  commandLine(
    `the dice report (/stats, channel and whole server by player), ${fmt(N.bigRows)} rows (router in → reply out)`,
    (i) => statsReqs[i % 3]!,
    (ledger, i) => ledger.tallySums(statsFilters[i % 3]!, statsBy[i % 3]),
    { baseline: 'aggregate query alone' },
  );

/** `--only name[,name…]` runs some lines (pipeline, roundtrip, httproundtrip, history, chain, memory, history-command, stall, export-memory, autocomplete, stats, postgres, verify, beacon, evidence, peer, packs, tournament, beacon-hour, startup) while working on it. */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]?.split(',') : undefined;

async function main() {
  // The lines that run the built code (chain, memory, verify.html) measure what this checkout builds.
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'ignore' });
  const steps: [string, () => unknown][] = [
    ['pipeline', pipeline],
    ['roundtrip', roundTrip],
    ['httproundtrip', async () => lines.push(await httpRoundTripLine(N.roundTrips, dir))],
    ['history', historyPage],
    ['chain', chain],
    ['memory', memory],
    ['history-command', historyCommand],
    ['stall', stall],
    ['export-memory', exportMemory],
    ['autocomplete', autocomplete],
    ['stats', statsCommand],
    ['postgres', async () => lines.push(...(await postgresLines(N, dir)))],
    ['verify', async () => lines.push(...(await verifyLines(await bigServer(), N.bigRows)))],
    ['beacon', async () => lines.push(...(await beaconLines(QUICK)))],
    ['evidence', async () => lines.push(...(await evidenceLines(QUICK, dir)))],
    ['peer', async () => lines.push(...(await peerLines(dir)))],
    ['packs', async () => lines.push(...(await packLines(dir)), ...(await installLines(dir)))],
    ['tournament', async () => lines.push(...(await tournamentLines(QUICK, dir)))],
    ['beacon-hour', async () => lines.push(await beaconHourLine(QUICK, dir))],
    ['startup', async () => lines.push(await startupLine(await bigServer(), N.bigRows))],
  ];
  // A line that fails is a line not met, named with its error; the lines after it still run, and
  // each line is written to stderr as it ends (a full run takes half an hour).
  let failed = 0;
  for (const [name, step] of steps) {
    if (ONLY && !ONLY.includes(name)) continue;
    const before = lines.length;
    try {
      await step();
    } catch (err) {
      failed++;
      const why = ((err as Error).message ?? String(err)).split('\n')[0]!.slice(0, 200);
      lines.push({ what: `${name}: the line failed`, ours: why, baseline: '-', ratio: Number.NaN, spread: '-', target: 'runs to its end', met: false });
    }
    for (const l of lines.slice(before))
      process.stderr.write(`${l.met ? 'met' : 'NOT MET'}: ${l.what}: ${l.ours} (ratio ${l.ratio.toFixed(3)}, ${l.spread})\n`);
  }
  const head = ['what', 'ours', 'baseline', 'ratio', 'spread', 'target', 'met'];
  const rows = lines.map((l) => [l.what, l.ours, l.baseline, l.ratio.toFixed(3), l.spread, l.target, l.met ? 'yes' : 'NO']);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const print = (r: string[]) => process.stdout.write(`${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}\n`);
  print(head);
  print(widths.map((w) => '-'.repeat(w)));
  rows.forEach(print);
  for (const l of lines) if (l.detail) process.stdout.write(`  ${l.what}: ${l.detail}\n`);
  const out = { quick: QUICK, node: process.version, cpus: os.cpus().length, at: new Date().toISOString(), sizes: N, lines };
  fs.mkdirSync('bench', { recursive: true });
  // A partial run (--only) prints but keeps the last full results.
  if (!ONLY) fs.writeFileSync(path.join('bench', QUICK ? 'results-quick.json' : 'results.json'), `${JSON.stringify(out, null, 2)}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  await stopBenchPostgres();
  if (failed) process.exitCode = 1;
}

main().catch(async (err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  await stopBenchPostgres();
  process.exit(1);
});
