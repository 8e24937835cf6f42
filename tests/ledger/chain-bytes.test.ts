import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/ledger/chain.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { ledgerEntry } from '../helpers/ledger.js';
import { tmpDb } from '../helpers/tmp.js';
import { appendLegacy } from '../helpers/legacy-rows.js';

// Moving to a new Node and new majors of the libraries the chain's bytes pass through
// (canonicalize, better-sqlite3, nanoid) must not change one hash a player was ever shown. The
// hashes below were computed before the upgrade (Node 20, canonicalize 4, better-sqlite3 12) and
// are written here as text: they are never read from the code under test.
const AWKWARD = {
  text: 'Łódź 4-6-7 · “quoted” \\ back / slash \u0007 bell \u2028 line sep',
  emoji: '🎲 die, 𝔘 astral',
  numbers: [0, -0, 1e21, 1e-7, 123456789.125, -4, 2 ** 53 - 1],
  nested: { z: 1, a: [true, false, null], é: 'accent key', '10': 'digit key', B: 'upper' },
};

describe('the chain bytes across upgrades', () => {
  it('canonical JSON of awkward values is byte for byte what it was', () => {
    expect(canonicalJson(AWKWARD)).toBe(
      '{"emoji":"🎲 die, 𝔘 astral","nested":{"10":"digit key","B":"upper","a":[true,false,null],"z":1,"é":"accent key"},"numbers":[0,0,1e+21,1e-7,123456789.125,-4,9007199254740991],"text":"Łódź 4-6-7 · “quoted” \\\\ back / slash \\u0007 bell \u2028 line sep"}',
    );
  });

  it('a fixed ledger written as before person fields were committed has the head hash it had before the upgrade', () => {
    let tick = Date.UTC(2026, 10, 30, 12, 0, 0);
    const at = () => {
      tick += 1_000;
      return new Date(tick).toISOString();
    };
    // Rows of that format are still verified as they were hashed (a pinned head must stay checkable).
    const ledger = Ledger.open(tmpDb());
    appendLegacy(ledger, ledgerEntry({ id: 'fixedrow01', input: AWKWARD, unit: 'Łódź 🎲' }), at());
    appendLegacy(ledger, ledgerEntry({ id: 'fixedrow02', parentId: 'fixedrow01', kind: 'reroll', onceKey: 'reroll:fixedrow01', dice: [6, 1] }), at());
    appendLegacy(ledger, ledgerEntry({ id: 'fixedrow03', gameId: 'fixedgame1', turn: 3, phase: 'Rally Phase', gameSeq: 1, dice: [2, 5] }), at());
    const report = ledger.verify('g1');
    expect(report).toEqual({ ok: true, count: 3, headHash: '50face7a13d3928d6f0e2a6c07f50b72e453a3e2ffe568a0070734e84731a381' });
    ledger.close();
  });

  it('the committed sample export still verifies, with the head hash it was made with', () => {
    const report = verifyExport(fs.readFileSync('tests/fixtures/sample-export.jsonl', 'utf8'));
    expect(report.ok).toBe(true);
    expect(report.chains.map((c) => c.report)).toEqual([{ ok: true, count: 14, headHash: '656328c9f8d327da6d49ae6259c75ce98df0c039910b3a3d8a53fda41bd1f338' }]);
  });
});
