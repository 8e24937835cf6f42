import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { playConsole } from '../helpers/console.js';
import { tmpDir } from '../helpers/tmp.js';

// A GM installs a pack from a file in the console, and its command then works in that
// console's ledger like any other: its odds, a roll with pinned dice, the refusals.

describe('rule packs in the console', () => {
  it('installs from path:, shows the odds, rolls, and names a file it cannot read', () => {
    const db = path.join(tmpDir(), 'packs.db');
    const out = playConsole(
      db,
      [
        'as referee gm',
        '/pack install path:packs/warhammer-break.yaml',
        '/warhammer-break leadership:8 lost_by:2 odds_only:true',
        '/warhammer-break leadership:8 lost_by:2',
        '/warhammer-break lost_by:2',
        '/pack install path:no-such-pack.yaml',
      ],
      [3, 4],
    );
    expect(out[1]!.embed.description).toMatch(
      /^`\/warhammer-break \[leadership:\] lost_by: \[stubborn:\] \[unit:\] \[sealed:\] \[note:\] \[odds_only:\]` — Warhammer — break test \(version 1/,
    );
    // Leadership 8, lost by 2: 6 or less holds, 15/36; a double 1 of those is Insane courage.
    expect(out[2]!.embed.description).toBe(
      [
        'leadership 8 · lost by 2 · stubborn no',
        '',
        '**Insane courage** — 1/36 (2.8%)',
        '**Holds** — 7/18 (38.9%)',
        '**Breaks and flees** — 7/12 (58.3%)',
        '',
        '*Nothing was rolled or recorded.*',
      ].join('\n'),
    );
    expect(out[3]).toMatchObject({ ok: true, command: 'warhammer-break', system: 'pack:warhammer-break', result: 'fail' });
    expect(out[3]!.steps[0]).toMatchObject({ dice: [3, 4], final: 7, label: 'Breaks and flees', target: { base: 8, value: 6 } });
    expect(out[4]).toMatchObject({ ok: false, error: '/warhammer-break: leadership is needed: give it, or name a unit that has leadership.' });
    expect(out[5]).toMatchObject({ ok: false, error: 'cannot read no-such-pack.yaml: ENOENT' });
  });
});
