import { createRouter } from './app.js';
import { beaconFor } from './beacon/from-config.js';
import { resumeBindings } from './core/resume-bindings.js';
import { RateLimiter } from './core/rate-limit.js';
import { EX_CONFIG, loadConfigOrExit } from './config.js';
import { LedgerRefusedError } from './ledger/errors.js';
import { MessageLinks } from './core/message-links.js';
import { createBot, type Transport } from './discord/bot.js';
import { createHttpBot } from './discord/http-bot.js';
import { shardCount, startShards } from './discord/shards.js';
import { publicKeyFromHex } from './discord/signature.js';
import { openStore } from './ledger/open-store.js';
import type { LedgerStore } from './ledger/store.js';
import { createLogger } from './log.js';
import { failFast } from './ops/fail-fast.js';
import { databaseRefusal } from './ops/database-refusal.js';
import { healthFileFor, startHeartbeat } from './ops/heartbeat.js';
import { Metrics, timedStore } from './ops/metrics.js';
import { startOpsServer, type Ops, type OpsServer } from './ops/ops-http.js';
import { readiness } from './ops/readiness.js';
import { keyFileFor, signerFor } from './ops/signing-key.js';
import type { Router } from './core/router.js';
import { deliverUnshownRolls } from './core/late-delivery.js';
import { channelPoster } from './discord/channel-post.js';
import { clockPoster } from './discord/clock-post.js';
import { Scheduler } from './core/schedule.js';
import { guildCommandsVia } from './discord/guild-commands.js';
import { GuildPresence, RetentionSweeper, SWEEP_EVERY_MS } from './core/retention.js';
import { watchGuildList } from './discord/guild-presence.js';
import { REST } from '@discordjs/rest';

const config = loadConfigOrExit(['token']);
// Every file the bot makes (the ledger, its WAL, the heartbeat, keys) is its owner's alone.
process.umask(0o077);

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

