import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATABASE_PATH, parseConfig } from '../../src/config.js';

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
        DISCORD_API_BASE: 'http://127.0.0.1:9999/api',
        LOG_LEVEL: 'DEBUG',
        RATE_LIMIT_BURST: '5',
        RATE_LIMIT_PER_MINUTE: '20',
      },
      ['token', 'application'],
    );
    expect(c).toEqual({
      discordToken: TOKEN,
      applicationId: '101599999999999999',
      guildId: '201599999999999999',
      databasePath: '/tmp/x.db',
      apiBase: 'http://127.0.0.1:9999/api',
      logLevel: 'debug',
      rateLimit: { burst: 5, perMinute: 20 },
    });
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
    // Issue 18: a try/catch here used to swallow its own expect.unreachable().
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

  it('the bot exits with code 1 and one line when the token is missing', () => {
    const root = path.resolve(__dirname, '../..');
    const env = { ...process.env, DISCORD_TOKEN: '', DOTENV_CONFIG_PATH: '/nonexistent' };
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: root, env, encoding: 'utf8', timeout: 15_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Configuration error: DISCORD_TOKEN is not set.*npm run console/);
  });
});
