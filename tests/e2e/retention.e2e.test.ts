import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { Events, type Client } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageLinks } from '../../src/core/message-links.js';
import { GuildPresence } from '../../src/core/retention.js';
import { createBot, type Bot } from '../../src/discord/bot.js';
import { watchGuildEvents, watchGuildList } from '../../src/discord/guild-presence.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { tmpDb } from '../helpers/tmp.js';
import { FakeDiscord } from './fake-discord.js';

// Knowing the bot left a server, as each transport learns it: the gateway's events through the real
// discord.js client (and, at ready, the servers the gateway lists), and in HTTP mode Discord's list
// of the bot's servers, a page at a time; then the built bot as a process, sweeping at start.

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.RETAIN.TheRetentionTestTokenMustNeverBeLogged01';
const snowflake = (n: number) => String(930000000000000000n + BigInt(n));
const [A, B, C, D, E] = [1, 2, 3, 4, 5].map(snowflake) as [string, string, string, string, string];
const ROOT = path.resolve(__dirname, '../..');
const APP = process.env.MORALE_APP_DIR ? path.resolve(process.env.MORALE_APP_DIR) : ROOT;

/** A ledger that knows these servers (a setting each: what a GM leaves behind first). */
function ledgerKnowing(guilds: string[], file = tmpDb()): Ledger {
  const ledger = Ledger.open(file);
  for (const g of guilds) ledger.settings.setGmRole(g, '7');
  return ledger;
}

const departed = async (store: LedgerStore) => (await store.retention.departures('', '', 1000)).map((d) => d.guild_id).sort();

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!();
});

describe('gateway mode: guildDelete and guildCreate', () => {
  async function gateway(listed: string[], known: string[], before: (store: LedgerStore) => Promise<void> = async () => undefined) {
    const fake = await new FakeDiscord(listed).start();
    const ledger = ledgerKnowing(known);
    const store = sqliteStore(ledger);
    await before(store);
    const log = createLogger({ level: 'silent' });
    const presence = new GuildPresence(store, log);
    const router = { handle: async () => ({ type: 'error' as const, message: 'not in this test' }) };
    const bot: Bot = createBot({ token: TOKEN, apiBase: fake.apiBase, router, links: new MessageLinks(ledger, log), log, presence });
    await bot.start();
    opened.push(async () => {
      await bot.stop();
      await fake.stop();
      ledger.close();
    });
    return { fake, store };
  }

  it('at ready: a known server the gateway does not list is left, a left one it lists is back; then each removal and return as it happens', async () => {
    const { fake, store } = await gateway([A, B, D, E], [A, B, C, D, E], async (s) => {
      await s.transaction((tx) => tx.retention.markLeft(D, '2026-01-01T00:00:00.000Z'), D);
    });
    await expect.poll(() => departed(store), { timeout: 30_000 }).toEqual([C]);

    fake.removeGuild(A);
    await expect.poll(() => departed(store), { timeout: 30_000 }).toEqual([A, C]);
    // An outage is not a departure: B goes dark, then E is removed; by E's mark, B's event has passed.
    fake.removeGuild(B, { unavailable: true });
    fake.removeGuild(E);
    await expect.poll(() => departed(store), { timeout: 30_000 }).toEqual([A, C, E]);

    fake.addGuild(A);
    await expect.poll(() => departed(store), { timeout: 30_000 }).toEqual([C, E]);
  }, 60_000);

  it('a guildDelete whose server is only unavailable marks nothing (whatever emits it)', async () => {
    const ledger = ledgerKnowing([A]);
    const store = sqliteStore(ledger);
    opened.push(async () => ledger.close());
    const client = Object.assign(new EventEmitter(), { options: { shards: [0], shardCount: 1 }, guilds: { cache: new Map() } });
    const marked: string[] = [];
    const presence = Object.assign(new GuildPresence(store, createLogger({ level: 'silent' })), {
      left: async (g: string) => void marked.push(`left ${g}`),
      back: async (g: string) => {
        marked.push(`back ${g}`);
        return true;
      },
    });
    watchGuildEvents(client as unknown as Client, presence, createLogger({ level: 'silent' }));
    client.emit(Events.GuildDelete, { id: A, available: false });
    client.emit(Events.GuildDelete, { id: B, available: true });
    client.emit(Events.GuildCreate, { id: C, available: true });
    expect(marked).toEqual([`left ${B}`, `back ${C}`]);
  });
});

