import { DEFAULT_RELAYS } from './beacon/chain.js';
import { DEFAULT_RATE_LIMIT, type RateLimit } from './core/rate-limit.js';
import { DEFAULT_RETENTION_DAYS } from './core/retention-days.js';
import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { z } from 'zod';

/** What the process needs from its environment; every value is checked once, here. */
export type Config = {
  discordToken: string | undefined;
  applicationId: string | undefined;
  guildId: string | undefined;
  databasePath: string;
  /** The data directory (DATA_DIR, default DATABASE_PATH's folder): the heartbeat and the receipt keys live there on both backends. */
  dataDir: string;
  /** HEALTH_FILE: where the heartbeat goes instead of health.json in the data directory. */
  healthFile: string | undefined;
  /**
   * METRICS_PORT: /metrics, /healthz and /readyz on their own port; unset: none. Never on the
   * interactions port unless asked: in HTTP mode, METRICS_PORT equal to HTTP_PORT serves them there.
   */
  metricsPort: number | undefined;
  /** METRICS_HOST: the address that port listens on (default 127.0.0.1: only this machine). */
  metricsHost: string;
  /** SIGNING_KEY_FILE: the receipt keys' file instead of signing-key.json in the data directory. */
  signingKeyFile: string | undefined;
  /** A PostgreSQL ledger shared by several processes or machines (postgres://…); unset: the SQLite file at databasePath. */
  databaseUrl: string | undefined;
  apiBase: string | undefined;
  logLevel: LogLevel;
  rateLimit: RateLimit;
  /** gateway: one process holds the gateway connection; http: Discord POSTs interactions to HTTP_PORT. */
  interactionsMode: 'gateway' | 'http';
  httpPort: number;
  /** HTTP_CONNECTIONS_PER_ADDRESS: connections one client address may hold open (0: no cap, behind a proxy that caps). */
  httpConnectionsPerAddress: number;
  /** The app's public key (64 hex), which HTTP mode verifies every request against. */
  publicKey: string | undefined;
  /** Gateway mode: run this many shard processes ('auto': as Discord recommends); unset: one process, no sharding. */
  shards: 'auto' | number | undefined;
  /** Pause between starting two shards (Discord allows one identify per 5 s unless the app may start more). */
  shardSpawnDelayMs: number | undefined;
  /**
   * LATE_DELIVERY_AFTER_S: how long after start the bot posts the rolls that never reached their
   * channel, taking those older than this (younger ones another process may be answering).
   */
  lateDeliveryAfterMs: number;
  /** BEACON_CHAIN as set (quicknet, off, or a chain-info file); unset: the bot takes quicknet, the console none. */
  beaconChain: string | undefined;
  /** BEACON_URLS: the beacon's relays (drand's HTTP API), first valid answer wins. */
  beaconUrls: string[];
  /** RETENTION_DAYS: a server's data is deleted this many days after the bot leaves it (0: at the next sweep), unless it set its own. */
  retentionDays: number;
};

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_DATABASE_PATH = 'data/morale-officer.db';

const snowflake = z.string().regex(/^\d{17,20}$/);
const blankIsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

// Discord bot tokens are three dot-separated base64url parts; a looser check would let a pasted
// client secret or a quoted value through and fail later with an opaque 401.
const token = z.string().regex(/^[\w-]{20,}\.[\w-]{4,}\.[\w-]{20,}$/);

