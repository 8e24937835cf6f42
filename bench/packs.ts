import fs from 'node:fs';
import path from 'node:path';
import { createRouter } from '../src/app.js';
import type { Actor, Reply } from '../src/core/command.js';
import { Ledger } from '../src/ledger/ledger.js';
import { createLogger } from '../src/log.js';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fmt, type Line, ratioLine, repeated } from './repeat.js';

/**
 * A rule pack's roll against the built-in command it mirrors: Lightning War's morale
 * check as a pack (tests/fixtures/packs) and the built-in /morale, the same 300 checks through the
 * router onto a SQLite file each, one after another. What a pack adds: its pack rows read for each
 * command (a partial index), its options typed from the file, its odds worked from the pack.
 */

const ROLLS = 300;
const actor: Actor = { guildId: 'g1', channelId: 'c1', userId: 'p1', userName: 'P1', isGm: true };
const MORALES = ['shaken', 'leery', 'professional', 'resolved', 'fanatic'];
const COVERS = ['none', 'soft', 'hard'];

async function run(dir: string, name: string, rep: number, command: string, install?: string): Promise<number> {
  const ledger = Ledger.open(path.join(dir, `packs-${name}-${rep}.db`));
  const router = createRouter({ ledger, log: createLogger({ level: 'silent' }) });
  if (install) {
    const files = { f: { name: 'pack.yaml', size: Buffer.byteLength(install), text: install } };
    const r = await router.handle({ type: 'command', name: 'pack', subcommand: 'install', options: { file: 'f' }, actor, files });
    if (r.type !== 'message') throw new Error(`install: ${JSON.stringify(r)}`);
  }
  const t = performance.now();
  for (let i = 0; i < ROLLS; i++) {
    const options = { morale: MORALES[i % 5], cover: COVERS[i % 3] };
    const reply: Reply = await router.handle({ type: 'command', name: command, options, actor });
    if (reply.type !== 'message') throw new Error(`/${command}: ${JSON.stringify(reply)}`);
  }
  const ms = performance.now() - t;
  ledger.close();
  return ms;
}

export async function packLines(dir: string): Promise<Line[]> {
  const pack = fs.readFileSync('tests/fixtures/packs/lightning-war-morale.yaml', 'utf8');
  // A warm-up of each, so neither pays the first compile of its code.
  await run(dir, 'warm-builtin', 0, 'morale');
  await run(dir, 'warm-pack', 0, 'lw-morale', pack);
  const r = await repeated(async (rep) => {
    const builtIn = await run(dir, 'builtin', rep, 'morale');
    const packed = await run(dir, 'pack', rep, 'lw-morale', pack);
    return { builtIn: builtIn / ROLLS, packed: packed / ROLLS, ratio: packed / builtIn };
  });
  return [
    ratioLine(
      `a rule pack's roll (Lightning War's morale check as a pack) against the built-in /morale, ${fmt(ROLLS)} checks one after another, SQLite`,
      r.med.ratio,
      r.spread,
      { ours: `${fmt(r.med.packed * 1000)} µs a roll`, baseline: `${fmt(r.med.builtIn * 1000)} µs a roll: the built-in /morale, the same checks` },
      ['≤', 1.5],
    ),
  ];
}

/** A pack of 64 KiB: the proof pack, its rules unchanged, after a club's notes on it (YAML comments) up to the size limit. */
function paddedPack(pack: string): string {
  const note = (n: number) => `# Club note ${n}: how we read this table in our games, which counters it covers, and the errata we apply.\n`;
  let notes = '';
  for (let n = 1; Buffer.byteLength(notes + note(n) + pack) < 65_000; n++) notes += note(n);
  return notes + pack;
}

/** One install through the router (its check runs on a worker thread): the time it took, and the event loop's longest hold meanwhile. */
async function installOnce(dir: string, name: string, rep: number, text: string): Promise<{ ms: number; loopMax: number }> {
  const ledger = Ledger.open(path.join(dir, `install-${name}-${rep}.db`));
  const router = createRouter({ ledger, log: createLogger({ level: 'silent' }) });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t = performance.now();
  const files = { f: { name: 'pack.yaml', size: Buffer.byteLength(text), text } };
  const r = await router.handle({ type: 'command', name: 'pack', subcommand: 'install', options: { file: 'f' }, actor, files });
  const ms = performance.now() - t;
  loop.disable();
  ledger.close();
  if (r.type !== 'message') throw new Error(`install of ${name}: ${JSON.stringify(r)}`);
  return { ms, loopMax: loop.max / 1e6 };
}

/**
 * `/pack install` of the largest shipped example, of the heaviest pack to check (the Lightning War
 * proof pack), and of a pack at the 64 KiB limit: each under a second, the event loop never held
 * more than 50 ms (the check runs on a worker thread). The baseline is the same install's check
 * alone, on this thread (loadPack), so the ratio is what the worker and the router add.
 */
export async function installLines(dir: string): Promise<Line[]> {
  const shipped = fs.readdirSync('packs').map((f) => path.join('packs', f));
  const largest = shipped.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0]!;
  const proof = fs.readFileSync('tests/fixtures/packs/lightning-war-morale.yaml', 'utf8');
  const cases: [string, string][] = [
    [`the largest shipped example (${path.basename(largest)})`, fs.readFileSync(largest, 'utf8')],
    ['the Lightning War proof pack (the most checking work)', proof],
    ['a 64 KiB pack (the proof pack after 64 KiB of club notes)', paddedPack(proof)],
  ];
  const { loadPack } = await import('../src/rules/packs/load.js');
  const lines: Line[] = [];
  for (const [name, text] of cases) {
    await installOnce(dir, 'warm', 0, text);
    const r = await repeated(async (rep) => {
      const alone = performance.now();
      loadPack(text, new Map());
      const check = performance.now() - alone;
      const { ms, loopMax } = await installOnce(dir, name.replace(/\W+/g, '-'), rep, text);
      return { ms, loopMax, check, ratio: ms / check };
    });
    lines.push({
      what: `/pack install of ${name}, ${fmt(Buffer.byteLength(text))} bytes`,
      ours: `${fmt(r.med.ms)} ms; event loop held at most ${fmt(r.med.loopMax)} ms`,
      baseline: `${fmt(r.med.check)} ms: its check alone, on this thread`,
      ratio: r.med.ratio,
      spread: r.spread,
      target: '≤ 1,000 ms; loop ≤ 50 ms',
      met: r.med.ms <= 1000 && r.med.loopMax <= 50,
    });
  }
  return lines;
}
