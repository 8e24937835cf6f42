import { describe, expect, it } from 'vitest';
import { verifyExport } from '../../src/verify/verify-export.js';
import { lf, realExport, rehash, rowsOf, SAMPLE } from '../helpers/verify-corpus.js';

// Every lookup inside its own guild's chain. A forged guild on its own genesis chain
// (rehashed here, as a forger would) must neither switch a check off nor borrow a real guild's
// rows. Each report is written out whole: one lookup scoped to every guild again changes a line.

const sample = rowsOf(SAMPLE);
const end = sample.find((x) => x.result === 'game_ended')!;
const GUILD = 'guild fixture-guild: chain intact, 14 rows, head hash 656328c9f8d327da6d49ae6259c75ce98df0c039910b3a3d8a53fda41bd1f338';
const GAME_HOLDS = "game e9e5f62qmz: seed matches its commitment; all 3 rolls' dice recomputed and equal; numbered 1..3 with no gap";

describe('a second guild in the export', () => {
  it('ending a real game with no seed, placed before the real guild: named, and the real game still checked from its own end', () => {
    const forgedEnd = rehash([{ ...end, id: 'forgedend1', guild_id: 'forged', guild_seq: 1, input: { ...end.input, server_seed: null } }]);
    const r = verifyExport(`${lf(forgedEnd)}${SAMPLE}`);
    expect(r.ok).toBe(false);
    expect(r.lines).toEqual([
      'guild forged: chain intact, 1 rows, head hash 4c2f02851ea3c9dbd76e3fd6291f96b9e1dcdc9712ff54b15f979b8c0e6f5806',
      GUILD,
      'game e9e5f62qmz: FAILED: row forgedend1 in guild forged belongs to it, but it did not start in that guild (it started in guild fixture-guild)',
      GAME_HOLDS,
    ]);
  });

  it("a plain roll of the game's system, channel id and time in another guild is not the game's business", () => {
    const inGame = sample.find((x) => x.kind === 'roll' && x.game_id)!;
    // Three, at positions 1 to 3 of their guild: inside the game's span of positions (2 to 13) in its own.
    const other = rehash(
      [1, 2, 3].map((n) => ({ ...inGame, id: `otherroll${n}`, guild_id: 'other', guild_seq: n, game_id: null, turn: null, phase: null, game_seq: null })),
    );
    const lines = SAMPLE.trim().split('\n');
    const r = verifyExport(`${lines.slice(0, 5).join('\n')}\n${lf(other)}${lines.slice(5).join('\n')}\n`);
    expect(r.lines).toEqual([
      GUILD,
      'guild other: chain intact, 3 rows, head hash ecf118290f0d3f28e19ee6b0fbf8d9d0bdcf4aa88137ed95fd594404188af57e',
      GAME_HOLDS,
    ]);
    expect(r.ok).toBe(true);
  });

  it("a reveal that opens a real guild's sealed roll with other dice: there is no such sealed roll in its own guild", async () => {
    const real = await realExport();
    const reveal = rowsOf(real.text).find((x) => x.kind === 'reveal')!;
    const payload = { ...reveal.input.payload, dice: [6] };
    const forged = rehash([{ ...reveal, id: 'forgedrev1', guild_id: 'forged', guild_seq: 1, input: { ...reveal.input, payload } }]);
    const r = verifyExport(`${real.text}${lf(forged)}`);
    expect(r.ok).toBe(false);
    expect(r.lines.filter((l) => l.startsWith('reveal'))).toEqual([
      `reveal forgedrev1: FAILED: there is no sealed roll ${real.sealedId} in its guild forged (a row of that id is in guild g1)`,
    ]);
  });
});

describe('a game whose dice cannot be recomputed', () => {
  it('fails when it ended with no seed revealed; only a game still running may leave its dice unchecked', () => {
    const all = rowsOf(SAMPLE);
    all.find((x) => x.result === 'game_ended')!.input.server_seed = null;
    const r = verifyExport(lf(rehash(all)));
    expect(r.ok).toBe(false);
    expect(r.lines).toEqual([
      'guild fixture-guild: chain intact, 14 rows, head hash 96a9dd8161339b0a35f6db3b4fa096a1ec87248fcc0e095b38d9643ca3cd0d3d',
      'game e9e5f62qmz: FAILED: the game ended (row 7s2jwpekcr) but its end row reveals no server seed: its dice cannot be recomputed',
    ]);
    const running = verifyExport(lf(rowsOf(SAMPLE).filter((x) => x.result !== 'game_ended')));
    expect(running.ok).toBe(true);
    expect(running.lines[1]).toBe('game e9e5f62qmz: 3 rolls numbered 1..3; seed not revealed (game still running, or not in this export): dice not checked');
  });
});