const schema = z.object({
  DISCORD_TOKEN: z.preprocess(blankIsUnset, token.optional()),
  DISCORD_APPLICATION_ID: z.preprocess(blankIsUnset, snowflake.optional()),
  DISCORD_GUILD_ID: z.preprocess(blankIsUnset, snowflake.optional()),
  DATABASE_PATH: z.preprocess(blankIsUnset, z.string().default(DEFAULT_DATABASE_PATH)),
  DATABASE_URL: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/)
      .optional(),
  ),
  DISCORD_API_BASE: z.preprocess(blankIsUnset, z.url({ protocol: /^https?$/ }).optional()),
  LOG_LEVEL: z.preprocess((v) => (typeof v === 'string' ? blankIsUnset(v.toLowerCase()) : v), z.enum(LOG_LEVELS).default('info')),
  RATE_LIMIT_BURST: z.preprocess(blankIsUnset, z.coerce.number().int().min(1).max(1000).default(DEFAULT_RATE_LIMIT.burst)),
  RATE_LIMIT_PER_MINUTE: z.preprocess(blankIsUnset, z.coerce.number().int().min(1).max(100_000).default(DEFAULT_RATE_LIMIT.perMinute)),
  INTERACTIONS_MODE: z.preprocess((v) => (typeof v === 'string' ? blankIsUnset(v.toLowerCase()) : v), z.enum(['gateway', 'http']).default('gateway')),
  HTTP_PORT: z.preprocess(blankIsUnset, z.coerce.number().int().min(0).max(65_535).default(8080)),
  HTTP_CONNECTIONS_PER_ADDRESS: z.preprocess(blankIsUnset, z.coerce.number().int().min(0).max(10_000).default(32)),
  LATE_DELIVERY_AFTER_S: z.preprocess(blankIsUnset, z.coerce.number().int().min(0).max(3600).default(30)),
  BEACON_CHAIN: z.preprocess(blankIsUnset, z.string().trim().min(1).optional()),
  BEACON_URLS: z.preprocess(
    blankIsUnset,
    z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(z.url({ protocol: /^https?$/ }))
          .min(1)
          .max(20),
      )
      .optional(),
  ),
  DISCORD_PUBLIC_KEY: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/)
      .optional(),
  ),
  SHARDS: z.preprocess(
    (v) => (typeof v === 'string' ? blankIsUnset(v.trim().toLowerCase()) : v),
    z.union([z.literal('auto'), z.coerce.number().int().min(1).max(10_000)]).optional(),
  ),
  SHARD_SPAWN_DELAY_MS: z.preprocess(blankIsUnset, z.coerce.number().int().min(0).max(60_000).optional()),
  DATA_DIR: z.preprocess(blankIsUnset, z.string().optional()),
  HEALTH_FILE: z.preprocess(blankIsUnset, z.string().optional()),
  METRICS_PORT: z.preprocess(blankIsUnset, z.coerce.number().int().min(0).max(65_535).optional()),
  METRICS_HOST: z.preprocess(blankIsUnset, z.union([z.ipv4(), z.ipv6(), z.literal('localhost')]).default('127.0.0.1')),
  SIGNING_KEY_FILE: z.preprocess(blankIsUnset, z.string().optional()),
  RETENTION_DAYS: z.preprocess(blankIsUnset, z.coerce.number().int().min(0).max(3650).default(DEFAULT_RETENTION_DAYS)),
});

/** What each variable must look like, for the one-line error. Never echoes the value. */
const EXPECTED: Record<keyof z.infer<typeof schema>, string> = {
  DISCORD_TOKEN: 'the bot token from the Developer Portal (three dot-separated parts)',
  DISCORD_APPLICATION_ID: 'the application id, a 17 to 20 digit number',
  DISCORD_GUILD_ID: 'a server id, a 17 to 20 digit number, or unset to register commands globally',
  DATABASE_PATH: 'a file path',
  DATABASE_URL: 'a PostgreSQL connection string, postgres://user:password@host:5432/database, or unset for the SQLite file',
  DISCORD_API_BASE: 'an http(s) URL such as https://discord.com/api, or unset',
  LOG_LEVEL: `one of ${LOG_LEVELS.join(', ')}`,
  RATE_LIMIT_BURST: 'a whole number from 1 to 1000 (commands a player may send at once)',
  RATE_LIMIT_PER_MINUTE: 'a whole number from 1 to 100000 (commands a player may send a minute, steadily)',
  INTERACTIONS_MODE: 'gateway (the default) or http',
  HTTP_PORT: 'a port number from 0 to 65535 (HTTP mode listens there for POST /interactions)',
  HTTP_CONNECTIONS_PER_ADDRESS:
    'a whole number from 0 to 10000: connections one address may hold open in HTTP mode (default 32; 0 for no cap, behind a proxy that caps per client)',
  DISCORD_PUBLIC_KEY: "the app's public key from the Developer Portal: 64 hex characters",
  LATE_DELIVERY_AFTER_S: 'a whole number of seconds from 0 to 3600: how long after start the rolls that never reached their channel are posted (default 30)',
  BEACON_CHAIN:
    "quicknet (the bot's default: drand's League of Entropy chain), off (no beacon: new games use the old seeded dice), or the path of a drand chain-info JSON file for a private or test chain",
  BEACON_URLS: "comma-separated http(s) base URLs of drand relays (default: drand's public relays)",
  SHARDS: 'auto, or a whole number of shards from 1 to 10000, or unset for one unsharded process',
  SHARD_SPAWN_DELAY_MS: 'milliseconds between starting two shards, 0 to 60000 (unset: 5500)',
  DATA_DIR: "a folder for the bot's own files (heartbeat, receipt keys), or unset for DATABASE_PATH's folder",
  HEALTH_FILE: 'a file path for the heartbeat, or unset for health.json beside the data',
  SIGNING_KEY_FILE: 'a file path for the receipt signing keys, or unset for signing-key.json beside the data',
  METRICS_PORT:
    'a port number from 0 to 65535 for /metrics, /healthz and /readyz, or unset for none (in HTTP mode, the same number as HTTP_PORT serves them on the interactions port)',
  METRICS_HOST: 'the IP address the metrics port listens on (default 127.0.0.1, this machine only; 0.0.0.0 for every interface)',
  RETENTION_DAYS: `a whole number of days from 0 to 3650: how long a server's data is kept after the bot leaves it (default ${DEFAULT_RETENTION_DAYS}; 0: deleted at the next hourly sweep)`,
};

