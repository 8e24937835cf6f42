import { createRouter } from './app.js';
import { RateLimiter } from './core/rate-limit.js';
import { loadConfigOrExit } from './config.js';
import { MessageLinks } from './core/message-links.js';
import { createBot } from './discord/bot.js';
import { createHttpBot } from './discord/http-bot.js';
import { shardCount, startShards } from './discord/shards.js';
import { publicKeyFromHex } from './discord/signature.js';
import { Ledger } from './ledger/ledger.js';
import { PgStore } from './ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from './ledger/store.js';
import { createLogger } from './log.js';
import { healthFileFor, startHeartbeat } from './ops/heartbeat.js';

const config = loadConfigOrExit(['token']);

// If whoever reads our output goes away, writes fail with EPIPE: drop them, never retry or rethrow
// (logging that failure to the same broken stream would spin forever and starve SIGTERM).
let outputGone = false;
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', () => {
    outputGone = true;
  });
}
const write = (line: string) => {
  if (outputGone) return;
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    outputGone = true;
  }
};
// The database URL may carry a password: it is a secret too, whole and on its own.
const dbPassword = config.databaseUrl ? decodeURIComponent(new URL(config.databaseUrl).password) || undefined : undefined;
const log = createLogger({ level: config.logLevel, secrets: [config.discordToken, config.databaseUrl, dbPassword], write });

// A stray rejection inside a library must not take every other table's game down with it.
process.on('uncaughtException', (err) => {
  if ((err as NodeJS.ErrnoException).code === 'EPIPE') outputGone = true;
  else log.error('uncaught exception', { err });
});
process.on('unhandledRejection', (err) => log.error('unhandled rejection', { err }));

// discord.js reads SHARDS itself (as JSON) when a Client is made: outside a shard process the
// variable is our setting, already read, and must not reach it ("SHARDS=" in .env would crash it).
if (!process.env.SHARDING_MANAGER) delete process.env.SHARDS;

// SHARDS in gateway mode: this process runs the shards (each this same entry point, told its shard
// by discord.js's SHARDING_MANAGER variables) and holds no ledger or connection itself.
if (config.shards !== undefined && config.interactionsMode === 'gateway' && !process.env.SHARDING_MANAGER) void runShards();
else
  void runBot().catch((err) => {
    log.error('could not open the ledger', { err });
    process.exit(1);
  });

/**
 * Stops once on SIGINT or SIGTERM (and, with `watchParent`, when orphaned); whatever happens while
 * closing, the process ends within `graceMs`: a hung close must not keep a stopped bot alive.
 */
function stopOnSignals(stop: () => Promise<void>, graceMs: number, watchParent = false) {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    setTimeout(() => process.exit(0), graceMs).unref();
    try {
      await stop();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Under a wrapper (npm start, npx) a process manager signals the wrapper, which may exit without
  // passing SIGTERM on: when our parent goes, we are orphaned (a new parent) and stop as if signalled.
  const parent = process.ppid;
  if (watchParent && parent > 1) {
    setInterval(() => {
      if (process.ppid !== parent) void shutdown('parent exited');
    }, 500).unref();
  }
}

async function runShards() {
  try {
    const count = await shardCount(config.shards!, config.discordToken!, config.apiBase);
    log.info('starting shards', { pid: process.pid, shards: count });
    const shards = await startShards({
      file: process.argv[1]!,
      token: config.discordToken!,
      count,
      log,
      ...(config.shardSpawnDelayMs !== undefined ? { spawnDelayMs: config.shardSpawnDelayMs } : {}),
    });
    log.info('all shards connected', { shards: count });
    stopOnSignals(() => shards.stop(), 15_000);
  } catch (err) {
    log.error('could not start the shards', { err });
    process.exit(1);
  }
}

async function runBot() {
  // PostgreSQL when DATABASE_URL is set (shared by every process); otherwise the SQLite file.
  const ledger: LedgerStore = config.databaseUrl ? await PgStore.connect(config.databaseUrl) : sqliteStore(Ledger.open(config.databasePath));
  const links = new MessageLinks(ledger, log);
  const botOptions = {
    token: config.discordToken!,
    apiBase: config.apiBase,
    router: createRouter({ ledger, log, limiter: new RateLimiter(config.rateLimit) }),
    links,
    log,
  };
  const bot =
    config.interactionsMode === 'http'
      ? createHttpBot({ ...botOptions, publicKey: publicKeyFromHex(config.publicKey!), port: config.httpPort })
      : createBot(botOptions);
  const heartbeat = startHeartbeat(healthFileFor(config.databasePath, process.env.HEALTH_FILE, process.env.SHARDS), ledger, () => bot.ready());

  stopOnSignals(
    async () => {
      try {
        heartbeat.stop();
        await bot.stop();
      } finally {
        await ledger.close();
      }
    },
    10_000,
    true,
  );

  log.info('starting', {
    pid: process.pid,
    database: config.databaseUrl ? 'postgres' : config.databasePath,
    api: config.apiBase ?? 'discord.com',
    mode: config.interactionsMode,
  });
  bot
    .start()
    .then(() => heartbeat.beat())
    .catch(async (err) => {
      log.error('could not connect to Discord', { err });
      heartbeat.stop();
      await ledger.close();
      process.exit(1);
    });
}
