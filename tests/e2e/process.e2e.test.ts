import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { tmpDb } from '../helpers/tmp.js';
import { FakeDiscord, slashCommand } from './fake-discord.js';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.PROC00.TheProcessTestTokenMustNeverBeLogged987';
const GUILD = '900000000000000001';
let fake: FakeDiscord;

beforeAll(async () => {
  fake = await new FakeDiscord([GUILD]).start();
});
afterAll(async () => fake?.stop());

describe('npm start as its own process', () => {
  it('connects, answers with a recorded roll, and shuts down cleanly on SIGTERM', async () => {
    const db = tmpDb();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, DISCORD_TOKEN: TOKEN, DISCORD_API_BASE: fake.apiBase, DATABASE_PATH: db, LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    await expect.poll(() => stderr.includes('connected to Discord'), { timeout: 15_000 }).toBe(true);
    const cb = await fake.send(slashCommand('rally', { disorder: 1, unit: 'Rifles' }, { member: { id: '300000000000000009', username: 'carol' } }));
    expect(cb.data.embeds[0].title).toBe('Rally · Rifles');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('"msg":"shutting down"');
    expect(stdout).toBe('');
    expect(stderr).not.toContain(TOKEN);
    // Every line the bot logged is one JSON object.
    for (const line of stderr.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();

    const ledger = Ledger.open(db);
    expect(ledger.count(GUILD)).toBe(1);
    expect(ledger.verify(GUILD)).toMatchObject({ ok: true, count: 1 });
    ledger.close();
  });
});