/** Every variable the bot reads (for the test that holds .env.example and the docs to them). */
export const VARIABLES = Object.keys(EXPECTED) as readonly string[];

export class ConfigError extends Error {}

export type Requirement = 'token' | 'application';

/**
 * Builds the typed config from an environment. `require` names what this entry point cannot run
 * without (the bot needs the token; command deployment also needs the application id).
 */
export function parseConfig(env: NodeJS.ProcessEnv, require: Requirement[] = []): Config {
  // discord.js runs each shard process with SHARDS set to that shard's id: there it is not our setting.
  const parsed = schema.safeParse(env.SHARDING_MANAGER ? { ...env, SHARDS: undefined } : env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]) as keyof typeof EXPECTED;
    throw new ConfigError(`${name} is malformed: expected ${EXPECTED[name]}.`);
  }
  const v = parsed.data;
  if (require.includes('token') && !v.DISCORD_TOKEN) {
    throw new ConfigError('DISCORD_TOKEN is not set: put the bot token in .env (see .env.example), or try the bot offline with `npm run console`.');
  }
  if (v.INTERACTIONS_MODE === 'http' && require.includes('token') && !v.DISCORD_PUBLIC_KEY) {
    throw new ConfigError(`DISCORD_PUBLIC_KEY is not set: INTERACTIONS_MODE=http verifies every request with it (${EXPECTED.DISCORD_PUBLIC_KEY}).`);
  }
  if (require.includes('application') && !v.DISCORD_APPLICATION_ID) {
    throw new ConfigError(`DISCORD_APPLICATION_ID is not set: expected ${EXPECTED.DISCORD_APPLICATION_ID}.`);
  }
  return {
    discordToken: v.DISCORD_TOKEN,
    applicationId: v.DISCORD_APPLICATION_ID,
    guildId: v.DISCORD_GUILD_ID,
    databasePath: path.resolve(v.DATABASE_PATH),
    dataDir: v.DATA_DIR === undefined ? path.dirname(path.resolve(v.DATABASE_PATH)) : path.resolve(v.DATA_DIR),
    healthFile: v.HEALTH_FILE === undefined ? undefined : path.resolve(v.HEALTH_FILE),
    metricsPort: v.METRICS_PORT,
    metricsHost: v.METRICS_HOST,
    signingKeyFile: v.SIGNING_KEY_FILE === undefined ? undefined : path.resolve(v.SIGNING_KEY_FILE),
    databaseUrl: v.DATABASE_URL,
    apiBase: v.DISCORD_API_BASE,
    logLevel: v.LOG_LEVEL,
    interactionsMode: v.INTERACTIONS_MODE,
    httpPort: v.HTTP_PORT,
    httpConnectionsPerAddress: v.HTTP_CONNECTIONS_PER_ADDRESS,
    publicKey: v.DISCORD_PUBLIC_KEY,
    shards: v.SHARDS,
    shardSpawnDelayMs: v.SHARD_SPAWN_DELAY_MS,
    lateDeliveryAfterMs: v.LATE_DELIVERY_AFTER_S * 1000,
    beaconChain: v.BEACON_CHAIN,
    beaconUrls: v.BEACON_URLS ?? DEFAULT_RELAYS,
    rateLimit: { burst: v.RATE_LIMIT_BURST, perMinute: v.RATE_LIMIT_PER_MINUTE },
    retentionDays: v.RETENTION_DAYS,
  };
}

/**
 * The exit status of a refusal a restart cannot mend (a bad setting, a damaged or newer ledger):
 * sysexits' EX_CONFIG, which the systemd unit names in RestartPreventExitStatus.
 */
export const EX_CONFIG = 78;

/** Entry points call this: reads .env, and on a bad value prints one line and exits with EX_CONFIG. */
export function loadConfigOrExit(require: Requirement[] = [], env: NodeJS.ProcessEnv = process.env): Config {
  loadDotenv({ quiet: true });
  try {
    return parseConfig(env, require);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(EX_CONFIG);
    }
    throw err;
  }
}
