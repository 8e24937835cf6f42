import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { testPostgres } from '../helpers/postgres.js';
import { tmpDb, tmpDir } from '../helpers/tmp.js';
import { FakeDiscord, lockedChannelOf, PERMISSION_MANAGE_GUILD, slashCommand } from './fake-discord.js';

// The bot as a process manager runs it: `npm start` (node dist/main.js, built by `npm run build`).
// MORALE_APP_DIR points at a production install (`npm ci --omit=dev` in a clean copy, as .ci/run
// makes one); without it, this checkout as tests/setup/build.ts built it.
const ROOT = path.resolve(__dirname, '../..');
const APP = process.env.MORALE_APP_DIR ? path.resolve(process.env.MORALE_APP_DIR) : ROOT;
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.PROC00.TheProcessTestTokenMustNeverBeLogged987';
const GUILD = '900000000000000001';
let fake: FakeDiscord;

beforeAll(async () => {
  fake = await new FakeDiscord([GUILD]).start();
}, 120_000);
afterAll(async () => fake?.stop());

const envFor = (db: string) => ({ ...process.env, DISCORD_TOKEN: TOKEN, DISCORD_API_BASE: fake.apiBase, DATABASE_PATH: db, LOG_LEVEL: 'debug' });

function start(command: string, args: string[], db: string): { child: ChildProcess; out: { stderr: string; stdout: string }; exited: Promise<number | null> } {
  const child = spawn(command, args, { cwd: APP, env: envFor(db), stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stderr: '', stdout: '' };
  child.stderr!.on('data', (d) => (out.stderr += d));
  child.stdout!.on('data', (d) => (out.stdout += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { child, out, exited };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The bot's JSON log lines with this message. */
const logged = (stderr: string, msg: string): Record<string, any>[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>)
    .filter((l) => l.msg === msg);

describe('the bot as its own process', () => {
  it('npm start: connects, answers, is healthy, backs up online, and stops on SIGTERM sent to npm itself', async () => {
    const db = tmpDb();
    // The GMs' channel is one the bot may not post in: the failed post's error echoes the token.
    const setup = Ledger.open(db);
    setup.settings.setGmChannel(GUILD, lockedChannelOf(GUILD));
    setup.close();
    const { child, out, exited } = start('npm', ['start'], db);
    await expect.poll(() => out.stderr.includes('connected to Discord'), { timeout: 60_000 }).toBe(true);
    const cb = await fake.send(slashCommand('rally', { disorder: 1, unit: 'Rifles' }, { member: { id: '300000000000000009', username: 'carol' } }));
    expect(cb.data.embeds[0].title.split(' — ')[0]).toBe('Rally · Rifles');
    const sealed = await fake.send(
      slashCommand('rally', { disorder: 1, unit: 'Hidden', sealed: true }, { member: { id: '300000000000000009', username: 'carol' } }),
    );
    expect(sealed.data.embeds[0].description).toContain('could not be posted');
    // The production logger's redaction (src/main.ts) is all that stands between that error and the log.
    await expect.poll(() => out.stderr.includes('could not post to the GM channel'), { timeout: 60_000 }).toBe(true);
    expect(out.stderr).toContain('request authorised as Bot [redacted]');

    // Health: the heartbeat says connected and writable.
    await expect
      .poll(() => spawnSync('npm', ['run', '--silent', 'health'], { cwd: APP, env: envFor(db), encoding: 'utf8' }).status, { timeout: 60_000 })
      .toBe(0);
    // … and as Docker's HEALTHCHECK runs it: node directly.
    expect(spawnSync(process.execPath, ['dist/src/ops/health.js'], { cwd: APP, env: envFor(db), encoding: 'utf8' }).status).toBe(0);
    // An online backup while the bot runs holds the row.
    const backup = path.join(tmpDir(), 'backup.db');
    const b = spawnSync('npm', ['run', '--silent', 'backup', '--', backup], { cwd: APP, env: envFor(db), encoding: 'utf8' });
    expect(b.status, b.stderr).toBe(0);
    // Owner-only, as the ledger itself.
    expect((fs.statSync(backup).mode & 0o777).toString(8)).toBe('600');
    // The receipt keys go with it: the bot made them on start, beside the ledger.
    expect(b.stdout).toContain(`copied the receipt keys ${path.join(path.dirname(db), 'signing-key.json')} to ${backup}.signing-key.json`);
    expect((fs.statSync(`${backup}.signing-key.json`).mode & 0o777).toString(8)).toBe('600');
    expect(fs.readFileSync(`${backup}.signing-key.json`, 'utf8')).toBe(fs.readFileSync(path.join(path.dirname(db), 'signing-key.json'), 'utf8'));
    const copy = Ledger.open(backup);
    expect(copy.verify(GUILD)).toMatchObject({ ok: true, count: 2 });
    copy.close();

    // A process manager signals the process it started: here, npm. The signal must reach node, which stops.
    const pid = logged(out.stderr, 'starting')[0]!.pid as number;
    child.kill('SIGTERM');
    // Stopped: a process that never stops fails on the test's own limit, never on a clock of ours.
    expect(await exited).not.toBeNull();
    await expect.poll(() => logged(out.stderr, 'shutting down').length, { timeout: 60_000 }).toBe(1);
    await expect.poll(() => alive(pid), { timeout: 60_000 }).toBe(false);
    // LOG_LEVEL=debug adds the per-step detail: each interaction as it arrives, beside its info line.
    expect(logged(out.stderr, 'interaction received').map((l) => l.level)).toEqual(['debug', 'debug']);
    expect(logged(out.stderr, 'interaction').map((l) => l.result)).toEqual(['ok', 'ok']);
    // The bot logs to stderr only; npm's own `> start` banner is all stdout holds.
    expect(out.stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('> '))).toEqual([]);
    expect(out.stderr).not.toContain(TOKEN);
    for (const line of out.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{')))
      expect(() => JSON.parse(line)).not.toThrow();
    // Stopped: no heartbeat, so unhealthy.
    expect(spawnSync('npm', ['run', '--silent', 'health'], { cwd: APP, env: envFor(db), encoding: 'utf8' }).status).toBe(1);

    const ledger = Ledger.open(db);
    expect(ledger.count(GUILD)).toBe(2);
    expect(ledger.verify(GUILD)).toMatchObject({ ok: true, count: 2 });
    ledger.close();
  }, 120_000);

  it('npm start runs one bundle that still finds what it loads by path: its migrations, the ASL units, the export worker, verify.html and the chart library', async () => {
    // dist/main.js and the chunks it loads (dist/bot-*.js) are esbuild's bundle (src/ops/bundle-main.ts):
    // they import one another and no tsc-built module. Each module's import.meta.url is its tsc-built
    // file's, so a path it resolves must lead where it leads unbundled.
    const bundle = fs.readdirSync(path.join(APP, 'dist')).filter((f) => f === 'main.js' || /^bot-\w+\.js$/.test(f));
    expect(bundle.length).toBeGreaterThan(1);
    for (const f of bundle) {
      // discord.js requires @discordjs/rest (CommonJS): an import of it would load its ES build too.
      expect(fs.readFileSync(path.join(APP, 'dist', f), 'utf8'), f).not.toMatch(/from\s*["']@discordjs\/rest["']/);
      const relative = [...fs.readFileSync(path.join(APP, 'dist', f), 'utf8').matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']*)["']/g)].map((m) => m[1]);
      expect(
        relative.filter((r) => !/^\.\/bot-\w+\.js$/.test(r!)),
        f,
      ).toEqual([]);
    }
    const db = tmpDb();
    const { child, out, exited } = start('npm', ['start'], db);
    await expect.poll(() => out.stderr.includes('connected to Discord'), { timeout: 60_000 }).toBe(true);
    const gm = { id: '300000000000000011', username: 'referee', permissions: PERMISSION_MANAGE_GUILD };
    // A fresh file: the migrations made the tables the roll is written to. Three players (a GM's
    // second command within the second would be rate-limited).
    // The ASL units (units.json): the squad's morale level comes from the table.
    const mc = await fake.send(slashCommand('mc', { unit: 'American 6-6-6' }, { member: { id: '300000000000000012', username: 'dana' } }));
    // The dice are the bot's own: an Original 2 or 12 adds steps (Heat of Battle, Casualty Reduction), each under its heading.
    const results = (mc.data.embeds[0].fields as { name: string; value: string }[]).filter((f) => /(^| · )Result$/.test(f.name));
    expect(results.map((f) => f.value).join('\n'), JSON.stringify(mc.data.embeds[0])).toMatch(/ML 6\b/);
    const exported = await fake.send(slashCommand('export', {}, { member: gm }), 20_000);
    expect(exported.files.map((f: { filename: string }) => f.filename)).toEqual([
      expect.stringMatching(/\.csv$/),
      expect.stringMatching(/\.jsonl$/),
      'verify.html',
    ]);
    const odds = slashCommand('odds', {}, { member: { id: '300000000000000013', username: 'erin' } });
    odds.data.options = [{ name: 'roll', type: 3, value: 'rally disorder:2' }] as never;
    expect((await fake.send(odds)).files).toEqual([expect.objectContaining({ filename: 'odds.png', png: true })]);
    child.kill('SIGTERM');
    // Stopped: a process that never stops fails on the test's own limit, never on a clock of ours.
    expect(await exited).not.toBeNull();
    expect(logged(out.stderr, 'interaction').map((l) => l.result)).toEqual(['ok', 'ok', 'ok']);
  }, 120_000);

  it('when whatever reads its stderr goes away, the bot does not spin: SIGTERM still stops it at once', async () => {
    const db = tmpDb();
    const { child, out, exited } = start(process.execPath, ['dist/main.js'], db);
    await expect.poll(() => out.stderr.includes('connected to Discord'), { timeout: 60_000 }).toBe(true);
    // The reader goes away; the shutdown's own log line then meets a broken pipe (EPIPE).
    child.stderr!.destroy();
    child.stdout!.destroy();
    child.kill('SIGTERM');
    // Exit code 0; a bot left spinning on the broken pipe never exits, and fails on the test's own limit.
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(path.dirname(db), 'health.json'))).toBe(false);
  }, 120_000);

  it('npm run keys: show makes the key owner-only and registers it; rotate retires it, both kept in the ledger', () => {
    const db = tmpDb();
    const keys = (action: string) =>
      spawnSync('npm', ['run', '--silent', 'keys', '--', action], { cwd: APP, env: { ...envFor(db), DISCORD_TOKEN: '' }, encoding: 'utf8' });
    const shown = keys('show');
    expect(shown.status, shown.stderr).toBe(0);
    const first = /^in use {2}([0-9a-f]{16}) /.exec(shown.stdout)![1]!;
    expect((fs.statSync(path.join(path.dirname(db), 'signing-key.json')).mode & 0o777).toString(8)).toBe('600');
    const rotated = keys('rotate');
    expect(rotated.status, rotated.stderr).toBe(0);
    expect(rotated.stdout).toMatch(new RegExp(`^retired ${first} `, 'm'));
    const second = /^in use {2}([0-9a-f]{16}) /m.exec(rotated.stdout)![1]!;
    expect(rotated.stdout).toContain(`rotated: ${second} is the key in use; restart the bot to sign with it.`);
    const ledger = Ledger.open(db);
    expect(ledger.keys.list().map((k) => [k.fingerprint, k.valid_until === null])).toEqual([
      [first, false],
      [second, true],
    ]);
    ledger.close();
    expect(keys('bogus').status).toBe(2);
  });

  it('the built console and verifier run without dev tools', () => {
    const db = tmpDb();
    const r = spawnSync(process.execPath, ['dist/src/console/main.js', '--json', '--db', db], {
      cwd: APP,
      input: '/rally disorder:1 unit:Rifles\n',
      encoding: 'utf8',
      env: { ...process.env, DISCORD_TOKEN: '' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ ok: true, command: 'rally', system: 'hearts-of-tin' });
    // The verifier a GM runs on an export: the shipped sample (14 rows, games and sealed rolls).
    const exported = path.join(ROOT, 'tests/fixtures/sample-export.jsonl');
    const v = spawnSync(process.execPath, ['dist/src/verify/main.js', exported], { cwd: APP, encoding: 'utf8' });
    expect(v.status, v.stderr + v.stdout).toBe(0);
    expect(v.stdout).toContain('verified: all holds');
    // A committed receipt against its key, and one character changed: valid, then refused.
    const key = fs.readFileSync(path.join(ROOT, 'tests/fixtures/sample-receipt.key'), 'utf8').trim();
    const receipt = path.join(ROOT, 'tests/fixtures/sample-receipt.txt');
    const ok = spawnSync('npm', ['run', '--silent', 'verify', '--', '--receipt', receipt, '--key', key], { cwd: APP, encoding: 'utf8' });
    expect(ok.status, ok.stderr + ok.stdout).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe('receipt valid: roll 7x0fxhg1ck signed by key 2927e00073cd3248');
    const changed = fs.readFileSync(receipt, 'utf8').replace('Dice: 4', 'Dice: 6');
    const bad = spawnSync(process.execPath, ['dist/src/verify/main.js', '--receipt', changed, '--key', key], { cwd: APP, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/^receipt REFUSED: its readable lines were changed/);
  });
});

// A DATABASE_URL naming a database the server does not have exited 1, and systemd restarted it every
// 5 s for ever; it is a refusal like a bad setting: exit 78, which the unit does not restart.
const postgres = await testPostgres();
afterAll(() => postgres?.stop());

describe.skipIf(!postgres)('the bot refused by its PostgreSQL server', () => {
  it('DATABASE_URL naming a missing database: exit 78 at start with one line naming the database, never the password', async () => {
    const name = `missing_${randomBytes(4).toString('hex')}`;
    const password = 'never-in-the-log-5150';
    const url = new URL(postgres!.url);
    url.pathname = `/${name}`;
    // trust authentication lets any password in: the server then finds no such database.
    url.password = password;
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: APP,
      env: { ...envFor(tmpDb()), DATABASE_URL: url.toString(), DATA_DIR: tmpDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const code = await exited;
    expect(code).toBe(78);
    // … a status the unit names as one never to restart on.
    const unit = fs.readFileSync(path.join(ROOT, 'deploy/morale-officer.service'), 'utf8');
    const prevented = [...unit.matchAll(/^RestartPreventExitStatus=(.*)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/));
    expect(prevented).toContain(String(code));
    const errors = stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.level === 'error');
    expect(errors.map((l) => [l.msg, l.reason])).toEqual([
      [
        'the ledger was refused',
        `there is no database "${name}" on the PostgreSQL server at ${url.host}: create it (sudo -u postgres createdb --owner=${url.username} ${name}) or correct DATABASE_URL`,
      ],
    ]);
    expect(stderr).not.toContain(password);
  }, 120_000);
});

// Images cannot be built or pulled here, and systemd does not run services here. What can
// be checked is: the paths the Dockerfile, compose file and unit run exist in the production
// install, the image is multi-stage and non-root with the ledger on /data, and the unit verifies.
// A sharded gateway. Discord recommends two shards; each guild's events reach only the
// shard that owns it ((guild_id >> 22) % 2), and both shards write one ledger.
describe('SHARDS: the gateway as several shard processes', () => {
  it('SHARDS=auto: one process per recommended shard, each answering its own guilds into one ledger; SIGTERM stops every shard', async () => {
    const other = String(BigInt(GUILD) + (1n << 22n));
    const sharded = await new FakeDiscord([GUILD, other], { shards: 2 }).start();
    expect(sharded.shardFor(GUILD)).not.toBe(sharded.shardFor(other));
    try {
      const db = tmpDb();
      const child = spawn(process.execPath, ['dist/main.js'], {
        cwd: APP,
        env: { ...envFor(db), DISCORD_API_BASE: sharded.apiBase, SHARDS: 'auto', SHARD_SPAWN_DELAY_MS: '0', METRICS_PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await expect.poll(() => stderr.includes('all shards connected'), { timeout: 60_000 }).toBe(true);
      expect([...sharded.identifiedShards].sort()).toEqual([0, 1]);
      // Each shard process logs its own start; neither is the manager.
      const pids = logged(stderr, 'starting').map((l) => l.pid as number);
      expect(pids).toHaveLength(2);
      expect(pids).not.toContain(child.pid);
      // The manager logs each shard's life, and serves readiness and per-shard status.
      expect(
        logged(stderr, 'shard ready')
          .map((l) => l.shard)
          .sort(),
      ).toEqual([0, 1]);
      const ops = logged(stderr, 'serving metrics and health').find((l) => l.pid === child.pid)!;
      const base = `http://127.0.0.1:${ops.port}`;
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ ready: true, mode: 'shards', serving: true, writable: true });
      const metrics = await (await fetch(`${base}/metrics`)).text();
      for (const shard of [0, 1]) expect(metrics).toContain(`morale_serving{mode="shards",shard="${shard}"} 1`);
      const carol = { id: '300000000000000009', username: 'carol' };
      const a = await sharded.send(slashCommand('rally', { disorder: 1, unit: 'Shard A' }, { member: carol, guildId: GUILD }));
      const b = await sharded.send(slashCommand('rally', { disorder: 1, unit: 'Shard B' }, { member: carol, guildId: other }));
      expect(a.data.embeds[0].title.split(' — ')[0]).toBe('Rally · Shard A');
      expect(b.data.embeds[0].title.split(' — ')[0]).toBe('Rally · Shard B');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      for (const pid of pids) expect(alive(pid), `shard ${pid}`).toBe(false);
      const ledger = Ledger.open(db);
      expect(ledger.count(GUILD)).toBe(1);
      expect(ledger.count(other)).toBe(1);
      expect(ledger.verify(GUILD).ok && ledger.verify(other).ok).toBe(true);
      ledger.close();
    } finally {
      await sharded.stop();
    }
  }, 120_000);
});

describe('the deployment files', () => {
  const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');
  const instructions = (text: string) =>
    text
      .replace(/\\\n/g, ' ')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const [op, ...rest] = l.split(/\s+/);
        return { op: op!.toUpperCase(), args: rest.join(' ') };
      });

  it('Dockerfile: multi-stage on Node 24 LTS, built then pruned, non-root, ledger on /data, node as the entrypoint, a health check that exists', () => {
    const ins = instructions(read('Dockerfile'));
    const froms = ins.filter((i) => i.op === 'FROM');
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) expect(f.args).toMatch(/^node:24-/);
    // The build stage builds with the dev tools, then leaves only what runs.
    expect(ins.filter((i) => i.op === 'RUN').map((i) => i.args)).toContain(
      'npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev --no-audit --no-fund',
    );
    const final = ins.slice(ins.lastIndexOf(froms.at(-1)!));
    expect(final.find((i) => i.op === 'USER')?.args).toBe('node');
    // The ledger's volume, and backups on a volume of their own.
    expect(final.find((i) => i.op === 'VOLUME')?.args).toBe('["/data", "/backups"]');
    expect(final.find((i) => i.op === 'ENV')?.args).toContain('DATABASE_PATH=/data/ledger.db');
    const entry = JSON.parse(final.find((i) => i.op === 'ENTRYPOINT')!.args) as string[];
    // The morale-officer command, starting the bot unless told another command.
    expect(entry).toEqual(['node', 'dist/src/ops/cli.js']);
    expect(JSON.parse(final.find((i) => i.op === 'CMD')!.args)).toEqual(['start']);
    const health = final.find((i) => i.op === 'HEALTHCHECK')!.args;
    const healthCmd = JSON.parse(health.slice(health.indexOf('CMD') + 3).trim()) as string[];
    expect(healthCmd[0]).toBe('node');
    // What the image runs is what the production install built.
    for (const file of [entry[1]!, healthCmd[1]!]) expect(fs.existsSync(path.join(APP, file)), file).toBe(true);
    // Everything the build stage copies is in the repository.
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    for (const copy of ins.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const s of sources)
        expect(
          tracked.some((t) => t === s || t.startsWith(`${s}/`)),
          s,
        ).toBe(true);
    }
  });

  it('package.json: Node 22, 24 and 26 are supported, 20 (ended 2026-04-30) is not; no build tool or type package runs in production', async () => {
    const pkg = JSON.parse(read('package.json'));
    const { satisfies } = await import('semver');
    for (const v of ['22.12.0', '24.0.0', '24.22.3', '26.0.0', '26.12.1']) expect(satisfies(v, pkg.engines.node), v).toBe(true);
    for (const v of ['18.20.0', '20.19.0', '22.11.0']) expect(satisfies(v, pkg.engines.node), v).toBe(false);
    const runtime = Object.keys(pkg.dependencies);
    expect(runtime.filter((d) => d === 'typescript' || d === 'tsx' || d.startsWith('@types/') || d === 'esbuild')).toEqual([]);
    expect(runtime).not.toContain('@stdlib/stats-base-dists-chisquare-cdf');
    expect(pkg.scripts.prepare).toBeUndefined();
  });

  it('compose.yaml builds that image, keeps the ledger on a volume and backups on another, and shows the admin commands', () => {
    const compose = read('compose.yaml');
    expect(compose).toMatch(/^\s+build: \.$/m);
    expect(compose).toMatch(/^\s+DATABASE_PATH: \/data\/ledger\.db$/m);
    expect(compose).toMatch(/^\s+- ledger:\/data$/m);
    expect(compose).toMatch(/^\s+- backups:\/backups$/m);
    expect(compose).toMatch(/^\s+env_file: \.env$/m);
    for (const admin of ['deploy-commands', 'backup /backups/', 'keys show']) expect(compose).toContain(`docker compose run --rm morale-officer ${admin}`);
  });

  it("the environment file is root:morale, mode 640, alike in the unit's header, the admin wrapper and the docs", () => {
    // systemd reads it as root; the wrapper (deploy/morale-officer) reads it as the service's user.
    // Every statement of its owner or mode, in prose wrapped over comment lines or in a command.
    const statements = (text: string) => {
      const flat = text.replace(/^#\s?/gm, '').replace(/`/g, '').replace(/\s+/g, ' ');
      const found: string[] = [];
      for (const m of flat.matchAll(/install -m (\d{3,4})(?: -o (\w+) -g (\w+))? \S+ \/etc\/morale-officer\.env/g))
        found.push(`${m[2] ?? '?'}:${m[3] ?? '?'} ${m[1]}`);
      for (const m of flat.matchAll(/(\w+):(\w+), (?:mode|chmod) (\d{3,4})/g)) found.push(`${m[1]}:${m[2]} ${m[3]}`);
      for (const m of flat.matchAll(/morale-officer\.env \((?:mode )?(\d{3,4})\)|chmod (\d{3,4}) \S*morale-officer\.env/g)) found.push(`? ${m[1] ?? m[2]}`);
      return found;
    };
    const unitHeader = read('deploy/morale-officer.service').split('\n[Unit]')[0]!;
    for (const [name, text] of [
      ['the unit', unitHeader],
      ['the wrapper', read('deploy/morale-officer')],
      ['the docs', read('docs/self-hosting.md')],
    ] as const) {
      expect(statements(text).length, name).toBeGreaterThan(0);
      expect(new Set(statements(text)), name).toEqual(new Set(['root:morale 640']));
    }
    // The unit's install steps make the group before the file is given to it.
    expect(unitHeader.indexOf('useradd')).toBeLessThan(unitHeader.indexOf('-g morale .env /etc/morale-officer.env'));
  });

  const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
  it.skipIf(analyze.status !== 0)('deploy/morale-officer.service passes systemd-analyze verify (and a misspelt key would not)', () => {
    const unit = path.join(ROOT, 'deploy/morale-officer.service');
    const ok = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stderr + ok.stdout).toBe('');
    // The check can fail: systemd only warns (exit 0) on an unknown key, so the output is what counts.
    const bad = path.join(tmpDir(), 'morale-officer.service');
    fs.writeFileSync(bad, read('deploy/morale-officer.service').replace('Type=simple', 'Tpye=simple'));
    expect(spawnSync('systemd-analyze', ['verify', bad], { encoding: 'utf8' }).stderr).toContain("Unknown key 'Tpye'");
    // node itself, by its absolute path (not whatever PATH finds), gets systemd's SIGTERM and runs
    // what the production install built.
    const exec = /^ExecStart=(.*)$/m.exec(read('deploy/morale-officer.service'))![1]!;
    expect(exec).toBe('/usr/bin/node dist/main.js');
    expect(fs.existsSync(path.join(APP, 'dist/main.js'))).toBe(true);
  });

  /** systemd-analyze's overall exposure score for a unit file (0 safest, 10 most exposed). */
  const exposure = (unit: string) => {
    const r = spawnSync('systemd-analyze', ['security', '--offline=true', unit], { encoding: 'utf8' });
    const m = /Overall exposure level for \S+: (\d+\.\d+)/.exec(r.stdout + r.stderr);
    if (!m) throw new Error(`no score in: ${r.stdout}${r.stderr}`);
    return Number(m[1]);
  };
  it.skipIf(analyze.status !== 0)(
    'the unit scores 3.0 or less ("OK") in systemd-analyze security, owner-only files, restarts through any outage but not after a refusal',
    () => {
      const text = read('deploy/morale-officer.service');
      expect(exposure(path.join(ROOT, 'deploy/morale-officer.service'))).toBeLessThanOrEqual(3.0);
      const settings = (key: string) => [...text.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]);
      expect(settings('UMask')).toEqual(['0077']);
      // A start limit would leave the bot stopped for good after an outage of half a minute.
      expect(settings('StartLimitBurst')).toEqual([]);
      expect(settings('StartLimitIntervalSec')).toEqual(['0']);
      expect(settings('Restart')).toEqual(['on-failure']);
      expect(settings('RestartSec')).toEqual(['5']);
      // 78 (EX_CONFIG): a bad setting or token, a damaged, empty or newer ledger; a restart cannot mend those.
      expect(settings('RestartPreventExitStatus')).toEqual(['78']);
      // V8's JIT needs writable, executable memory: this one hardening would stop the bot.
      expect(settings('MemoryDenyWriteExecute')).toEqual([]);
      // The score can fail: without its hardening block the same unit is exposed.
      const bare = path.join(tmpDir(), 'morale-officer.service');
      fs.writeFileSync(bare, text.slice(0, text.indexOf('# Hardening:')) + text.slice(text.indexOf('ReadWritePaths=')));
      expect(exposure(bare)).toBeGreaterThan(7);
    },
  );
});
