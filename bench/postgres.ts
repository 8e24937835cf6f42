import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRouter } from '../src/app.js';
import { Ledger } from '../src/ledger/ledger.js';
import { PgStore } from '../src/ledger/postgres/pg-store.js';
import { silentLogger } from '../src/log.js';
import { freshDatabase, testPostgres } from '../tests/helpers/postgres.js';
import { fmt, type Line, pct, repeated } from './repeat.js';

let used = false;

/** The PostgreSQL server every bench line shares (PG_TEST_URL's, or one started once here); stopBenchPostgres ends it. */
export function benchPostgres() {
  used = true;
  return testPostgres();
}

export async function stopBenchPostgres(): Promise<void> {
  if (used) (await testPostgres())?.stop();
}

/** The PostgreSQL lines: a server from PG_TEST_URL, or one started here; none, and they are skipped. */
export async function postgresLines(sizes: { pgRolls: number; pgLatency: number }, dir: string): Promise<Line[]> {
  const server = await benchPostgres();
  if (!server) {
    process.stdout.write('PostgreSQL is not available here: the PostgreSQL lines are skipped.\n');
    return [];
  }
  return [await inFlight(server, sizes.pgRolls), await latency(server, sizes.pgLatency, dir)];
}

/** CPU seconds (user + system) used so far by every PostgreSQL process on this machine, from /proc. */
export function serverCpuSeconds(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const f = stat.slice(close + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
    } catch {
      // The process ended while it was read.
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** One bot process running `n` rallies, `concurrency` at a time, on 50 guilds: its rate, and the CPU it and the server used per roll. */
async function run(url: string, n: number, concurrency: number) {
  const child = fork(path.join(import.meta.dirname, 'pg-child.ts'), [url, String(n), '0', String(concurrency)], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  await new Promise((r) => child.once('message', r));
  const server = serverCpuSeconds();
  const done = new Promise<{ ms: number; cpuMs: number }>((r) => child.once('message', (m) => r(m as { ms: number; cpuMs: number })));
  child.send('go');
  const { ms, cpuMs } = await done;
  const serverMs = (serverCpuSeconds() - server) * 1000;
  await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(undefined)));
  return { rate: n / (ms / 1000), botMs: cpuMs / n, serverMs: serverMs / n };
}

/**
 * 12. One bot process on PostgreSQL with 8 interactions in flight against one at a time: rolls of
 * different guilds overlap (each guild's lock is its own), so in-flight work adds while neither the
 * bot nor the server is CPU-bound. Two processes on these two cores would measure CPU contention
 * with the server, not scale-out; the CPU each side spends per roll is the figure the scale-out
 * argument in docs/self-hosting.md rests on.
 */
async function inFlight(server: { url: string }, n: number): Promise<Line> {
  const { med, spread } = await repeated(async () => {
    const one = await run(await freshDatabase(server), n, 1);
    const eight = await run(await freshDatabase(server), n, 8);
    return { one: one.rate, eight: eight.rate, botMs: eight.botMs, serverMs: eight.serverMs, ratio: eight.rate / one.rate };
  });
  return {
    what: 'adjudications/s on PostgreSQL, one process, 8 in flight',
    ours: `${fmt(med.eight)}/s`,
    baseline: `${fmt(med.one)}/s one at a time`,
    ratio: med.ratio,
    spread,
    target: '> 1 (guilds overlap)',
    met: med.ratio > 1,
    detail: `${n} rallies on 50 guilds; CPU per roll with 8 in flight: bot ${fmt(med.botMs, 3)} ms, PostgreSQL ${fmt(med.serverMs, 3)} ms (the server runs on this machine too)`,
  };
}

/** The time of each of `n` rolls one after another, router in to reply out. */
async function timeRolls(router: ReturnType<typeof createRouter>, n: number): Promise<number[]> {
  const req = {
    type: 'command' as const,
    name: 'rally',
    options: { disorder: 2, quality: 'militia', unit: 'Bench Battalion' },
    actor: { guildId: 'g1', channelId: 'c1', userId: 'u1', userName: 'bench', isGm: false },
  };
  for (let i = 0; i < 30; i++) await router.handle(req);
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await router.handle(req);
    ms.push(performance.now() - t);
  }
  return ms;
}

/** 13. The time one roll takes, router in to reply out, on PostgreSQL against the SQLite file. */
async function latency(server: { url: string }, n: number, dir: string): Promise<Line> {
  const { med, spread } = await repeated(async (rep) => {
    const sqlite = Ledger.open(path.join(dir, `latency-${rep}.db`));
    const onSqlite = await timeRolls(createRouter({ ledger: sqlite, log: silentLogger }), n);
    sqlite.close();
    const pg = await PgStore.connect(await freshDatabase(server));
    const onPg = await timeRolls(createRouter({ ledger: pg, log: silentLogger }), n);
    await pg.close();
    return { p50: pct(onPg, 50), p99: pct(onPg, 99), sqP50: pct(onSqlite, 50), sqP99: pct(onSqlite, 99), ratio: pct(onPg, 50) / pct(onSqlite, 50) };
  });
  return {
    what: 'one roll on PostgreSQL (router in → reply out)',
    ours: `p50 ${fmt(med.p50, 2)} ms, p99 ${fmt(med.p99, 2)} ms`,
    baseline: `p50 ${fmt(med.sqP50, 2)} ms, p99 ${fmt(med.sqP99, 2)} ms on SQLite`,
    ratio: med.ratio,
    spread,
    target: 'p99 ≤ 20 ms',
    met: med.p99 <= 20,
    detail: `${n} rallies one after another; a PostgreSQL roll is five prepared statements on loopback (BEGIN, the guild's lock, one read, one write, COMMIT)`,
  };
}
