import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { tmpDb } from '../helpers/tmp.js';
import { playConsole } from '../helpers/console.js';

// An ASL game's every roll on record, typed into the console as a club would (--json,
// dice fed with --dice): SANs set, sides joined, 40 DRs and drs of every category with each note
// worked out by hand below, a sealed roll revealed, a voided one, and the dice report by side.

const play = playConsole;

/** One /dr of the script: the line, its dice (coloured first), and the notes worked out by hand. */
type Roll = { line: string; dice: number[]; notes: string[]; drm?: number };
const r = (line: string, dice: number[], notes: string[] = [], drm?: number): Roll => ({ line, dice, notes, ...(drm === undefined ? {} : { drm }) });

// SAN: Axis 3, Allied 4. Hans plays Axis, Joe Allied.
const AXIS: Roll[] = [
  r('/dr category:IFT', [1, 1], ['Cower if MMC without a leader (A7.9)', 'Unlikely Kill vs * (A7.309)']),
  r('/dr category:IFT', [3, 3], ['Cower if MMC without a leader (A7.9)']),
  r('/dr category:IFT note:"8 FP vs 2-4-7"', [1, 2], ['Axis SAN']),
  r('/dr category:TH unit:"Pz IVH"', [2, 5], ['Turret']),
  r('/dr category:TH', [5, 2], ['Hull']),
  r('/dr category:TH', [1, 1], ['Hull', 'Unlikely Hit (C3.6)', 'Critical Hit (C3.7)', 'Multiple Hits 15–40mm (C3.8)']),
  r('/dr category:TH drm:-1', [4, 4], ['Hull', 'Multiple Hits 15–40mm (C3.8)'], -1),
  r('/dr category:TK', [6, 6], ['Dud (C7.35)']),
  r('/dr category:TK', [1, 2]), // 3 is the Axis SAN, but a To Kill never flags one
  r('/dr category:MC', [1, 1], ['Heat of Battle (A15.1)']),
  r('/dr category:MC', [6, 6], ['Casualty MC (A10.31)']),
  r('/dr category:Rally', [1, 1], ['Heat of Battle (A15.1) or Field Promotion (A18.11)']),
  r('/dr category:Rally', [6, 6], ['Fate: Casualty Reduction (A10.64)']),
  r('/dr category:Rally', [2, 2]), // 4 is the Allied SAN, but a Rally never flags one
  r('/dr category:CC', [1, 1], ['Infiltration (A11.22), Field Promotion (A18.12), Unlikely Kill (A11.501)']),
  r('/dr category:CC', [6, 6], ['Infiltration (A11.22)']),
  r('/dr category:SA', [3]), // a dr is never a SAN
  r('/dr category:RS', [5]),
  r('/dr dice:dr', [2]),
  r('/dr', [2, 2], ['Allied SAN']), // whoever rolls
];

const GM_AS = 'as referee gm';
// Booby traps as the GM sets them between Joe's Task Checks: A springs on 11 and 12, B on 11, C on 12.
const ALLIED: (Roll | string)[] = [
  `${GM_AS}\n/game booby_traps axis:A allied:none\nas joe`,
  r('/dr category:TC', [5, 6], ['Axis booby trap']),
  r('/dr category:TC', [6, 6], ['Axis booby trap']),
  `${GM_AS}\n/game booby_traps axis:B allied:none\nas joe`,
  r('/dr category:TC', [5, 6], ['Axis booby trap']),
  r('/dr category:TC', [6, 6]),
  `${GM_AS}\n/game booby_traps axis:C allied:C\nas joe`,
  r('/dr category:TC', [6, 6], ['Axis/Allied booby trap']),
  r('/dr category:TC', [5, 6]),
  r('/dr category:TC', [2, 2], ['Allied SAN']),
  r('/dr category:IFT', [2, 1], ['Axis SAN']),
  r('/dr category:TH', [6, 1], ['Hull']),
  r('/dr category:TH', [3, 6], ['Turret']),
  r('/dr category:MC', [3, 4]),
  r('/dr category:CC', [2, 1]), // 3, the Axis SAN: never flagged on a Close Combat DR
  r('/dr category:SA', [6]),
  // A Sniper Attack dr of 1 shows its note (A14.3).
  r(
    '/dr category:SA',
    [1],
    [
      'Sniper attack: eliminates an SMC, a Dummy stack or a Sniper; stuns and recalls a CE crew; breaks an MMC or a vehicle’s inherent crew; immobilizes an unarmored vehicle (A14.3)',
    ],
  ),
  r('/dr category:RS', [4]),
  r('/dr category:other', [5, 6]),
  r('/dr category:IFT sealed:true', [4, 5]), // revealed below
  r('/dr category:TK', [3, 3]),
  r('/dr category:MC', [5, 5]), // voided below
  r('/dr category:IFT', [6, 6], ['Cower if MMC without a leader (A7.9)']),
];