// What must be closed before an exit; set once the ledger (or the shards) are open.
let closeAll: () => Promise<void> = async () => undefined;
failFast({
  log,
  close: () => closeAll(),
  ignore: (err) => {
    const pipe = (err as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
    if (pipe) outputGone = true;
    return pipe;
  },
});

// discord.js reads SHARDS itself (as JSON) when a Client is made: outside a shard process the
// variable is our setting, already read, and must not reach it ("SHARDS=" in .env would crash it).
if (!process.env.SHARDING_MANAGER) delete process.env.SHARDS;
/** Inside a shard process: its id (discord.js sets SHARDS to "[id]"). */
const shardId = process.env.SHARDING_MANAGER ? /\d+/.exec(process.env.SHARDS ?? '')?.[0] : undefined;

// SHARDS in gateway mode: this process runs the shards (each this same entry point, told its shard
// by discord.js's SHARDING_MANAGER variables) and holds no ledger or connection itself.
if (config.shards !== undefined && config.interactionsMode === 'gateway' && !process.env.SHARDING_MANAGER) void runShards();
else
  void runBot().catch((err) => {
    // A refusal (a damaged, empty or newer ledger; a database the server says is missing or not
    // ours) is for a person to mend: exit 78, which the systemd unit does not restart; anything
    // else exits 1 for the supervisor to try again (a server not up yet was waited for already).
    const refused = err instanceof LedgerRefusedError ? err.message : databaseRefusal(err, config.databaseUrl);
    if (refused !== undefined) {
      log.error('the ledger was refused', { reason: refused });
      process.exit(EX_CONFIG);
    }
    log.error('could not open the ledger or the receipt key', { err });
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

/** Asked for in HTTP mode by naming the interactions port as METRICS_PORT: the operations paths served there too. */
const opsOnInteractionsPort = config.interactionsMode === 'http' && config.httpPort !== 0 && config.metricsPort === config.httpPort;

/** METRICS_PORT's listener on METRICS_HOST, when set; a shard process takes the port after the manager's, one each. */
async function opsServerFor(ops: Ops): Promise<OpsServer | undefined> {
  if (config.metricsPort === undefined || opsOnInteractionsPort) return undefined;
  const port = shardId === undefined || config.metricsPort === 0 ? config.metricsPort : config.metricsPort + 1 + Number(shardId);
  return startOpsServer({ port, host: config.metricsHost, ops, log });
}

async function runShards() {
  try {
    const count = await shardCount(config.shards!, config.discordToken!, config.apiBase);
    log.info('starting shards', { shards: count });
    const shards = await startShards({
      file: process.argv[1]!,
      token: config.discordToken!,
      count,
      log,
      ...(config.shardSpawnDelayMs !== undefined ? { spawnDelayMs: config.shardSpawnDelayMs } : {}),
    });
    const allReady = () => shards.ready().every((s) => s.ready);
    const metrics = new Metrics({ serving: () => shards.ready().map((s) => ({ mode: 'shards', shard: String(s.shard), up: s.ready })) });
    const ops = await opsServerFor({ metrics, readiness: () => readiness('shards', allReady) });
    closeAll = async () => {
      await ops?.stop();
      await shards.stop();
    };
    log.info('all shards connected', { shards: count });
    stopOnSignals(closeAll, 15_000);
  } catch (err) {
    log.error('could not start the shards', { err });
    process.exit(1);
  }
}

async function runBot() {
  const keyFile = keyFileFor(config.dataDir, config.signingKeyFile);
  const store = await openStore(config, log, { newLedger: process.argv.includes('--new-ledger'), keyFile, keepOpen: true });
  const mode = config.interactionsMode;
  let bot: Transport | undefined;
  const serving = () => bot?.ready() ?? false;
  const metrics = new Metrics({ rows: () => store.rowTotal(), serving: () => [{ mode, shard: shardId ?? '', up: serving() }] });
  const ledger = timedStore(store, metrics);
  const beacon = beaconOrExit();
  const ops: Ops = { metrics, readiness: () => readiness(mode, serving, ledger, beacon && (() => beacon.status())) };
  const signer = await signerFor(store, keyFile);
  // Rule packs register their commands in their own server (the built-in ones are untouched).
  const guildCommands = guildCommandsVia(
    new REST({ version: '10', ...(config.apiBase ? { api: config.apiBase } : {}) }).setToken(config.discordToken!),
    config.applicationId,
  );
  const router = createRouter({
    ledger,
    log,
    limiter: new RateLimiter(config.rateLimit),
    signer,
    guildCommands,
    retentionDays: config.retentionDays,
    ...(beacon ? { beacon } : {}),
  });
  // Where the bot is: the gateway's events, or in HTTP mode a look at its servers (guild-presence.ts).
  const presence = new GuildPresence(ledger, log);
  bot = createTransport(ledger, metrics, ops, router, presence);
  const opsServer = await opsServerFor(ops);
  const heartbeat = startHeartbeat(healthFileFor(config.dataDir, config.healthFile, process.env.SHARDS), ops.readiness);
  let lateDelivery: NodeJS.Timeout | undefined;
  // Reminders and status cards: every process ticks, and one fires each (schedule.ts).
  const schedules = new Scheduler(ledger, clockPoster(config.discordToken!, config.apiBase), log).start();
  // The data of servers the bot left, deleted once due: now, then hourly; every process sweeps, one deletes each.
  const retention = new RetentionSweeper(ledger, config.retentionDays, log).start();
  const guildList =
    mode === 'http' ? watchGuildList({ token: config.discordToken!, apiBase: config.apiBase, presence, log, everyMs: SWEEP_EVERY_MS }) : undefined;
  closeAll = async () => {
    heartbeat.stop();
    schedules.stop();
    retention.stop();
    guildList?.stop();
    clearTimeout(lateDelivery);
    try {
      await opsServer?.stop();
      await bot?.stop();
    } finally {
      await store.close();
    }
  };
  stopOnSignals(closeAll, 10_000, true);

  // pino puts the pid on every line already.
  log.info('starting', {
    database: config.databaseUrl ? 'postgres' : config.databasePath,
    api: config.apiBase ?? 'discord.com',
    mode,
    ...(shardId !== undefined ? { shard: Number(shardId) } : {}),
  });
  bot
    .start()
    .then(() => {
      heartbeat.beat();
      void resumeBound(ledger, router);
      lateDelivery = setTimeout(() => void deliverLate(ledger, router), config.lateDeliveryAfterMs);
    })
    .catch(async (err) => {
      log.error('could not connect to Discord', { err });
      heartbeat.stop();
      await store.close();
      // A token Discord refuses will be refused again: that is for a person to mend (EX_CONFIG).
      process.exit((err as { code?: string }).code === 'TokenInvalid' ? EX_CONFIG : 1);
    });
}

/** The beacon this bot reads (quicknet unless BEACON_CHAIN says otherwise); a bad chain file stops the start. */
function beaconOrExit() {
  try {
    return beaconFor(config.beaconChain, 'quicknet', config.beaconUrls, log);
  } catch (err) {
    log.error('the beacon is misconfigured', { reason: (err as Error).message });
    process.exit(EX_CONFIG);
  }
}

/** Beacon rolls the last process left bound, rolled (or expired) and posted now. */
async function resumeBound(ledger: LedgerStore, router: Router) {
  if (!router.binder) return;
  try {
    const post = channelPoster(config.discordToken!, config.apiBase);
    const posted = await resumeBindings(router.binder, post, new MessageLinks(ledger, log), log);
    if (posted) log.info('resumed beacon rolls left bound by the last process', { posted });
  } catch (err) {
    log.warn('could not resume the beacon rolls left bound', { err });
  }
}

/** The rolls that never reached their channel (the last process stopped between commit and reply), posted now. */
async function deliverLate(ledger: LedgerStore, router: Router) {
  try {
    const post = channelPoster(config.discordToken!, config.apiBase);
    await deliverUnshownRolls({ store: ledger, router, post, log }, Date.now(), config.lateDeliveryAfterMs);
  } catch (err) {
    log.warn('could not look for rolls that never reached their channel', { err });
  }
}

/** The gateway client, or the HTTP-interactions server (which serves /metrics, /healthz, /readyz only when asked). */
function createTransport(ledger: LedgerStore, metrics: Metrics, ops: Ops, router: Router, presence: GuildPresence): Transport {
  const botOptions = {
    token: config.discordToken!,
    apiBase: config.apiBase,
    router,
    links: new MessageLinks(ledger, log),
    log,
    observe: metrics.interaction.bind(metrics),
  };
  return config.interactionsMode === 'http'
    ? createHttpBot({
        ...botOptions,
        publicKey: publicKeyFromHex(config.publicKey!),
        port: config.httpPort,
        connectionsPerAddress: config.httpConnectionsPerAddress,
        ...(opsOnInteractionsPort ? { ops } : {}),
      })
    : createBot({ ...botOptions, presence });
}
