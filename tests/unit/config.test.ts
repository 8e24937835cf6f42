import { healthFileFor, startHeartbeat, unhealthy } from '../../src/ops/heartbeat.js';
import os from 'node:os';
import { generateKeyPairSync, sign } from 'node:crypto';
import { MAX_SIGNATURE_AGE_S, publicKeyFromHex, signatureProblem, signedByDiscord } from '../../src/discord/signature.js';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATABASE_PATH, parseConfig, VARIABLES } from '../../src/config.js';
import fs from 'node:fs';

const TOKEN = 'MTAxNTk5OTk5OTk5OTk5OTk5OQ.GhAbCd.abcdefghijklmnopqrstuvwxyz0123456789AB';

describe('configuration', () => {
  it('defaults what may be defaulted', () => {
    const c = parseConfig({});
    expect(c.databasePath).toBe(path.resolve(DEFAULT_DATABASE_PATH));
    expect(c.logLevel).toBe('info');
    expect(c.discordToken).toBeUndefined();
    expect(c.apiBase).toBeUndefined();
  });

  it('reads every variable', () => {
    const c = parseConfig(
      {
        DISCORD_TOKEN: TOKEN,
        DISCORD_APPLICATION_ID: '101599999999999999',
        DISCORD_GUILD_ID: '201599999999999999',
        DATABASE_PATH: '/tmp/x.db',
        DATABASE_URL: 'postgres://bot:secret@db.example:5432/ledger',
        DISCORD_API_BASE: 'http://127.0.0.1:9999/api',
        LOG_LEVEL: 'DEBUG',
        RATE_LIMIT_BURST: '5',
        RATE_LIMIT_PER_MINUTE: '20',
        INTERACTIONS_MODE: 'HTTP',
        HTTP_PORT: '8443',
        DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
        SHARDS: ' Auto ',
        SHARD_SPAWN_DELAY_MS: '0',
        HEALTH_FILE: '/run/mo/health.json',
        METRICS_PORT: '9464',
        METRICS_HOST: '10.0.0.7',
        HTTP_CONNECTIONS_PER_ADDRESS: '0',
        SIGNING_KEY_FILE: '/etc/mo/keys.json',
        LATE_DELIVERY_AFTER_S: '45',
        BEACON_CHAIN: ' /etc/mo/chain.json ',
        BEACON_URLS: 'https://relay.example/, http://10.0.0.9:8080',
        RETENTION_DAYS: '0',
      },
      ['token', 'application'],
    );
    expect(c).toEqual({
      discordToken: TOKEN,
      applicationId: '101599999999999999',
      guildId: '201599999999999999',
      databasePath: '/tmp/x.db',
      dataDir: '/tmp',
      healthFile: '/run/mo/health.json',
      metricsPort: 9464,
      metricsHost: '10.0.0.7',
      httpConnectionsPerAddress: 0,
      signingKeyFile: '/etc/mo/keys.json',
      databaseUrl: 'postgres://bot:secret@db.example:5432/ledger',
      apiBase: 'http://127.0.0.1:9999/api',
      logLevel: 'debug',
      rateLimit: { burst: 5, perMinute: 20 },
      interactionsMode: 'http',
      httpPort: 8443,
      publicKey: 'ab'.repeat(32),
      shards: 'auto',
      shardSpawnDelayMs: 0,
      lateDeliveryAfterMs: 45_000,
      beaconChain: '/etc/mo/chain.json',
      beaconUrls: ['https://relay.example/', 'http://10.0.0.9:8080'],
      retentionDays: 0,
    });
  });

  it('RETENTION_DAYS: 30 unless set, 0 to 3650 days', () => {
    expect(parseConfig({}).retentionDays).toBe(30);
    expect(parseConfig({ RETENTION_DAYS: ' ' }).retentionDays).toBe(30);
    expect(parseConfig({ RETENTION_DAYS: '3650' }).retentionDays).toBe(3650);
    for (const bad of ['-1', '3651', '1.5', 'forever'])
      expect(() => parseConfig({ RETENTION_DAYS: bad })).toThrow(
        "RETENTION_DAYS is malformed: expected a whole number of days from 0 to 3650: how long a server's data is kept",
      );
  });

  it('gateway mode on port 8080 unless told; HTTP mode cannot start without the public key', () => {
    expect(parseConfig({ DISCORD_TOKEN: TOKEN }, ['token'])).toMatchObject({
      interactionsMode: 'gateway',
      httpPort: 8080,
      publicKey: undefined,
      // Operations on loopback unless told, and one address holds at most 32 connections.
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      httpConnectionsPerAddress: 32,
    });
    expect(() => parseConfig({ METRICS_HOST: 'db.internal' })).toThrow('METRICS_HOST is malformed');
    expect(() => parseConfig({ DISCORD_TOKEN: TOKEN, INTERACTIONS_MODE: 'http' }, ['token'])).toThrow(
      "DISCORD_PUBLIC_KEY is not set: INTERACTIONS_MODE=http verifies every request with it (the app's public key from the Developer Portal: 64 hex characters).",
    );
    expect(() => parseConfig({ INTERACTIONS_MODE: 'carrier-pigeon' })).toThrow('INTERACTIONS_MODE is malformed: expected gateway (the default) or http.');
    expect(() => parseConfig({ DISCORD_PUBLIC_KEY: 'abc' })).toThrow('DISCORD_PUBLIC_KEY is malformed');
    expect(() => parseConfig({ HTTP_PORT: '70000' })).toThrow('HTTP_PORT is malformed');
    expect(() => parseConfig({ LATE_DELIVERY_AFTER_S: '3601' })).toThrow('LATE_DELIVERY_AFTER_S is malformed');
    expect(() => parseConfig({ BEACON_URLS: 'ftp://relay.example' })).toThrow('BEACON_URLS is malformed');
    expect(() => parseConfig({ BEACON_URLS: ' , ' })).toThrow('BEACON_URLS is malformed');
  });

  it('SHARDS is auto or a number of shards; inside a shard process discord.js owns that name', () => {
    expect(parseConfig({}).shards).toBeUndefined();
    expect(parseConfig({ SHARDS: '4' }).shards).toBe(4);
    expect(() => parseConfig({ SHARDS: '0' })).toThrow('SHARDS is malformed: expected auto, or a whole number of shards from 1 to 10000');
    expect(() => parseConfig({ SHARDS: 'many' })).toThrow('SHARDS is malformed');
    // discord.js starts each shard with SHARDS set to its id (0, 1 …) and SHARDING_MANAGER set.
    expect(parseConfig({ SHARDS: '0', SHARDING_MANAGER: 'true' }).shards).toBeUndefined();
  });

  it('treats blank values as unset', () => {
    expect(parseConfig({ DISCORD_GUILD_ID: '  ', LOG_LEVEL: '' }).guildId).toBeUndefined();
  });

  it.each([
    [{ DISCORD_TOKEN: 'not a token' }, 'DISCORD_TOKEN is malformed'],
    [{ DISCORD_APPLICATION_ID: '12ab' }, 'DISCORD_APPLICATION_ID is malformed: expected the application id'],
    [{ DISCORD_GUILD_ID: '1' }, 'DISCORD_GUILD_ID is malformed'],
    [{ DISCORD_API_BASE: 'ftp://example' }, 'DISCORD_API_BASE is malformed'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL is malformed: expected one of debug, info, warn, error, silent'],
  ])('names the malformed variable: %o', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
  });

  it('never echoes a malformed token', () => {
    const secret = 'super-secret-value-with spaces';
    // A try/catch here used to swallow its own expect.unreachable().
    let thrown: unknown;
    try {
      parseConfig({ DISCORD_TOKEN: secret });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toContain('DISCORD_TOKEN is malformed');
    expect((thrown as Error).message).not.toContain(secret);
  });

  it('a missing token points at the offline console', () => {
    expect(() => parseConfig({}, ['token'])).toThrow(/DISCORD_TOKEN is not set.*npm run console/);
  });

  it('deployment also needs the application id', () => {
    expect(() => parseConfig({ DISCORD_TOKEN: TOKEN }, ['token', 'application'])).toThrow(/DISCORD_APPLICATION_ID is not set/);
  });

  it('the bot exits with code 78 (EX_CONFIG: the systemd unit does not restart it) and one line when the token is missing', () => {
    const root = path.resolve(__dirname, '../..');
    const env = { ...process.env, DISCORD_TOKEN: '', DOTENV_CONFIG_PATH: '/nonexistent' };
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(78);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Configuration error: DISCORD_TOKEN is not set.*npm run console/);
  });
});

