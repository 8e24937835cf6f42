import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { keyFileFor } from '../../src/ops/signing-key.js';
import { ledgerEntry } from '../helpers/ledger.js';
import { tmpDir } from '../helpers/tmp.js';
import { APP_ID, FakeDiscord } from './fake-discord.js';

// The first run in one command (npm run setup, against the local fake Discord, with and
// without a terminal), and every admin command through one entry point in every install: a clone,
// Docker's entry point, and the systemd wrapper run as the service's own user.
const ROOT = path.resolve(__dirname, '../..');
const APP = process.env.MORALE_APP_DIR ? path.resolve(process.env.MORALE_APP_DIR) : ROOT;
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.SETUP0.TheSetupTestTokenMustNeverBeLoggedAnyWhere9';
const GUILD = '900000000000000003';
let fake: FakeDiscord;
beforeAll(async () => {
  fake = await new FakeDiscord([GUILD], { token: TOKEN }).start();
}, 120_000);
afterAll(async () => fake?.stop());

/** The environment of a fresh shell: nothing of ours set but where Discord is. */
const bare = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DISCORD_API_BASE: fake.apiBase, DOTENV_CONFIG_PATH: '/nonexistent' };
  for (const k of Object.keys(env)) if (k.startsWith('DISCORD_') && k !== 'DISCORD_API_BASE') delete env[k];
  return env;
};
/** A process run without blocking this one: the fake Discord it talks to lives in this process. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: APP, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
const setup = (args: string[], env = bare()) => run(process.execPath, ['dist/src/ops/setup.js', ...args], env);
const envOf = (file: string) =>
  Object.fromEntries(
    fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(/=(.*)/s).slice(0, 2)),
  );
const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe('npm run setup: the first run in one command', () => {
  it('from flags: the token checked with Discord, the ids taken from it, the env file written owner-only, the commands registered, how to start said', async () => {
    const file = path.join(tmpDir(), '.env');
    fs.writeFileSync(file, 'LOG_LEVEL=debug\nDISCORD_TOKEN=old\n', { mode: 0o644 });
    const r = await setup(['--token', TOKEN, '--guild-id', GUILD, '--env', file]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(envOf(file)).toEqual({
      LOG_LEVEL: 'debug',
      DISCORD_TOKEN: TOKEN,
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_PUBLIC_KEY: fake.publicKeyHex,
      DISCORD_GUILD_ID: GUILD,
    });
    expect(mode(file)).toBe('600');
    expect(fake.registered.get(`guild:${GUILD}`)?.length).toBeGreaterThan(15);
    expect(r.stdout).toContain(`Registered ${fake.registered.get(`guild:${GUILD}`)!.length} commands to server ${GUILD}.`);
    expect(r.stdout).toContain(`client_id=${APP_ID}`);
    expect(r.stdout).toMatch(/Then start it: npm start\n$/);
  });

  it('a wrong token is named at once, and nothing is written', async () => {
    const file = path.join(tmpDir(), '.env');
    const r = await setup(['--token', `${TOKEN.slice(0, -1)}X`, '--env', file]);
    expect(r.status).toBe(78);
    expect(r.stderr).toBe(
      'setup: Discord refused the bot token (401 Unauthorized): copy it again from the Developer Portal, Bot → Reset Token, and paste all three parts\n',
    );
    expect(fs.existsSync(file)).toBe(false);
  });

  it('an application id or public key that is not the token’s is named', async () => {
    const file = path.join(tmpDir(), '.env');
    const wrongId = await setup(['--token', TOKEN, '--application-id', '110000000000000999', '--env', file]);
    expect(wrongId.status).toBe(78);
    expect(wrongId.stderr).toBe(`setup: the application id 110000000000000999 is not this token's application (${APP_ID}): copy it from General Information\n`);
    const wrongKey = await setup(['--env', file], { ...bare(), DISCORD_TOKEN: TOKEN, DISCORD_PUBLIC_KEY: 'ab'.repeat(32) });
    expect(wrongKey.stderr).toMatch(/^setup: the public key given is not this application's/);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('without a token and without a terminal it says what to give', async () => {
    const r = await setup(['--env', path.join(tmpDir(), '.env')]);
    expect(r.status).toBe(78);
    expect(r.stderr).toMatch(/^setup: no bot token: give --token or DISCORD_TOKEN/);
  });

  const scriptCmd = spawnSync('script', ['--version'], { encoding: 'utf8' });
  it.skipIf(scriptCmd.status !== 0)('at a terminal (a pseudo-terminal) it asks for the token and the server, then does the same', async () => {
    const file = path.join(tmpDir(), '.env');
    const r = await run('script', ['-qec', `${process.execPath} dist/src/ops/setup.js --env ${file}`, '/dev/null'], bare(), `${TOKEN}\n${GUILD}\n`);
    expect(r.stdout).toContain('Bot token (Bot → Reset Token): ');
    expect(r.stdout).toContain('Your server id');
    expect(r.status).toBe(0);
    expect(envOf(file)).toMatchObject({ DISCORD_TOKEN: TOKEN, DISCORD_APPLICATION_ID: APP_ID, DISCORD_GUILD_ID: GUILD });
  });
});

describe('one entry point for every admin command', () => {
  const cli = (args: string[], env = bare()) =>
    spawnSync(process.execPath, ['dist/src/ops/cli.js', ...args], { cwd: APP, env, encoding: 'utf8', timeout: 60_000 });

  it('lists its commands; refuses one it does not have; reads the env file it is given before the command runs', () => {
    const help = cli(['help']);
    expect(help.status).toBe(0);
    for (const c of ['start', 'setup', 'deploy-commands', 'backup', 'keys', 'health', 'verify', 'migrate-ledger', 'console'])
      expect(help.stderr).toContain(`  ${c}`);
    expect(cli(['frobnicate'])).toMatchObject({ status: 2, stderr: expect.stringMatching(/^no command "frobnicate"/) });
    expect(cli(['constructor']).status).toBe(2);
    const dir = tmpDir();
    const envFile = path.join(dir, 'bot.env');
    fs.writeFileSync(envFile, `DATABASE_PATH=${path.join(dir, 'ledger.db')}\n`);
    const keys = cli(['--env', envFile, 'keys', 'show']);
    expect(keys.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'signing-key.json'))).toBe(true);
    const verify = cli(['verify', 'tests/fixtures/sample-export.jsonl']);
    expect(verify.stdout).toMatch(/^verified: all holds$/m);
  });

  const root = process.getuid?.() === 0;
  const haveUseradd = spawnSync('useradd', ['--help']).status === 0;
  it.skipIf(!root || !haveUseradd)('systemd: the wrapper, run as the service’s own user, reads the service’s environment file and backs up its ledger', () => {
    const user = 'mo-admin-test';
    spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', user]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mo-service-'));
    try {
      const state = path.join(dir, 'state');
      fs.mkdirSync(state);
      const ledger = Ledger.open(path.join(state, 'ledger.db'));
      ledger.append(ledgerEntry({ guildId: GUILD }));
      ledger.close();
      const envFile = path.join(dir, 'morale-officer.env');
      fs.writeFileSync(envFile, `DISCORD_TOKEN=${TOKEN}\nLOG_LEVEL=warn\n`);
      // As the docs say: the env file root's and the service group's, 640; the state directory the service's.
      spawnSync('chown', ['-R', `${user}:${user}`, state]);
      spawnSync('chown', [`root:${user}`, envFile]);
      fs.chmodSync(envFile, 0o640);
      fs.chmodSync(dir, 0o755);
      const run = (...args: string[]) =>
        spawnSync('runuser', ['-u', user, '--', path.join(ROOT, 'deploy/morale-officer'), ...args], {
          env: {
            PATH: process.env.PATH,
            MORALE_APP_DIR: APP,
            MORALE_ENV_FILE: envFile,
            MORALE_NODE: process.execPath,
            DATABASE_PATH: path.join(state, 'ledger.db'),
          },
          encoding: 'utf8',
          timeout: 60_000,
        });
      const backup = path.join(state, 'copy.db');
      const r = run('backup', backup);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(fs.statSync(backup).uid).toBe(Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim()));
      const copy = Ledger.open(backup);
      expect(copy.count(GUILD)).toBe(1);
      copy.close();
      expect(run('keys', 'show').status).toBe(0);
      // Unreadable to anyone else: the same command as another user is told why.
      fs.chmodSync(envFile, 0o600);
      const refused = run('keys', 'show');
      expect(refused.status).toBe(78);
      expect(refused.stderr).toMatch(/cannot read .*morale-officer\.env: run this as the service's user/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      spawnSync('userdel', [user]);
    }
  });

  const compose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  it.skipIf(compose.status !== 0)('Docker: compose.yaml passes docker-compose config (and a misspelt key would not)', () => {
    const dir = tmpDir();
    fs.copyFileSync(path.join(ROOT, 'compose.yaml'), path.join(dir, 'compose.yaml'));
    fs.writeFileSync(path.join(dir, '.env'), '');
    const ok = spawnSync('docker-compose', ['config', '-q'], { cwd: dir, encoding: 'utf8' });
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    fs.writeFileSync(path.join(dir, 'compose.yaml'), fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8').replace('env_file:', 'env_fille:'));
    expect(spawnSync('docker-compose', ['config', '-q'], { cwd: dir, encoding: 'utf8' }).status).not.toBe(0);
  });
});

describe('docs/self-hosting.md for the admin', () => {
  const docs = fs.readFileSync(path.join(ROOT, 'docs/self-hosting.md'), 'utf8');
  /** The text under a `## ` heading, to the next one. */
  const section = (heading: string) => {
    const start = docs.indexOf(`\n## ${heading}\n`);
    expect(start, heading).toBeGreaterThan(0);
    const end = docs.indexOf('\n## ', start + 1);
    return docs.slice(start, end < 0 ? undefined : end);
  };

  it('compose commands are written one way (docker compose) and Debian’s docker-compose, as tested above, is said once to work in its place', () => {
    const docker = section('Docker');
    const typed = [...docker.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).filter((l) => l.startsWith('docker'));
    expect(typed.length).toBeGreaterThan(0);
    for (const line of typed) expect(line).toMatch(/^docker compose /);
    expect(docker.match(/with\s+Debian's `docker-compose` package \(Compose v1\) type `docker-compose` instead/g) ?? []).toHaveLength(1);
    // compose.yaml's own comments, the same way.
    for (const line of fs
      .readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8')
      .split('\n')
      .filter((l) => /docker.compose/.test(l)))
      expect(line).toMatch(/docker compose /);
  });

  it('moving the data directory: the receipt keys’ file (signing-key.json) moves with the ledger', () => {
    const keyFile = path.basename(keyFileFor('/data'));
    const moving = docs.slice(docs.indexOf('**Moving the data directory**'));
    const paragraph = moving.slice(0, moving.indexOf('\n\n')).replace(/\s+/g, ' ');
    expect(paragraph).toContain(`move the receipt keys' file \`${keyFile}\` with the ledger`);
    const row = docs.split('\n').find((l) => l.startsWith('| `DATA_DIR` |'))!;
    expect(row).toContain(`moving it, move \`${keyFile}\` with the ledger`);
  });
});
