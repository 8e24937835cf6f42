import { fork } from 'node:child_process';
import path from 'node:path';
import { createRouter } from '../src/app.js';
import { Ledger } from '../src/ledger/ledger.js';
import { PgStore } from '../src/ledger/postgres/pg-store.js';
import { silentLogger } from '../src/log.js';
import { freshDatabase, testPostgres } from '../tests/helpers/postgres.js';

export type PgLine = { what: string; ours: string; baseline: string; ratio: number; target: string; met: boolean; detail?: string };

/** The PostgreSQL lines (issue 16): a server from PG_TEST_URL, or one started here; none, and they are skipped. */
export async function postgresLines(sizes: { pgRolls: number; pgLatency: number }, dir: string): Promise<PgLine[]> {
  const server = await testPostgres();
  if (!server) {
    process.stdout.write('PostgreSQL is not available here: the PostgreSQL lines are skipped.\n');
    return [];
  }
  try {
    return [await processes(server, sizes.pgRolls), await latency(server, sizes.pgLatency, dir)];
  } finally {
    server.stop();
  }
}

/** Runs `count` bot processes at once, each with `n` rallies of its own guilds; the whole run's rate. */
async function rate(url: string, count: number, n: number): Promise<number> {
  const children = Array.from({ length: count }, (_, k) =>
    fork(path.join(import.meta.dirname, 'pg-child.ts'), [url, String(n), String(k * 1000), '8'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' }),
  );
  await Promise.all(children.map((c) => new Promise((r) => c.once('message', r))));
  const started = performance.now();
  const done = children.map((c) => new Promise((r) => c.once('message', r)));
  for (const c of children) c.send('go');
  await Promise.all(done);
  const ms = performance.now() - started;
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode === null ? c.once('exit', r) : r(undefined)))));
  return (count * n) / (ms / 1000);
}

/** 10. Adjudications per second on one PostgreSQL ledger: two bot processes against one. */
async function processes(server: { url: string }, n: number): Promise<PgLine> {
  const one = await rate(await freshDatabase(server), 1, n);
  const two = await rate(await freshDatabase(server), 2, n);
  return {
    what: 'adjudications/s on PostgreSQL, 2 processes',
    ours: `${Math.round(two)}/s`,
    baseline: `${Math.round(one)}/s with 1 process`,
    ratio: two / one,
    target: '> 1 (a second process adds)',
    met: two / one > 1,
    detail: `each process runs ${n} rallies, 8 at a time, on 50 guilds of its own; the server runs on this machine too`,
  };
}

/** 11. The time one roll takes, router in to reply out, on PostgreSQL against the SQLite file. */
async function latency(server: { url: string }, n: number, dir: string): Promise<PgLine> {
  const time = async (router: ReturnType<typeof createRouter>) => {
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
    ms.sort((a, b) => a - b);
    return { p50: ms[Math.floor(n / 2)]!, p99: ms[Math.min(n - 1, Math.floor(n * 0.99))]! };
  };
  const sqlite = Ledger.open(path.join(dir, 'latency.db'));
  const onSqlite = await time(createRouter({ ledger: sqlite, log: silentLogger }));
  sqlite.close();
  const pg = await PgStore.connect(await freshDatabase(server));
  const onPg = await time(createRouter({ ledger: pg, log: silentLogger }));
  await pg.close();
  return {
    what: 'one roll on PostgreSQL (router in → reply out)',
    ours: `p50 ${onPg.p50.toFixed(2)} ms, p99 ${onPg.p99.toFixed(2)} ms`,
    baseline: `p50 ${onSqlite.p50.toFixed(2)} ms, p99 ${onSqlite.p99.toFixed(2)} ms on SQLite`,
    ratio: onPg.p50 / onSqlite.p50,
    target: 'p99 ≤ 20 ms',
    met: onPg.p99 <= 20,
    detail: `${n} rallies one after another; a PostgreSQL roll is a few round trips on loopback (lock, head, insert, head update, commit)`,
  };
}
