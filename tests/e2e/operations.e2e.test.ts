import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/postgres.js';
import { tmpDir } from '../helpers/tmp.js';
import { FakeDiscord, slashCommand } from './fake-discord.js';

// What a self-hoster looks at: the bot as a process (the built runtime, as in
// production), its log of a scripted session, /metrics, /healthz and /readyz over HTTP in both
// modes, and the files it makes owner-only.
const ROOT = path.resolve(__dirname, '../..');
const APP = process.env.MORALE_APP_DIR ? path.resolve(process.env.MORALE_APP_DIR) : ROOT;
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.OPS000.TheOperationsTestTokenMustNeverBeLogged1';
const GUILD = '900000000000000001';
const carol = { id: '300000000000000009', username: 'carol' };
let fake: FakeDiscord;

beforeAll(async () => {
  fake = await new FakeDiscord([GUILD]).start();
});
afterAll(async () => fake?.stop());

type Log = Record<string, any>;
function startBot(env: Record<string, string>, preload: string[] = []): { child: ChildProcess; logs: () => Log[]; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...preload, 'dist/main.js'], {
    cwd: APP,
    env: { ...process.env, DISCORD_TOKEN: TOKEN, DISCORD_API_BASE: fake.apiBase, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const logs = () =>
    stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Log);
  return { child, logs, exited };
}