describe('HTTP interactions: the signature check', () => {
  const keys = generateKeyPairSync('ed25519');
  const hex = Buffer.from((keys.publicKey.export({ format: 'jwk' }) as { x: string }).x, 'base64url').toString('hex');
  const key = publicKeyFromHex(hex);
  const now = 1_800_000_000_000;
  const ts = String(now / 1000);
  const body = Buffer.from('{"type":1}');
  const signed = (t: string, b: Buffer) => sign(null, Buffer.concat([Buffer.from(t), b]), keys.privateKey).toString('hex');

  it('accepts Discord’s signature over timestamp + body, within five minutes either way', () => {
    expect(signedByDiscord(key, signed(ts, body), ts, body, now)).toBe(true);
    const edge = String(now / 1000 - MAX_SIGNATURE_AGE_S);
    expect(signedByDiscord(key, signed(edge, body), edge, body, now)).toBe(true);
    expect(MAX_SIGNATURE_AGE_S).toBe(300);
  });

  it('refuses a stale or future timestamp, another body, another key, and malformed headers', () => {
    const stale = String(now / 1000 - MAX_SIGNATURE_AGE_S - 1);
    const future = String(now / 1000 + MAX_SIGNATURE_AGE_S + 1);
    expect(signedByDiscord(key, signed(stale, body), stale, body, now)).toBe(false);
    expect(signedByDiscord(key, signed(future, body), future, body, now)).toBe(false);
    expect(signedByDiscord(key, signed(ts, body), ts, Buffer.from('{"type":2}'), now)).toBe(false);
    const other = generateKeyPairSync('ed25519');
    expect(signedByDiscord(key, sign(null, Buffer.concat([Buffer.from(ts), body]), other.privateKey).toString('hex'), ts, body, now)).toBe(false);
    expect(signedByDiscord(key, undefined, ts, body, now)).toBe(false);
    // The log says why; a key that is not this application's gives the last reason every time.
    expect(signatureProblem(key, sign(null, Buffer.concat([Buffer.from(ts), body]), other.privateKey).toString('hex'), ts, body, now)).toBe(
      'the signature does not hold under DISCORD_PUBLIC_KEY: if every request says this, the key is not this application’s',
    );
    expect(signatureProblem(key, signed(stale, body), stale, body, now)).toBe('the signature timestamp is more than five minutes from this clock');
    expect(signatureProblem(key, 'zz', ts, body, now)).toBe('the signature headers are malformed');
    expect(signatureProblem(key, signed(ts, body), ts, body, now)).toBeUndefined();
    expect(signedByDiscord(key, signed(ts, body), undefined, body, now)).toBe(false);
    expect(signedByDiscord(key, 'zz'.repeat(64), ts, body, now)).toBe(false);
    expect(signedByDiscord(key, signed(ts, body), `${ts}.5`, body, now)).toBe(false);
  });

  it('a public key that is not 64 hex characters is refused by name', () => {
    expect(() => publicKeyFromHex('abc')).toThrow("DISCORD_PUBLIC_KEY must be the app's public key: 64 hex characters");
  });
});