describe('an ASL game with every roll on record, through the console', () => {
  it('40 DRs and drs of every category, each note as worked out, a sealed one revealed, a voided one, and the report by side', () => {
    const db = tmpDb();
    const rolls = [...AXIS, ...ALLIED.filter((x): x is Roll => typeof x !== 'string')];
    expect(rolls).toHaveLength(40);
    expect(new Set(rolls.map((x) => /category:(\w+)/.exec(x.line)?.[1] ?? 'other'))).toEqual(
      new Set(['IFT', 'TH', 'TK', 'MC', 'TC', 'Rally', 'CC', 'SA', 'RS', 'other']),
    );
    const lines = [
      'as hans',
      '/game start system:asl name:Arnhem',
      '/game san axis:3 allied:4',
      '/game join side:axis',
      ...AXIS.map((x) => x.line),
      'as joe',
      '/game join side:allied',
      ...ALLIED.flatMap((x) => (typeof x === 'string' ? x.split('\n') : [x.line])),
    ].flatMap((l) => l.split('\n'));
    const out = play(
      db,
      lines,
      rolls.flatMap((x) => x.dice),
    );
    expect(out.filter((o) => !o.ok)).toEqual([]);
    const replies = out.filter((o) => o.command === 'dr');
    expect(replies).toHaveLength(40);
    for (const [i, o] of replies.entries()) {
      const want = rolls[i]!;
      if (o.sealed) {
        expect(want.line).toContain('sealed:true');
        continue;
      }
      const original = want.dice.reduce((a, b) => a + b, 0);
      expect(o, want.line).toMatchObject({ dice: want.dice, original, final: original + (want.drm ?? 0), notes: want.notes, result: String(original) });
      // The embed says the same, word for word: the coloured die first, then the white.
      const [c, w] = want.dice;
      expect(o.embed.description).toMatch(
        w === undefined ? new RegExp(`^coloured . \\*\\*${c}\\*\\*\\n`) : new RegExp(`^coloured . \\*\\*${c}\\*\\* · white . \\*\\*${w}\\*\\*\\n`),
      );
      const field = o.embed.fields.find((f: { name: string }) => f.name === 'Notes');
      expect(field?.value ?? '').toBe(want.notes.map((n) => `• ${n}`).join('\n'));
    }
    expect(replies[6]!.embed.description).toContain('Original **8** · DRM `−1` · Final **7**');
    expect(replies[2]!.embed.description).toContain('*8 FP vs 2-4-7*');
    expect(replies[0]!.embed.fields.at(-1)).toEqual({ name: 'Odds', value: 'Original 2: 1/36 (2.78%) · 2 or lower: 1/36 (2.78%)', inline: false });

    // The sealed roll is revealed with its notes (none: a 9 on the IFT); the MC of 10 is voided.
    const sealedId = replies[36]!.roll_id as string;
    const voidId = replies[38]!.roll_id as string;
    const gameId = /game (\w+)/.exec(out[1]!.embed.footer.text)![1]!;
    const after = play(db, [
      'as referee gm',
      `/reveal id:${sealedId}`,
      `/void id:${voidId} reason:"rolled for the wrong squad"`,
      `/stats game:${gameId} by:side`,
      `/history category:TC`,
    ]);
    expect(after[1]).toMatchObject({ command: 'dr', dice: [4, 5], original: 9, final: 9, notes: [], category: 'IFT' });
    // Worked out by hand. Axis DRs: 2 6 3 7 7 2 8 12 3 2 12 2 12 4 2 12 4 → 17 rolls, 100, mean 5.88;
    // drs: 3 5 2 → mean 3.33. Allied DRs, the revealed 9 in and the voided 10 out: 11 12 11 12 12 11
    // 4 3 7 9 7 3 11 9 6 12 → 16 rolls, 140, mean 8.75; drs: 6 1 4 → mean 3.67.
    const report = after[3]!.embed.description as string;
    expect(report.split('\n').slice(0, 6)).toEqual([
      '39 rolls on record · this channel',
      '',
      '**2d6** · Axis — 17 rolls, mean 5.88 (exact 7.00); too few rolls to tell (17 of 142 needed)',
      '**2d6** · Allied — 16 rolls, mean 8.75 (exact 7.00); too few rolls to tell (16 of 142 needed)',
      '**1d6** · Allied — 3 rolls, mean 3.67 (exact 3.50); too few rolls to tell (3 of 39 needed)',
      '**1d6** · Axis — 3 rolls, mean 3.33 (exact 3.50); too few rolls to tell (3 of 39 needed)',
    ]);
    // Two groups far below n* are not compared by a test.
    expect(report).toContain('**2d6** · Axis vs Allied: too few rolls to compare (17 and 16; 142 each needed)');
    expect(report).toContain('**1d6** · Allied vs Axis: too few rolls to compare (3 and 3; 39 each needed)');
    expect(after[4]!.embed.footer.text).toContain('7 rolls');

    const ledger = Ledger.open(db);
    try {
      expect(ledger.verify('console-guild').ok).toBe(true);
    } finally {
      ledger.close();
    }
  });
});
