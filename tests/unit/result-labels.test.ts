import { describe, expect, it } from 'vitest';
import { HOB_LABELS } from '../../src/rules/asl/hob.js';
import { CHECK_LABELS } from '../../src/rules/asl/mc.js';

// The names /odds and /history show for each result code, pinned word for word (a table a player
// reads, which a mutation of the module-level table would otherwise slip past). That every result
// the odds can show has a name is the compiler's: each table is a Record over its result codes.
describe('result names players read', () => {
  it('ASL Morale Check and Rally', () => {
    expect(CHECK_LABELS).toEqual({
      passed: 'Passed',
      pinned: 'Pinned',
      step_reduced: 'Step-Reduced',
      broken: 'Broken',
      wounded: 'Wounded',
      replaced: 'Replaced (ELR)',
      disrupted: 'Disrupted',
      casualty_reduction: 'Casualty Reduction',
      elr_unresolved: 'ELR failure',
      eliminated: 'Eliminated',
      rallied: 'Rallied',
      not_rallied: 'Not rallied',
      fate: 'Fate',
    });
  });

  it('ASL Heat of Battle', () => {
    expect(HOB_LABELS).toEqual({
      hero: 'Hero',
      hero_and_battle_hardening: 'Hero and Battle Hardening',
      battle_hardening: 'Battle Hardening',
      berserk: 'Berserk',
      surrender: 'Surrender',
      disrupted: 'Disrupted',
    });
  });
});
