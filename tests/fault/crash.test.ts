import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { FakeDiscord, slashCommand, type Callback } from '../e2e/fake-discord.js';
import { tmpDb } from '../helpers/tmp.js';

const ROOT = path.resolve(__dirname, '../..');
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.CRASH0.RecognisableCrashTestTokenNeverToBeLogged';
const GUILD = '900000000000000001';
const ROUNDS = 10;
const BURST = 25;

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await new FakeDiscord([GUILD]).start();
});
afterAll(async () => fake?.stop());

function startBot(db: string): { child: ChildProcess; ready: Promise<void>; logs: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DISCORD_TOKEN: TOKEN, DISCORD_API_BASE: fake.apiBase, DATABASE_PATH: db, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const ready = new Promise<void>((resolve, reject) => {
    const t = setInterval(() => {
      if (stderr.includes('connected to Discord')) {
        clearInterval(t);
        resolve();
      }
    }, 20);
    child.on('exit', () => {
      clearInterval(t);
      reject(new Error(`bot exited before ready: ${stderr}`));
    });
  });
  return { child, ready, logs: () => stderr };
}

describe('kill -9 in the middle of a burst, ten times', () => {
  it('every reply has its ledger row; the file and the chain hold; no row without an attempted reply but for the kill', async () => {
    const db = tmpDb();
    const answered = new Map<string, string>(); // unit → roll id shown
    const unanswered: string[][] = [];
    let logs = '';
    for (let round = 0; round < ROUNDS; round++) {
      const bot = startBot(db);
      await bot.ready;
      const sends: Promise<Callback | undefined>[] = [];
      const units: string[] = [];
      // Interactions go out 2 ms apart; the kill lands right after the last one is sent, so some
      // are answered, some are mid-way (committed or not), and none is sent to a dying process.
      const killAt = 3 + Math.floor(Math.random() * (BURST - 3));
      for (let i = 0; i <= killAt; i++) {
        const unit = `r${round}-u${i}`;
        units.push(unit);
        // Waits past Discord's 3 seconds: a reply later than that would have been refused anyway.
        const interaction = slashCommand('rally', { disorder: 1, unit }, { member: { id: '300000000000000001', username: 'alice' } });
        sends.push(
          Promise.resolve()
            .then(() => fake.send(interaction, 3_200))
            .catch(() => undefined),
        );
        if (i === killAt) bot.child.kill('SIGKILL');
        else await new Promise((r) => setTimeout(r, 2));
      }
      const results = await Promise.all(sends);
      await new Promise<void>((r) => (bot.child.exitCode !== null || bot.child.signalCode !== null ? r() : bot.child.on('exit', () => r())));
      logs += bot.logs();
      const inFlight: string[] = [];
      results.forEach((cb, i) => {
        const id = cb?.data?.embeds?.[0]?.footer?.text ? /roll (\w+)/.exec(cb.data.embeds[0].footer.text)?.[1] : undefined;
        if (id) answered.set(units[i]!, id);
        // Sent before the kill and never answered: cut off by the kill.
        else inFlight.push(units[i]!);
      });
      unanswered.push(inFlight);
    }

    const raw = new Database(db);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
    const ledger = Ledger.open(db);
    expect(ledger.verify(GUILD).ok).toBe(true);
    // Every reply the fake received has its row, with the same id.
    for (const [unit, id] of answered) expect(ledger.get(GUILD, id)?.unit).toBe(unit);
    // A row whose reply never arrived belongs to an interaction in flight when the bot was killed
    // (committed, its reply on the way): never to one sent after the kill, never a second row.
    const rows = ledger.db.prepare('SELECT unit FROM rolls').all() as { unit: string }[];
    expect(new Set(rows.map((r) => r.unit)).size).toBe(rows.length);
    const orphans = rows.filter((r) => !answered.has(r.unit));
    const cut = new Set(unanswered.flat());
    for (const o of orphans) expect(cut.has(o.unit), `${o.unit} has a row but was not in flight at a kill`).toBe(true);
    expect(answered.size).toBeGreaterThan(0);
    ledger.close();
    expect(logs).not.toContain(TOKEN);
  }, 240_000);
});