describe('health files', () => {
  it('one per shard process, in the data directory (both backends) or the file given', () => {
    expect(healthFileFor('/d')).toBe('/d/health.json');
    expect(healthFileFor('/d', undefined, '1')).toBe('/d/health.shard-1.json');
    expect(healthFileFor('/d', '/run/h.json', '[2]')).toBe('/run/h.shard-2.json');
    expect(healthFileFor('/d', '/run/h', '0')).toBe('/run/h.shard-0');
  });

  it('the heartbeat makes its folder owner-only when it is not there yet (a DATA_DIR on PostgreSQL), and the beat owner-only', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mo-beat-')), 'new', 'data');
    const file = healthFileFor(dir);
    const beat = startHeartbeat(file, async () => ({ ready: true, mode: 'http', serving: true, writable: true }));
    await beat.beat();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ ready: true, mode: 'http', pid: process.pid });
    expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe('700');
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(unhealthy(file)).toBeUndefined();
    beat.stop();
    expect(fs.existsSync(file)).toBe(false);
    fs.rmSync(path.dirname(path.dirname(dir)), { recursive: true, force: true });
  });

  it("the data directory is DATABASE_PATH's folder whatever the backend; HEALTH_FILE and METRICS_PORT are read and checked", () => {
    const pg = parseConfig({ DATABASE_URL: 'postgres://u:p@db/x', DATABASE_PATH: '/srv/mo/ledger.db', HEALTH_FILE: '/run/mo.json', METRICS_PORT: '9464' });
    expect(pg).toMatchObject({ dataDir: '/srv/mo', healthFile: '/run/mo.json', metricsPort: 9464 });
    // PostgreSQL with no SQLite file at all: DATA_DIR names the folder outright.
    expect(parseConfig({ DATABASE_URL: 'postgres://u:p@db/x', DATA_DIR: '/var/lib/mo' }).dataDir).toBe('/var/lib/mo');
    expect(parseConfig({})).toMatchObject({ healthFile: undefined, metricsPort: undefined });
    expect(() => parseConfig({ METRICS_PORT: '70000' })).toThrow('METRICS_PORT is malformed: expected a port number from 0 to 65535');
  });
});

describe('every variable documented', () => {
  it('.env.example and the configuration table of docs/self-hosting.md name each one the bot reads', () => {
    const root = path.resolve(__dirname, '../..');
    const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
    const docs = fs.readFileSync(path.join(root, 'docs/self-hosting.md'), 'utf8');
    expect(VARIABLES.length).toBeGreaterThanOrEqual(16);
    for (const v of VARIABLES) {
      expect(example, v).toMatch(new RegExp(`^${v}=`, 'm'));
      expect(docs, v).toContain(`| \`${v}\` |`);
    }
  });
});
