import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { tmpDb, tmpDir } from '../helpers/tmp.js';
import { FakeDiscord, slashCommand } from './fake-discord.js';

// The bot as a process manager runs it: `npm start` (node dist/main.js, built by `npm run build`).
// MORALE_APP_DIR points at a production install (`npm ci --omit=dev` in a clean copy, as .ci/run
// makes one); without it the test builds and runs this checkout.
const ROOT = path.resolve(__dirname, '../..');
const APP = process.env.MORALE_APP_DIR ? path.resolve(process.env.MORALE_APP_DIR) : ROOT;
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.PROC00.TheProcessTestTokenMustNeverBeLogged987';
const GUILD = '900000000000000001';
let fake: FakeDiscord;

beforeAll(async () => {
  // The built runtime is what runs in production: build it from these sources.
  if (APP === ROOT) execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
  fake = await new FakeDiscord([GUILD]).start();
}, 120_000);
afterAll(async () => fake?.stop());

const envFor = (db: string) => ({ ...process.env, DISCORD_TOKEN: TOKEN, DISCORD_API_BASE: fake.apiBase, DATABASE_PATH: db, LOG_LEVEL: 'debug' });

function start(command: string, args: string[], db: string): { child: ChildProcess; out: { stderr: string; stdout: string }; exited: Promise<number | null> } {
  const child = spawn(command, args, { cwd: APP, env: envFor(db), stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stderr: '', stdout: '' };
  child.stderr!.on('data', (d) => (out.stderr += d));
  child.stdout!.on('data', (d) => (out.stdout += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { child, out, exited };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms))]);

describe('the bot as its own process (issue 15)', () => {
  it('npm start: connects, answers, is healthy, backs up online, and stops on SIGTERM sent to npm itself', async () => {
    const db = tmpDb();
    const { child, out, exited } = start('npm', ['start'], db);
    await expect.poll(() => out.stderr.includes('connected to Discord'), { timeout: 20_000 }).toBe(true);
    const cb = await fake.send(slashCommand('rally', { disorder: 1, unit: 'Rifles' }, { member: { id: '300000000000000009', username: 'carol' } }));
    expect(cb.data.embeds[0].title).toBe('Rally · Rifles');

    // Health: the heartbeat says connected and writable.
    await expect
      .poll(() => spawnSync('npm', ['run', '--silent', 'health'], { cwd: APP, env: envFor(db), encoding: 'utf8' }).status, { timeout: 15_000 })
      .toBe(0);
    // An online backup while the bot runs holds the row.
    const backup = path.join(tmpDir(), 'backup.db');
    const b = spawnSync('npm', ['run', '--silent', 'backup', '--', backup], { cwd: APP, env: envFor(db), encoding: 'utf8' });
    expect(b.status, b.stderr).toBe(0);
    const copy = Ledger.open(backup);
    expect(copy.verify(GUILD)).toMatchObject({ ok: true, count: 1 });
    copy.close();

    // A process manager signals the process it started: here, npm. The signal must reach node, which stops.
    const pid = Number(/"msg":"starting","pid":(\d+)/.exec(out.stderr)![1]);
    child.kill('SIGTERM');
    expect(await within(exited, 15_000)).not.toBe('timeout');
    await expect.poll(() => out.stderr.includes('"msg":"shutting down"'), { timeout: 5_000 }).toBe(true);
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
    // The bot logs to stderr only; npm's own `> start` banner is all stdout holds.
    expect(out.stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('> '))).toEqual([]);
    expect(out.stderr).not.toContain(TOKEN);
    for (const line of out.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{')))
      expect(() => JSON.parse(line)).not.toThrow();
    // Stopped: no heartbeat, so unhealthy.
    expect(spawnSync('npm', ['run', '--silent', 'health'], { cwd: APP, env: envFor(db), encoding: 'utf8' }).status).toBe(1);

    const ledger = Ledger.open(db);
    expect(ledger.count(GUILD)).toBe(1);
    expect(ledger.verify(GUILD)).toMatchObject({ ok: true, count: 1 });
    ledger.close();
  }, 90_000);

  it('when whatever reads its stderr goes away, the bot does not spin: SIGTERM still stops it at once', async () => {
    const db = tmpDb();
    const { child, out, exited } = start(process.execPath, ['dist/main.js'], db);
    await expect.poll(() => out.stderr.includes('connected to Discord'), { timeout: 20_000 }).toBe(true);
    // The reader goes away; the shutdown's own log line then meets a broken pipe (EPIPE).
    child.stderr!.destroy();
    child.stdout!.destroy();
    child.kill('SIGTERM');
    // Exit code 0 within the time: the spinning bot ignored SIGTERM (and the forced exit is code 1).
    expect(await within(exited, 10_000)).toBe(0);
    expect(fs.existsSync(`${db}.health.json`)).toBe(false);
  }, 60_000);

  it('the built console and verifier run without dev tools', () => {
    const db = tmpDb();
    const r = spawnSync(process.execPath, ['dist/src/console/main.js', '--json', '--db', db], {
      cwd: APP,
      input: '/rally disorder:1 unit:Rifles\n',
      encoding: 'utf8',
      env: { ...process.env, DISCORD_TOKEN: '' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ ok: true, command: 'rally', system: 'hearts-of-tin' });
    // The verifier a GM runs on an export: the shipped sample (14 rows, games and sealed rolls).
    const exported = path.join(ROOT, 'tests/fixtures/sample-export.jsonl');
    const v = spawnSync(process.execPath, ['dist/src/verify/main.js', exported], { cwd: APP, encoding: 'utf8' });
    expect(v.status, v.stderr + v.stdout).toBe(0);
    expect(v.stdout).toContain('verified: all holds');
  });
});
