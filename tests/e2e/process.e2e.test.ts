import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { tmpDb, tmpDir } from '../helpers/tmp.js';
import { FakeDiscord, slashCommand } from './fake-discord.js';

// The bot as a process manager runs it: `npm start` (node dist/main.js, built by `npm run build`).
const ROOT = path.resolve(__dirname, '../..');
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.PROC00.TheProcessTestTokenMustNeverBeLogged987';
const GUILD = '900000000000000001';
let fake: FakeDiscord;

beforeAll(async () => {
  // The built runtime is what runs in production: build it from these sources.
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
  fake = await new FakeDiscord([GUILD]).start();
}, 120_000);
afterAll(async () => fake?.stop());

const envFor = (db: string) => ({ ...process.env, DISCORD_TOKEN: TOKEN, DISCORD_API_BASE: fake.apiBase, DATABASE_PATH: db, LOG_LEVEL: 'debug' });

function start(command: string, args: string[], db: string): { child: ChildProcess; out: { stderr: string; stdout: string }; exited: Promise<number | null> } {
  const child = spawn(command, args, { cwd: ROOT, env: envFor(db), stdio: ['ignore', 'pipe', 'pipe'] });
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
      .poll(() => spawnSync('npm', ['run', '--silent', 'health'], { cwd: ROOT, env: envFor(db), encoding: 'utf8' }).status, { timeout: 15_000 })
      .toBe(0);
    // An online backup while the bot runs holds the row.
    const backup = path.join(tmpDir(), 'backup.db');
    const b = spawnSync('npm', ['run', '--silent', 'backup', '--', backup], { cwd: ROOT, env: envFor(db), encoding: 'utf8' });
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
    expect(out.stdout).toBe('');
    expect(out.stderr).not.toContain(TOKEN);
    for (const line of out.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{')))
      expect(() => JSON.parse(line)).not.toThrow();
    // Stopped: no heartbeat, so unhealthy.
    expect(spawnSync('npm', ['run', '--silent', 'health'], { cwd: ROOT, env: envFor(db), encoding: 'utf8' }).status).toBe(1);

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
    const cpuBefore = process.cpuUsage();
    child.kill('SIGTERM');
    expect(await within(exited, 10_000)).toBe(0);
    expect(process.cpuUsage(cpuBefore).user).toBeLessThan(5_000_000);
    expect(fs.existsSync(`${db}.health.json`)).toBe(false);
  }, 60_000);
});
