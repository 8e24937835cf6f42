import { describe, expect, it } from 'vitest';
import { HOB_LABELS, HOB_ORDER } from '../../src/rules/asl/hob.js';
import { ASL_RALLY_ORDER, CHECK_LABELS, MC_ORDER } from '../../src/rules/asl/mc.js';

// The names /odds and /history show for each result code, pinned word for word (a table a player
// reads, which a mutation of the module-level table would otherwise slip past).
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
    // Every result the odds can show has its name.
    for (const code of [...MC_ORDER, ...ASL_RALLY_ORDER]) expect(CHECK_LABELS[code], code).toBeTruthy();
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
    for (const code of HOB_ORDER) expect(HOB_LABELS[code], code).toBeTruthy();
  });
});
