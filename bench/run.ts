import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Events, GatewayIntentBits, MessageFlags } from 'discord.js';
import { createRouter } from '../src/app.js';
import type { Request } from '../src/core/router.js';
import { command, expectAnswer, fillBigServer, gm, openRouter, player, rallyStream, UNITS, UNLIMITED } from './big-server.js';
import { MessageLinks } from '../src/core/message-links.js';
import { createBot } from '../src/discord/bot.js';
import { GENESIS_HASH, storedCanonical } from '../src/ledger/chain.js';
import { Ledger } from '../src/ledger/ledger.js';
import { silentLogger } from '../src/log.js';
import { FakeDiscord, slashCommand } from '../tests/e2e/fake-discord.js';
import { postgresLines } from './postgres.js';
import { verifyPageLine } from './verify-page.js';

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
const actor = { guildId: '900000000000000001', channelId: '900000000000001001', userId: '300000000000000001', userName: 'bench', isGm: false };

type Line = { what: string; ours: string; baseline: string; ratio: number; target: string; met: boolean; detail?: string };
const lines: Line[] = [];
const now = () => performance.now();
const fmt = (n: number, digits = 0) => n.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** 1. Adjudications per second through the whole pipeline vs raw inserts of rows of the same size. */
async function pipeline() {
  const ledger = Ledger.open(path.join(dir, 'pipeline.db'));
  const router = createRouter({ ledger, log: silentLogger });
  const req = { type: 'command' as const, name: 'rally', options: { disorder: 2, quality: 'militia', unit: 'Bench Battalion' }, actor };
  for (let i = 0; i < 50; i++) await router.handle(req);
  let t = now();
  for (let i = 0; i < N.pipeline; i++) {
    const r = await router.handle(req);
    if (r.type !== 'message') throw new Error(`pipeline failed: ${JSON.stringify(r)}`);
  }
  const ours = N.pipeline / ((now() - t) / 1000);
  const sample = ledger.db.prepare('SELECT * FROM rolls ORDER BY seq DESC LIMIT 1').get() as Record<string, unknown>;
  ledger.close();

  // The baseline writes the same finished row into the same table (same schema, indexes and
  // pragmas), one transaction each: what storage alone costs, without parsing, rules or hashing.
  const raw = Ledger.open(path.join(dir, 'raw.db'));
  const { seq: _seq, ...row } = sample;
  const columns = Object.keys(row);
  const insert = raw.db.prepare(`INSERT INTO rolls (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  const one = raw.db.transaction((i: number) => insert.run({ ...row, id: `r${i}`, guild_seq: i + 1 }));
  t = now();
  for (let i = 0; i < N.pipeline; i++) one.immediate(i);
  const base = N.pipeline / ((now() - t) / 1000);
  raw.close();
  const payload = JSON.stringify(sample);
  lines.push({
    what: 'adjudications/s (parse → rules → ledger → render)',
    ours: `${fmt(ours)}/s`,
    baseline: `${fmt(base)}/s raw row inserts`,
    ratio: ours / base,
    target: '≥ 0.8',
    met: ours / base >= 0.8,
    detail: `${payload.length} bytes a row`,
  });
}

/** 2. A slash command round trip through the real client and the fake, vs a bare handler. */
async function roundTrip() {
  const time = async (fake: FakeDiscord) => {
    const send = () => fake.send(slashCommand('rally', { disorder: 2 }, { member: { id: actor.userId, username: 'bench' } }));
    for (let i = 0; i < 20; i++) await send();
    const t = now();
    for (let i = 0; i < N.roundTrips; i++) await send();
    return (now() - t) / N.roundTrips;
  };
  let fake = await new FakeDiscord().start();
  const ledger = Ledger.open(path.join(dir, 'roundtrip.db'));
  const bot = createBot({
    token: TOKEN,
    apiBase: fake.apiBase,
    router: createRouter({ ledger, log: silentLogger }),
    links: new MessageLinks(ledger, silentLogger),
    log: silentLogger,
  });
  await bot.start();
  const ours = await time(fake);
  await bot.stop();
  ledger.close();
  await fake.stop();

  fake = await new FakeDiscord().start();
  const bare = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiBase } });
  const embed = { title: 'Rally', description: 'fixed', color: 0x2e9d57 };
  bare.on(Events.InteractionCreate, (i) => {
    if (i.isChatInputCommand()) void i.reply({ embeds: [embed], withResponse: true, flags: i.options.data.length ? undefined : MessageFlags.Ephemeral });
  });
  const ready = new Promise<void>((r) => bare.once(Events.ClientReady, () => r()));
  await bare.login(TOKEN);
  await ready;
  const base = await time(fake);
  await bare.destroy();
  await fake.stop();
  lines.push({
    what: 'slash command round trip (real discord.js ↔ fake)',
    ours: `${fmt(ours, 3)} ms`,
    baseline: `${fmt(base, 3)} ms bare handler`,
    ratio: ours / base,
    target: '≤ 1.2',
    met: ours / base <= 1.2,
  });
}

/** 3. A /history page on a large ledger: p50 and p99 with its index, vs a full scan. */
function historyPage() {
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
  const timed = (f: (u: number) => void) => {
    const xs: number[] = [];
    for (let q = 0; q < N.historyQueries; q++) {
      const t = now();
      f(q % 100);
      xs.push(now() - t);
    }
    return xs;
  };
  const ours = timed((u) => ledger.history.page(filter(u), 10, 0));
  const scan = db.prepare(
    `SELECT * FROM rolls NOT INDEXED WHERE guild_id = 'g1' AND channel_id = ? AND user_id = ? AND kind IN ('roll','reroll','check') ORDER BY seq DESC LIMIT 10`,
  );
  const count = db.prepare(
    `SELECT COUNT(*) FROM rolls NOT INDEXED WHERE guild_id = 'g1' AND channel_id = ? AND user_id = ? AND kind IN ('roll','reroll','check')`,
  );
  const baseN = Math.max(10, Math.floor(N.historyQueries / 20));
  const base = timed((u) => {
    scan.all(`c${u % 5}`, `u${u}`);
    count.get(`c${u % 5}`, `u${u}`);
  }).slice(0, baseN);
  ledger.close();
  const p99 = pct(ours, 99);
  const usesIndex = plan.some((d) => /USING (COVERING )?INDEX/.test(d));
  lines.push({
    what: `/history page on ${fmt(N.historyRows)} rows (user filter, newest first)`,
    ours: `p50 ${fmt(pct(ours, 50), 3)} ms, p99 ${fmt(p99, 3)} ms`,
    baseline: `p50 ${fmt(pct(base, 50), 1)} ms full scan`,
    ratio: pct(ours, 50) / pct(base, 50),
    target: 'p99 ≤ 5 ms, index used',
    met: p99 <= 5 && usesIndex,
    detail: `plan: ${plan.join('; ')}`,
  });
}

/** 4. Chain verification rows per second vs raw SHA-256 over the same bytes. */
function chain() {
  const ledger = Ledger.open(path.join(dir, 'chain.db'));
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
  let t = now();
  const report = ledger.verify('g1');
  const ours = N.chainRows / ((now() - t) / 1000);
  if (!report.ok) throw new Error('chain did not verify');
  // The same bytes, prepared in advance, through SHA-256 alone.
  const rows = ledger.db.prepare('SELECT * FROM rolls ORDER BY guild_seq').all() as Record<string, unknown>[];
  const bytes = rows.map((r) => ({ prev: String(r.prev_hash), canonical: storedCanonical(r) }));
  t = now();
  for (const b of bytes) createHash('sha256').update(b.prev).update(b.canonical).digest('hex');
  const base = N.chainRows / ((now() - t) / 1000);
  ledger.close();
  lines.push({
    what: 'chain verification rows/s',
    ours: `${fmt(ours)}/s`,
    baseline: `${fmt(base)}/s raw SHA-256`,
    ratio: ours / base,
    target: '≥ 0.5',
    met: ours / base >= 0.5,
  });
}

/** 5. Resident memory of the ready bot with many guilds vs a bare client with the same intents. */
async function memory() {
  const guilds = Array.from({ length: N.guilds }, (_, i) => String(900000000000000001n + BigInt(i) * 7n));
  const measure = async (mode: 'bot' | 'bare') => {
    const fake = await new FakeDiscord(guilds).start();
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', path.join('bench', 'rss-child.ts'), mode, fake.apiBase, TOKEN, path.join(dir, `rss-${mode}.db`)],
        { encoding: 'utf8', timeout: 120_000 },
      );
      return (JSON.parse(stdout.trim().split('\n').at(-1)!) as { rss: number }).rss / 2 ** 20;
    } finally {
      await fake.stop();
    }
  };
  const base = await measure('bare');
  const ours = await measure('bot');
  lines.push({
    what: `resident memory, ready, ${N.guilds} guilds`,
    ours: `${fmt(ours, 1)} MiB`,
    baseline: `${fmt(base, 1)} MiB bare client`,
    ratio: ours / base,
    target: '≤ 1.3',
    met: ours / base <= 1.3,
  });
}

/** Issue 14's big server, filled once for lines 6–9. */
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

/** 6. The whole /history command as a player runs it, vs the page query inside it. */
async function historyCommand() {
  const { ledger, router } = openRouter(await bigServer());
  const req = command('history', {}, player);
  await timedAsync(20, () => expectAnswer(router, req));
  const ours = await timedAsync(N.historyQueries, () => expectAnswer(router, req));
  const filter = { guildId: player.guildId, channelId: player.channelId };
  const inner = await timedAsync(N.historyQueries, () => ledger.history.page(filter, 10, 0));
  ledger.close();
  const p99 = pct(ours, 99);
  lines.push({
    what: `whole /history command, ${fmt(N.bigRows)} rows in one server (router in → reply out)`,
    ours: `p50 ${fmt(pct(ours, 50), 3)} ms, p99 ${fmt(p99, 3)} ms`,
    baseline: `p50 ${fmt(pct(inner, 50), 3)} ms page query alone`,
    ratio: pct(ours, 50) / pct(inner, 50),
    target: 'p99 ≤ 5 ms',
    met: p99 <= 5,
  });
}

/** 7. The event loop while a GM runs /export, /verify and /stats on the big server, seen by /rally from other servers. */
async function stall() {
  const { ledger, router } = openRouter(await bigServer());
  // Baseline: the same stream with nothing else running, for about as long.
  const idle = await rallyStream(router, new Promise((r) => setTimeout(r, QUICK ? 500 : 3_000)));
  const t = now();
  const gmWork = Promise.all([
    expectAnswer(router, command('export', {}, gm, UNLIMITED)),
    expectAnswer(router, command('verify', {}, gm)),
    expectAnswer(router, command('stats', { scope: 'server' }, gm)),
  ]);
  const busy = await rallyStream(router, gmWork);
  const gmSeconds = (now() - t) / 1000;
  ledger.close();
  const p99 = Math.max(busy.loopP99, pct(busy.latencies, 99));
  const max = Math.max(busy.loopMax, Math.max(...busy.latencies));
  lines.push({
    what: `event-loop stall: /rally from 50 other servers while a GM runs /export, /verify, /stats on ${fmt(N.bigRows)} rows`,
    ours: `loop delay p99 ${fmt(busy.loopP99, 1)} ms max ${fmt(busy.loopMax, 1)} ms; /rally p99 ${fmt(pct(busy.latencies, 99), 1)} ms max ${fmt(Math.max(...busy.latencies), 1)} ms`,
    baseline: `/rally p99 ${fmt(pct(idle.latencies, 99), 1)} ms alone (loop p99 ${fmt(idle.loopP99, 1)} ms)`,
    ratio: pct(busy.latencies, 99) / pct(idle.latencies, 99),
    target: 'p99 ≤ 50 ms, max ≤ 200 ms',
    met: p99 <= 50 && max <= 200,
    detail: `${busy.latencies.length} /rally answered during the GM's ${fmt(gmSeconds, 1)} s`,
  });
}

