import { describe, expect, it, vi } from 'vitest';
import { packProblems } from '../../src/rules/packs/check.js';
import { checkPackRolls } from '../../src/verify/pack-rolls.js';
import { packExport, rowsOf } from '../helpers/verify-corpus.js';

// The pack checks are counted: a verifier re-adjudicates each pack roll alone, and checks a pack
// once by its hash, however many rolls, servers or runs read it.
vi.mock('../../src/rules/packs/check.js', async (original) => {
  const real = await original<typeof import('../../src/rules/packs/check.js')>();
  return { ...real, packProblems: vi.fn(real.packProblems) };
});

describe('the verifiers check a pack once by its hash', () => {
  it('two servers with the same pack, their rolls, and a second run: one check', async () => {
    const rows = rowsOf(await packExport()).filter((r) => 'hash' in r);
    // The same pack and rolls on a second server's chain (the checker reads each row as it comes).
    const other = rows.map((r) => ({ ...r, id: `x${r.id}`, guild_id: 'g2', input: retarget(r.input) }));
    vi.mocked(packProblems).mockClear();
    const first = checkPackRolls([...rows, ...other] as never);
    const again = checkPackRolls([...rows, ...other] as never);
    expect([first.ok, again.ok, first.lines[0]]).toEqual([true, true, 'pack rolls: 4 re-adjudicated from their dice, input and pack row; all hold']);
    expect(vi.mocked(packProblems)).toHaveBeenCalledTimes(1);
  });
});

/** A roll's input naming the second server's copy of its pack row. */
function retarget(input: any) {
  return input?.pack?.row ? { ...input, pack: { ...input.pack, row: `x${input.pack.row}` } } : input;
}