const line = (logs: Log[], msg: string) => logs.find((l) => l.msg === msg);
const get = async (url: string) => {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
};
/** One sample's value from Prometheus text: `name{labels} value`. */
const sample = (text: string, series: string) => {
  const hit = text.split('\n').find((l) => l.startsWith(`${series} `));
  return hit === undefined ? undefined : Number(hit.slice(series.length + 1));
};
const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe('operations', () => {
  it('gateway mode: one info line per interaction, lifecycle lines, and /metrics, /healthz, /readyz on METRICS_PORT', async () => {
    // A folder the bot creates itself: it must come out owner-only, like every file in it.
    const dataDir = path.join(tmpDir(), 'data');
    const db = path.join(dataDir, 'ledger.db');
    const bot = startBot({ DATABASE_PATH: db, METRICS_PORT: '0', RATE_LIMIT_BURST: '3', RATE_LIMIT_PER_MINUTE: '1' });
    try {
      await expect.poll(() => Boolean(line(bot.logs(), 'connected to Discord')), { timeout: 60_000 }).toBe(true);
      const base = `http://127.0.0.1:${line(bot.logs(), 'serving metrics and health')!.port}`;
      expect(line(bot.logs(), 'gateway connected')).toMatchObject({ level: 'info', shard: 0 });

      // The scripted session: a roll, a refusal, a button that is not ours, one command too many.
      const rally = await fake.send(slashCommand('rally', { disorder: 1, unit: 'Rifles' }, { member: carol }));
      expect(rally.data.embeds[0].title.split(' — ')[0]).toBe('Rally · Rifles');
      await fake.send(slashCommand('rally', { disorder: 0 }, { member: carol }));
      await fake.send(slashCommand('help', {}, { member: carol }));
      const limited = await fake.send(slashCommand('rally', { disorder: 1 }, { member: carol }));
      expect(limited.data.content ?? limited.data.embeds?.[0]?.description).toContain('Slow down');

      await expect.poll(() => bot.logs().filter((l) => l.msg === 'interaction').length, { timeout: 60_000 }).toBe(4);
      const seen = bot.logs().filter((l) => l.msg === 'interaction');
      expect(seen.map((l) => [l.command, l.result])).toEqual([
        ['/rally', 'ok'],
        ['/rally', 'refused'],
        ['/help', 'ok'],
        ['/rally', 'rate_limited'],
      ]);
      for (const l of seen) {
        expect(l).toMatchObject({ level: 'info', guild: GUILD, deferred: false });
        expect(l.id).toMatch(/^\d{17,20}$/);
        expect(l.ms).toBeGreaterThanOrEqual(0);
      }

      const metrics = (await get(`${base}/metrics`)).text;
      expect(sample(metrics, 'morale_commands_total{command="/rally",result="ok"}')).toBe(1);
      expect(sample(metrics, 'morale_commands_total{command="/rally",result="refused"}')).toBe(1);
      expect(sample(metrics, 'morale_commands_total{command="/rally",result="rate_limited"}')).toBe(1);
      expect(sample(metrics, 'morale_commands_total{command="/help",result="ok"}')).toBe(1);
      expect(sample(metrics, 'morale_rate_limited_total')).toBe(1);
      expect(sample(metrics, 'morale_command_seconds_count{command="/rally"}')).toBe(3);
      // The roll's transaction, each claim of an interaction id, and the readiness checks: at least 4.
      expect(sample(metrics, 'morale_ledger_transaction_seconds_count')).toBeGreaterThanOrEqual(4);
      expect(sample(metrics, 'morale_ledger_rows')).toBe(1);
      expect(sample(metrics, 'morale_serving{mode="gateway",shard=""}')).toBe(1);
      expect(sample(metrics, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
      // The young generation's growth was stopped before discord.js loaded (main.ts): 16 MiB when the
      // bot's modules were imported with the entry's, 2 since.
      expect(sample(metrics, 'nodejs_heap_space_size_total_bytes{space="new"}')).toBeLessThanOrEqual(4 * 2 ** 20);

      expect(await get(`${base}/healthz`)).toMatchObject({ status: 200 });
      const ready = await get(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.json()).toEqual({ ready: true, mode: 'gateway', serving: true, writable: true });
      expect((await get(`${base}/nothing`)).status).toBe(404);

      // Another process holds the ledger's write lock: not ready, and it says why.
      const locker = new Database(db);
      locker.exec('BEGIN IMMEDIATE');
      const stuck = await get(`${base}/readyz`);
      locker.exec('ROLLBACK');
      locker.close();
      expect(stuck.status).toBe(503);
      expect(stuck.json()).toMatchObject({ ready: false, serving: true, writable: false });
      expect(stuck.json().reason).toMatch(/^the ledger is not writable: .*database is locked$/);
      expect((await get(`${base}/readyz`)).status).toBe(200);

      // Owner-only: the folder, the ledger, its WAL and shared memory, the heartbeat beside them.
      await expect.poll(() => fs.existsSync(path.join(dataDir, 'health.json')), { timeout: 60_000 }).toBe(true);
      expect(mode(dataDir)).toBe('700');
      for (const f of ['ledger.db', 'ledger.db-wal', 'ledger.db-shm', 'health.json']) expect(mode(path.join(dataDir, f)), f).toBe('600');
      expect(JSON.stringify(bot.logs())).not.toContain(TOKEN);
    } finally {
      bot.child.kill('SIGTERM');
      expect(await bot.exited).toBe(0);
    }
  }, 120_000);

  it('HTTP mode: the three endpoints on their own loopback port, never on the public interactions port unless asked; no pid or address in them', async () => {
    const dataDir = tmpDir();
    const bot = startBot({
      DATABASE_PATH: path.join(dataDir, 'ledger.db'),
      INTERACTIONS_MODE: 'http',
      HTTP_PORT: '0',
      METRICS_PORT: '0',
      DISCORD_PUBLIC_KEY: fake.publicKeyHex,
    });
    try {
      await expect.poll(() => Boolean(line(bot.logs(), 'serving interactions over HTTP')), { timeout: 60_000 }).toBe(true);
      await expect.poll(() => Boolean(line(bot.logs(), 'serving metrics and health')), { timeout: 60_000 }).toBe(true);
      const base = `http://127.0.0.1:${line(bot.logs(), 'serving interactions over HTTP')!.port}`;
      const opsLine = line(bot.logs(), 'serving metrics and health')!;
      expect(opsLine.host).toBe('127.0.0.1');
      const ops = `http://127.0.0.1:${opsLine.port}`;
      const r = await fake.postInteraction(`${base}/interactions`, slashCommand('rally', { disorder: 1, unit: 'Guards' }, { member: carol }));
      expect(r.body.data.embeds[0].title.split(' — ')[0]).toBe('Rally · Guards');
      // The public port answers interactions only.
      for (const p of ['/healthz', '/readyz', '/metrics']) expect((await get(`${base}${p}`)).status, p).toBe(404);
      expect((await get(`${ops}/healthz`)).json()).toEqual({ alive: true });
      expect((await get(`${ops}/readyz`)).json()).toEqual({ ready: true, mode: 'http', serving: true, writable: true });
      const metrics = (await get(`${ops}/metrics`)).text;
      expect(sample(metrics, 'morale_commands_total{command="/rally",result="ok"}')).toBe(1);
      expect(sample(metrics, 'morale_serving{mode="http",shard=""}')).toBe(1);
      expect(metrics).not.toContain('nodejs_version_info');
      await expect.poll(() => fs.existsSync(path.join(dataDir, 'health.json')), { timeout: 60_000 }).toBe(true);
      const beat = JSON.parse(fs.readFileSync(path.join(dataDir, 'health.json'), 'utf8'));
      expect(beat).toMatchObject({ ready: true, mode: 'http', serving: true, writable: true, pid: bot.child.pid });
      expect(line(bot.logs(), 'interaction')).toMatchObject({ command: '/rally', result: 'ok', guild: GUILD });
    } finally {
      bot.child.kill('SIGTERM');
      expect(await bot.exited).toBe(0);
    }
    // Asked for: METRICS_PORT the same as HTTP_PORT serves them beside /interactions.
    const port = await freePort();
    const asked = startBot({
      DATABASE_PATH: path.join(tmpDir(), 'ledger.db'),
      INTERACTIONS_MODE: 'http',
      HTTP_PORT: String(port),
      METRICS_PORT: String(port),
      DISCORD_PUBLIC_KEY: fake.publicKeyHex,
    });
    try {
      await expect.poll(() => Boolean(line(asked.logs(), 'serving interactions over HTTP')), { timeout: 60_000 }).toBe(true);
      expect((await get(`http://127.0.0.1:${port}/readyz`)).json()).toEqual({ ready: true, mode: 'http', serving: true, writable: true });
      expect(line(asked.logs(), 'serving metrics and health')).toBeUndefined();
    } finally {
      asked.child.kill('SIGTERM');
      expect(await asked.exited).toBe(0);
    }
  }, 120_000);

  it.each(['throw', 'reject'])(
    'fail fast (%s): logged once with a reference, the ledger closed, exit 1 for the supervisor',
    async (inject) => {
      const db = path.join(tmpDir(), 'ledger.db');
      const bot = startBot({ DATABASE_PATH: db, INJECT: inject }, ['--import', path.join(ROOT, 'tests/fixtures/inject-failure.mjs')]);
      await expect.poll(() => Boolean(line(bot.logs(), 'connected to Discord')), { timeout: 60_000 }).toBe(true);
      await fake.send(slashCommand('rally', { disorder: 1, unit: 'Rifles' }, { member: carol }));
      bot.child.kill('SIGUSR2');
      expect(await bot.exited).toBe(1);
      const errors = bot.logs().filter((l) => l.level === 'error');
      expect(errors).toHaveLength(1);
      const what = inject === 'throw' ? 'uncaught exception' : 'unhandled rejection';
      expect(errors[0]).toMatchObject({
        msg: `${what}: exiting for the supervisor to restart`,
        err: { message: `an injected ${inject === 'throw' ? 'exception' : 'rejection'}` },
      });
      expect(errors[0]!.ref).toMatch(/^[0-9a-f]{8}$/);
      // Closed, not abandoned: SQLite folds and removes the WAL when the last connection closes.
      expect(fs.existsSync(`${db}-wal`)).toBe(false);
      expect(fs.existsSync(path.join(path.dirname(db), 'health.json'))).toBe(false);
    },
    60_000,
  );
});