/** 8. Peak resident memory while a GM exports every row of the big server, vs the same process idle. */
async function exportMemory() {
  const file = await bigServer();
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', path.join('bench', 'export-rss-child.ts'), file], {
    encoding: 'utf8',
    timeout: 1_800_000,
  });
  const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as { idle: number; peak: number; ms: number; rows: number };
  if (r.rows !== N.bigRows) throw new Error(`export wrote ${r.rows} rows, expected ${N.bigRows}`);
  lines.push({
    what: `peak resident memory during /export of ${fmt(N.bigRows)} rows`,
    ours: `${fmt(r.peak / 2 ** 20, 1)} MiB`,
    baseline: `${fmt(r.idle / 2 ** 20, 1)} MiB idle, same process`,
    ratio: r.peak / r.idle,
    target: '≤ 1.5',
    met: r.peak / r.idle <= 1.5,
    detail: `${fmt(r.rows)} rows exported in ${fmt(r.ms / 1000, 1)} s`,
  });
}

/** 9. Unit autocomplete through the router with 10,000 names in the channel, vs its query alone. */
async function autocomplete() {
  const { ledger, router } = openRouter(await bigServer());
  const prefixes = ['', 'u', 'Unit 1', 'unit 42', 'Unit 999', 'UNIT 5'];
  const req = (i: number): Request => ({ type: 'autocomplete', name: 'rally', option: 'unit', value: prefixes[i % prefixes.length]!, actor: player });
  await timedAsync(20, (i) => expectAnswer(router, req(i), 'choices'));
  const ours = await timedAsync(N.historyQueries, (i) => expectAnswer(router, req(i), 'choices'));
  const inner = await timedAsync(N.historyQueries, (i) =>
    ledger.recentUnits(player.guildId, player.channelId, prefixes[i % prefixes.length]!, 25, 'hearts-of-tin'),
  );
  ledger.close();
  const p99 = pct(ours, 99);
  lines.push({
    what: `unit autocomplete, ${fmt(Math.min(UNITS, N.bigRows / 5))} names in the channel (router in → choices out)`,
    ours: `p50 ${fmt(pct(ours, 50), 3)} ms, p99 ${fmt(p99, 3)} ms`,
    baseline: `p50 ${fmt(pct(inner, 50), 3)} ms query alone`,
    ratio: pct(ours, 50) / pct(inner, 50),
    target: 'p99 ≤ 5 ms',
    met: p99 <= 5,
  });
}

