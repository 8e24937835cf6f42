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
/** The last HELD interactions before each kill: their replies reach the fake, which never answers them. */
const HELD = 3;
// The kill points come from this seed (printed), so a failing run can be replayed: CRASH_SEED=… npm test.
const SEED = Number(process.env.CRASH_SEED ?? 20261130);

/** mulberry32: a small seeded PRNG, enough to pick kill points reproducibly. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await new FakeDiscord([GUILD]).start();
});
afterAll(async () => fake?.stop());

function startBot(db: string, lateAfterS = 3600): { child: ChildProcess; ready: Promise<void>; logs: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    // A burst of 25 from one player is the point here, not the rate limit.
    env: {
      ...process.env,
      DISCORD_TOKEN: TOKEN,
      DISCORD_API_BASE: fake.apiBase,
      DATABASE_PATH: db,
      LOG_LEVEL: 'info',
      RATE_LIMIT_BURST: '1000',
      RATE_LIMIT_PER_MINUTE: '100000',
      // The rounds leave the rolls that never reached their channel to the last start.
      LATE_DELIVERY_AFTER_S: String(lateAfterS),
    },
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

describe(`kill -9 in the middle of a burst, ten times (seed ${SEED})`, () => {
  it('every reply has its row; each reply caught mid-flight at the kill has its row; the file and the chain hold; one row per interaction', async () => {
    const random = seeded(SEED);
    const db = tmpDb();
    const answered = new Map<string, string>(); // unit → roll id shown
    const held: string[] = []; // units whose reply the fake received but never answered
    const sent = new Set<string>();
    const killPoints: number[] = [];
    let logs = '';
    for (let round = 0; round < ROUNDS; round++) {
      const bot = startBot(db);
      await bot.ready;
      const sends: Promise<Callback | undefined>[] = [];
      const units: string[] = [];
      const killAt = HELD + Math.floor(random() * (BURST - HELD));
      killPoints.push(killAt);
      const heldIds: string[] = [];
      // Interactions go out 2 ms apart; the last HELD ones have their replies received but never
      // answered, and the kill lands once all of those replies have arrived: those rolls are
      // provably between commit and reply. The earlier ones are answered or cut off as timing falls.
      for (let i = 0; i <= killAt; i++) {
        const unit = `r${round}-u${i}`;
        units.push(unit);
        sent.add(unit);
        const interaction = slashCommand('rally', { disorder: 1, unit }, { member: { id: '300000000000000001', username: 'alice' } });
        if (i > killAt - HELD) {
          fake.holdCallbacks.add(interaction.id);
          heldIds.push(interaction.id);
          held.push(unit);
        }
        // Waits past Discord's 3 seconds: a reply later than that would have been refused anyway.
        sends.push(
          Promise.resolve()
            .then(() => fake.send(interaction, i > killAt - HELD ? 1_000 : 3_200))
            .catch(() => undefined),
        );
        if (i < killAt) await new Promise((r) => setTimeout(r, 2));
      }
      await expect
        .poll(() => heldIds.every((id) => fake.callbackAttempts.has(id)), { timeout: 60_000, message: `round ${round}: the held replies never came` })
        .toBe(true);
      bot.child.kill('SIGKILL');
      const results = await Promise.all(sends);
      await new Promise<void>((r) => (bot.child.exitCode !== null || bot.child.signalCode !== null ? r() : bot.child.on('exit', () => r())));
      logs += bot.logs();
      results.forEach((cb, i) => {
        const id = cb?.data?.embeds?.[0]?.footer?.text ? /roll (\w+)/.exec(cb.data.embeds[0].footer.text)?.[1] : undefined;
        if (id) answered.set(units[i]!, id);
      });
    }

    const where = `seed ${SEED}, kill points ${killPoints.join(',')}`;
    const raw = new Database(db);
    expect(raw.pragma('integrity_check', { simple: true }), where).toBe('ok');
    raw.close();
    const ledger = Ledger.open(db);
    expect(ledger.verify(GUILD).ok, where).toBe(true);
    // Every reply the fake received has its row, with the same id.
    for (const [unit, id] of answered) expect(ledger.get(GUILD, id)?.unit, `${unit} (${where})`).toBe(unit);
    const rows = ledger.db.prepare('SELECT unit FROM rolls').all() as { unit: string }[];
    const byUnit = new Set(rows.map((r) => r.unit));
    // The window between commit and reply: each held reply was on its way when the bot died, so its
    // row was committed first. (A bot that answered before committing loses these rows.)
    expect(held).toHaveLength(ROUNDS * HELD);
    for (const unit of held) {
      expect(answered.has(unit), `${unit} was held, yet answered`).toBe(false);
      expect(byUnit.has(unit), `${unit}: its reply reached Discord but it has no row (${where})`).toBe(true);
    }
    // One row per interaction at most, and only for interactions that were sent.
    expect(byUnit.size, where).toBe(rows.length);
    for (const unit of byUnit) expect(sent.has(unit), unit).toBe(true);
    expect(answered.size).toBeGreaterThan(0);
    ledger.close();

    // No ghost rolls: started again, the bot posts every roll its channel never saw —
    // each held one, and any answered one whose link the kill caught — once, naming its roller.
    const posted = fake.channelMessages.length;
    const last = startBot(db, 0);
    await last.ready;
    const unshown = () => {
      const l = Ledger.open(db);
      const n = (
        l.db.prepare('SELECT COUNT(*) AS n FROM rolls r WHERE NOT EXISTS (SELECT 1 FROM roll_messages m WHERE m.roll_id = r.id)').get() as { n: number }
      ).n;
      l.close();
      return n;
    };
    await expect.poll(unshown, { timeout: 60_000, message: `rolls never shown in their channel (${where})` }).toBe(0);
    const late = fake.channelMessages.slice(posted).map((m) => m.body);
    const lateUnits = late.map((b) => /^Rally · (.+?) — /.exec(b.embeds[0].title)?.[1]);
    for (const unit of held) expect(lateUnits, unit).toContain(unit);
    expect(new Set(lateUnits).size, 'each posted once').toBe(lateUnits.length);
    expect(late[0].content).toMatch(
      /^<@300000000000000001>: your \/rally of <t:\d+:f> was recorded, but the bot stopped before its reply reached this channel\. Here it is\.$/,
    );
    expect(late[0].allowed_mentions).toEqual({ parse: [], users: ['300000000000000001'] });
    last.child.kill('SIGTERM');
    await new Promise<void>((r) => (last.child.exitCode !== null ? r() : last.child.on('exit', () => r())));
    expect(logs + last.logs()).not.toContain(TOKEN);
  }, 240_000);
});
