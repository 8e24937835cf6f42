import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, slashCommand } from './fake-discord.js';

// "Self-hosted in five minutes", measured. From a fresh copy of the repository to a roll
// answered, using only the commands README's "Run it on Discord" lists, against the local fake
// Discord. The install step (`npm ci`) is the one thing not run here: it downloads, and CI's fresh
// machine times it on its own (.ci/run); node_modules is this checkout's, linked in.
const ROOT = path.resolve(__dirname, '../..');
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FIVE00.TheFiveMinuteTestTokenMustNeverBeLogged98';
const GUILD = '900000000000000005';
let fake: FakeDiscord;
let dir: string;
beforeAll(async () => {
  fake = await new FakeDiscord([GUILD], { token: TOKEN }).start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-fresh-'));
}, 120_000);
afterAll(async () => {
  await fake?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** README's "Run it on Discord": its numbered steps and the commands they give. */
function readmeSteps() {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Run it on Discord'), readme.indexOf('\n## ', readme.indexOf('## Run it on Discord') + 5));
  const steps = section.split('\n').filter((l) => /^\d+\. /.test(l));
  const commands = [...section.matchAll(/`(npm [^`]+)`/g)].map((m) => m[1]!);
  return { steps, commands };
}

/** A command as a newcomer runs it in the copy, not blocking this process (the fake Discord lives here). */
function run(line: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], { cwd: dir, env });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (status) => resolve({ status, out }));
  });
}

describe('from a fresh clone to a roll answered, as README says', () => {
  it('README takes a newcomer there in at most six steps, with the commands this test runs', () => {
    const { steps, commands } = readmeSteps();
    expect(steps.length).toBeLessThanOrEqual(6);
    expect(commands).toEqual(['npm ci && npm run build && npm prune --omit=dev', 'npm run setup', 'npm start']);
  });

  it('build, setup, start: the bot answers a roll (each step timed)', async () => {
    // A fresh clone: the committed files, as .ci/run copies them.
    execFileSync('sh', ['-c', `git ls-files -z | tar --null -T - -cf - | tar -xf - -C ${dir}`], { cwd: ROOT });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const env: NodeJS.ProcessEnv = { ...process.env, DISCORD_API_BASE: fake.apiBase };
    for (const k of Object.keys(env)) if (k.startsWith('DISCORD_') && k !== 'DISCORD_API_BASE') delete env[k];
    const times: Record<string, number> = {};
    const timed = async (name: string, line: string) => {
      const t = Date.now();
      const r = await run(line, env);
      times[name] = Date.now() - t;
      expect(r.status, `${line}\n${r.out}`).toBe(0);
      return r.out;
    };
    // README's step 3 without npm ci (see above) and without pruning the shared node_modules.
    await timed('build', 'npm run build');
    const setup = await timed('setup', `npm run --silent setup -- --token ${TOKEN} --guild-id ${GUILD}`);
    expect(setup).toContain(`Registered ${fake.registered.get(`guild:${GUILD}`)!.length} commands to server ${GUILD}.`);
    expect((fs.statSync(path.join(dir, '.env')).mode & 0o777).toString(8)).toBe('600');
    const started = Date.now();
    const bot = spawn('npm', ['start'], { cwd: dir, env, detached: true });
    let log = '';
    bot.stderr.on('data', (d) => {
      log += d;
    });
    try {
      await expect.poll(() => log.includes('connected to Discord'), { timeout: 60_000 }).toBe(true);
      times.start = Date.now() - started;
      const t = Date.now();
      const cb = await fake.send(slashCommand('rally', { disorder: 1, unit: 'Rifles' }, { member: { id: '300000000000000009', username: 'carol' } }));
      times.roll = Date.now() - t;
      expect(cb.data.embeds[0].title).toMatch(/^Rally · Rifles/);
    } finally {
      process.kill(-bot.pid!, 'SIGTERM');
    }
    console.log(`five minutes: build ${times.build} ms, setup ${times.setup} ms, start to ready ${times.start} ms, first roll ${times.roll} ms`);
  }, 300_000);
});