/** 10. The dice report (/stats) through the router on the big server, vs the aggregate query inside it (issue 26). */
async function statsCommand() {
  const { ledger, router } = openRouter(await bigServer());
  // A player's channel report, and a GM's whole-server report by player: each query a distinct one, each chart drawn once.
  const reqs = [command('stats', {}, player), command('stats', { scope: 'server', by: 'user' }, gm), command('stats', { by: 'command' }, player)];
  await timedAsync(20, (i) => expectAnswer(router, reqs[i % reqs.length]!));
  const ours = await timedAsync(N.historyQueries, (i) => expectAnswer(router, reqs[i % reqs.length]!));
  const filters = [{ guildId: player.guildId, channelId: player.channelId }, { guildId: gm.guildId }, { guildId: player.guildId, channelId: player.channelId }];
  const by = [undefined, 'user', 'command'] as const;
  const inner = await timedAsync(N.historyQueries, (i) => ledger.tallySums(filters[i % 3]!, by[i % 3]));
  ledger.close();
  const p99 = pct(ours, 99);
  lines.push({
    what: `the dice report (/stats, channel and whole server by player), ${fmt(N.bigRows)} rows (router in → reply out)`,
    ours: `p50 ${fmt(pct(ours, 50), 3)} ms, p99 ${fmt(p99, 3)} ms`,
    baseline: `p50 ${fmt(pct(inner, 50), 3)} ms aggregate query alone`,
    ratio: pct(ours, 50) / pct(inner, 50),
    target: 'p99 ≤ 5 ms',
    met: p99 <= 5,
  });
}

/** `--only name[,name…]` runs some lines (pipeline, roundtrip, history, chain, memory, history-command, stall, export-memory, autocomplete, stats, postgres, verify-page) while working on it. */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]?.split(',') : undefined;

async function main() {
  const steps: [string, () => unknown][] = [
    ['pipeline', pipeline],
    ['roundtrip', roundTrip],
    ['history', historyPage],
    ['chain', chain],
    ['memory', memory],
    ['history-command', historyCommand],
    ['stall', stall],
    ['export-memory', exportMemory],
    ['autocomplete', autocomplete],
    ['stats', statsCommand],
    ['postgres', async () => lines.push(...(await postgresLines(N, dir)))],
    ['verify-page', async () => lines.push(...(await verifyPageLine(await bigServer(), N.bigRows)))],
  ];
  for (const [name, step] of steps) if (!ONLY || ONLY.includes(name)) await step();
  const head = ['what', 'ours', 'baseline', 'ratio', 'target', 'met'];
  const rows = lines.map((l) => [l.what, l.ours, l.baseline, l.ratio.toFixed(3), l.target, l.met ? 'yes' : 'NO']);
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
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});
