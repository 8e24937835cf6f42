import fs from 'node:fs';
import path from 'node:path';
import { createRouter } from '../src/app.js';
import type { Actor, Reply } from '../src/core/command.js';
import { Ledger } from '../src/ledger/ledger.js';
import { createLogger } from '../src/log.js';
import { fmt, type Line, ratioLine, repeated } from './repeat.js';

/**
 * A rule pack's roll against the built-in command it mirrors (issue 42): Lightning War's morale
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