describe("HTTP mode: Discord's list of the bot's servers", () => {
  async function http(listed: string[], known: string[]) {
    const fake = await new FakeDiscord(listed).start();
    const ledger = ledgerKnowing(known);
    const store = sqliteStore(ledger);
    const logs: string[] = [];
    const log = createLogger({ level: 'debug', write: (l) => logs.push(l), secrets: [TOKEN] });
    const watch = watchGuildList({ token: TOKEN, apiBase: fake.apiBase, presence: new GuildPresence(store, log), log, everyMs: 3_600_000 });
    opened.push(async () => {
      watch.stop();
      await fake.stop();
      ledger.close();
    });
    await watch.first;
    return { fake, store, watch, logs };
  }

  it('reads every page (200 a page), marks the known servers it lacks as left, and clears the ones listed again', async () => {
    // 451 servers in id order (A first): the last, which the ledger knows, is on the third page.
    const many = Array.from({ length: 450 }, (_, i) => snowflake(100 + i));
    const last = many[449]!;
    const { fake, store, watch } = await http([...many, A], [A, C, last]);
    expect(fake.guildListings.map((l) => l.limit)).toEqual(['200', '200', '200']);
    expect(fake.guildListings.map((l) => l.after)).toEqual([null, snowflake(298), snowflake(498)]);
    expect(await departed(store)).toEqual([C]);

    fake.guilds.splice(fake.guilds.indexOf(A), 1);
    await watch.look();
    expect(await departed(store)).toEqual([A, C]);
    fake.guilds.push(A, C);
    await watch.look();
    expect(await departed(store)).toEqual([]);
  });

  it('a list that cannot be read marks nothing, and says so', async () => {
    const { fake, store, watch, logs } = await http([A], [A]);
    fake.guilds.splice(0);
    fake.failGuildListings = 100;
    await watch.look();
    expect(await departed(store)).toEqual([]);
    expect(logs.some((l) => l.includes("could not look at the bot's servers"))).toBe(true);
    expect(logs.join('\n')).not.toContain(TOKEN);
  });
});

describe('the built bot in HTTP mode (npm start)', () => {
  it('sweeps at start (a server gone past RETENTION_DAYS is deleted, one line) and marks the known servers Discord does not list', async () => {
    const fake = await new FakeDiscord([A]).start();
    const db = tmpDb();
    const ledger = ledgerKnowing([A, B, C], db);
    ledger.retention.markLeft(C, '2026-01-01T00:00:00.000Z');
    ledger.close();
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: APP,
      env: {
        ...process.env,
        DISCORD_TOKEN: TOKEN,
        DISCORD_API_BASE: fake.apiBase,
        DATABASE_PATH: db,
        INTERACTIONS_MODE: 'http',
        HTTP_PORT: '0',
        DISCORD_PUBLIC_KEY: fake.publicKeyHex,
        RETENTION_DAYS: '30',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    opened.push(async () => {
      child.kill('SIGTERM');
      await exited;
      await fake.stop();
    });
    const logs = () =>
      stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await expect
      .poll(
        () =>
          logs()
            .filter((l) => String(l.msg).startsWith('the bot left a server'))
            .map((l) => l.guild),
        { timeout: 60_000 },
      )
      .toEqual([B]);
    await expect
      .poll(() => logs().filter((l) => l.msg === 'deleted the data of a server the bot left'), { timeout: 60_000 })
      .toEqual([expect.objectContaining({ guild: C, rows: 1, days: 30 })]);
    const after = Ledger.open(db);
    expect(after.retention.knownGuilds().sort()).toEqual([A, B]);
    expect(after.retention.departures('', '', 10).map((d) => d.guild_id)).toEqual([B]);
    after.close();
  }, 90_000);
});
