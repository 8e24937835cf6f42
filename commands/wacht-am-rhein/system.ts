import { choice, integer } from '../../src/core/options.js';
import { defineSystem } from '../../src/core/system.js';
import { refuse } from '../../src/core/user-error.js';
import { capitalized, articleOf } from '../../src/util/text.js';
import { effective, MODES, STATUSES, type FatigueStatus } from '../../src/rules/wacht-am-rhein/fatigue.js';
import fatigue from './fatigue.js';
import { wachtAmRheinTurnEnd } from './turn-end.js';
import { said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';
import { restrictionsText } from '../../src/render/wacht-am-rhein.js';

const RESTRICTED_MODES = ['prepared_assault', 'combat_reserve'];

/** Wacht am Rhein: fatigue, with no dice; its units' effective strengths follow their fatigue. */
export default defineSystem({
  id: 'wacht-am-rhein',
  commands: [fatigue],
  units: {
    label: 'Wacht am Rhein',
    // The MR exemption is armed only by the left_maneuver_reserve event (13.1.3), never by hand.
    fields: {
      attack: integer({ description: 'Attack strength', min: 0, max: 99 }),
      defense: integer({ description: 'Defense strength', min: 0, max: 99 }),
      movement: integer({ description: 'Movement allowance', min: 0, max: 99 }),
      mode: choice({ description: 'Mode', choices: MODES }),
      fatigue: choice({ description: 'Fatigue status', choices: STATUSES }),
    },
    required: ['attack', 'defense', 'movement'],
    defaults: () => ({ mode: 'tactical', fatigue: 'normal', mr_exemption: false }),
    check: (f) => f,
    // 13.1.1: a resting or fatigued unit may not enter PA or Combat Reserve mode (one already in it may stay).
    entering: (before, after) => {
      if (!RESTRICTED_MODES.includes(String(after.mode)) || after.fatigue === 'normal' || before?.mode === after.mode) return;
      const fatigue = String(after.fatigue);
      refuse('fatiguedNoMode', {
        Article: capitalized(articleOf(fatigue)),
        fatigue,
        mode: said(after.mode === 'prepared_assault' ? 'preparedAssault' : 'combatReserve'),
      });
    },
    summary: (f) => {
      const e = effective({ attack: Number(f.attack), defense: Number(f.defense), movement: Number(f.movement) }, f.fatigue as FatigueStatus);
      const printed = `${f.attack}-${f.defense}-${f.movement}`;
      const now = `${e.attack}-${e.defense}-${e.movement}`;
      return say('roster.war', {
        now,
        printed: now !== printed ? say('roster.printed', { values: printed }) : '',
        status: say('war.status', { status: String(f.fatigue) }),
        mode: String(f.mode).replace('_', ' '),
        armed: f.mr_exemption ? 'yes' : 'no',
      });
    },
    details: (f) => (f.fatigue !== 'normal' ? [{ name: say('war.r.restrictions'), value: restrictionsText(f.fatigue as FatigueStatus) }] : []),
  },
  hooks: { turnEnd: wachtAmRheinTurnEnd },
  odds: {},
});
