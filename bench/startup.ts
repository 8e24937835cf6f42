import { spawn } from 'node:child_process';
import path from 'node:path';
import { fmt, type Line, repeated } from './repeat.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Milliseconds from spawning `node <args>` until its stderr holds `ready` (then it is stopped). */
function untilReady(args: string[], env: Record<string, string>, ready: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    const early = (code: number | null) => reject(new Error(`it exited (${code}) before it was ready:\n${err.slice(-2000)}`));
    child.stderr.on('data', (d: Buffer) => {
      err += d;
      if (!err.includes(ready) || !child.listeners('exit').includes(early)) return;
      const ms = performance.now() - t;
      child.off('exit', early);
      child.once('exit', () => resolve(ms));
      child.kill('SIGTERM');
    });
    child.once('exit', early);
  });
}

/**
 * The built bot (what `npm start` runs) from its spawn until it serves interactions, on a
 * ledger of `rows` rows: the start-up's integrity check of the file, its migrations and its key
 * included. HTTP mode and no beacon, so nothing waits on a network this machine lacks. The baseline,
 * in the same trial: a bare Node process printing a line, the least any start costs.
 */
export async function startupLine(ledger: string, rows: number): Promise<Line> {
  const env = {
    DATABASE_PATH: ledger,
    DISCORD_TOKEN: 'MTEwMDAwMDAwMDAwMDAwMDAx.BENCH0.ThisIsNotARealTokenItIsOnlyForTheBench0',
    DISCORD_PUBLIC_KEY: `${'0'.repeat(63)}1`,
    INTERACTIONS_MODE: 'http',
    HTTP_PORT: '0',
    METRICS_PORT: '0',
    BEACON_CHAIN: 'off',
    LOG_LEVEL: 'info',
  };
  const r = await repeated(async () => {
    const bot = await untilReady(['dist/main.js'], env, 'serving interactions over HTTP');
    const bare = await untilReady(['-e', 'process.stderr.write("up\\n"); setInterval(() => {}, 1000)'], {}, 'up');
    return { bot, bare, ratio: bot / bare };
  });
  return {
    what: `start-up: npm start until it serves interactions, on a ledger of ${fmt(rows)} rows`,
    ours: `${fmt(r.med.bot / 1000, 2)} s`,
    baseline: `${fmt(r.med.bare)} ms: a bare Node process up`,
    ratio: r.med.ratio,
    spread: r.spread,
    target: '≤ 3 s',
    met: r.med.bot <= 3000,
  };
}
