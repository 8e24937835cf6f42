import fs from 'node:fs';
import { forgedHash } from './forge.js';
import path from 'node:path';
import type { Reply } from '../../src/core/command.js';
import { GENESIS_HASH } from '../../src/ledger/chain.js';
import { attachmentData } from '../../src/core/command.js';
import { alice, command, gm, testApp } from './app.js';

/**
 * The exports both verifiers are tried on: the Node verifier's tests and verify.html in
 * real Chromium read the same texts, and each must give the same verdict and name the same row.
 * `says` is a line (or part of one) the report must hold, written here by hand.
 */
export type ExportFixture = { name: string; text: string; ok: boolean; says: string; head?: string };

const ROOT = path.resolve(import.meta.dirname, '../..');
const SAMPLE = fs.readFileSync(path.join(ROOT, 'tests/fixtures/sample-export.jsonl'), 'utf8');
type R = Record<string, any>;
const rows = (text = SAMPLE): R[] =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const join = (all: R[]) => `${all.map((x) => JSON.stringify(x)).join('\n')}\n`;

/** An operator's edit made whole again: every hash recomputed, so the chain holds and only the promise can fail. */
function rehash(all: R[]): R[] {
  let prev = GENESIS_HASH;
  for (const r of all.filter((x) => !('signing_key' in x)).sort((a, b) => a.guild_seq - b.guild_seq)) {
    r.prev_hash = prev;
    r.hash = forgedHash(prev, r as never);
    prev = r.hash;
  }
  return all;
}

/** A small real export with a sealed roll and its reveal, made through the router. */
async function sealedExport(): Promise<string> {
  const app = testApp();
  app.dice.push(4, 2);
  const sealed = (await command(app, alice, 'rally', { disorder: 1, unit: 'Hidden', sealed: true })) as Extract<Reply, { type: 'message' }>;
  await command(app, alice, 'reveal', { id: sealed.record!.roll_id });
  await command(app, alice, 'rally', { disorder: 1, unit: 'Open' });
  const exported = (await command(app, gm, 'export', {})) as Extract<Reply, { type: 'message' }>;
  const text = attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
  app.ledger.close();
  return text;
}

export async function exportFixtures(): Promise<ExportFixture[]> {
  const s = rows();
  const edited = rows();
  edited[4]!.user_name = 'referez';
  const deleted = rows();
  deleted.splice(6, 1);
  const rigged = rows();
  const roll = rigged.find((x) => x.game_seq === 1)!;
  roll.dice = [roll.dice[0] === 6 ? 1 : roll.dice[0] + 1, ...roll.dice.slice(1)];
  rehash(rigged);
  const gap = rows();
  const stream = gap.filter((x) => typeof x.game_seq === 'number').sort((a, b) => a.guild_seq - b.guild_seq);
  stream[1]!.game_seq = 3;
  stream[2]!.game_seq = 4;
  rehash(gap);
  const sealed = await sealedExport();
  const badReveal = rows(sealed);
  const reveal = badReveal.find((x) => x.kind === 'reveal')!;
  reveal.input.payload.dice = [6];
  rehash(badReveal);
  return [
    { name: 'the intact sample', text: SAMPLE, ok: true, says: `guild ${s[0]!.guild_id}: chain intact, 14 rows, head hash ${s[13]!.hash}` },
    { name: 'a pinned head it extends', text: SAMPLE, ok: true, head: s[9]!.hash, says: `pinned head ${s[9]!.hash}: found at position 10` },
    { name: 'an edited row', text: join(edited), ok: false, says: `chain BROKEN at row ${s[4]!.id} (position 5): hash does not match the row contents` },
    { name: 'a deleted row', text: join(deleted), ok: false, says: `chain BROKEN at row ${s[7]!.id} (position 8)` },
    { name: 'a rigged die, re-hashed', text: join(rigged), ok: false, says: `roll ${roll.id} (game roll 1) has dice` },
    { name: 'a gap in the game sequence, re-hashed', text: join(gap), ok: false, says: 'is game roll 3 where 2 was due' },
    { name: 'a sealed roll and its reveal', text: sealed, ok: true, says: 'chain intact, 3 rows' },
    { name: 'a reveal that does not open its commitment, re-hashed', text: join(badReveal), ok: false, says: `reveal ${reveal.id}: FAILED` },
    { name: 'a line that is not JSON', text: `${SAMPLE}not json\n`, ok: false, says: 'line 15 is not a JSON object' },
  ];
}
