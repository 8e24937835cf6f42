import { errorReply, message, record, resultMessage } from '../src/core/adjudicate.js';
import { defineSubcommand, type CommandGroup, type Context, type Reply } from '../src/core/command.js';
import { boolean, choice, integer, text } from '../src/core/options.js';
import { mayManage, trackedUnit, writeBack, type Tracked } from '../src/core/roster-unit.js';
import { fatigueChangeEmbed, fatigueStatusEmbed } from '../src/render/wacht-am-rhein.js';
import type { Outcome } from '../src/rules/types.js';
import { applyEvent, EVENT_CODES, recover, STATUSES, type FatigueFinding, type FatigueState, type Strengths } from '../src/rules/wacht-am-rhein/fatigue.js';
import { rosterChoices } from './unit.js';

const SYSTEM = 'wacht-am-rhein';

const common = {
  unit: text({ description: 'The unit, by its roster name', maxLength: 60, autocomplete: true }),
  status: choice({ description: 'Untracked unit: its current fatigue status', choices: STATUSES }),
};
const strengths = {
  attack: integer({ description: 'Untracked unit: attack strength', min: 0, max: 99 }),
  defense: integer({ description: 'Untracked unit: defense strength', min: 0, max: 99 }),
  movement: integer({ description: 'Untracked unit: movement allowance', min: 0, max: 99 }),
};

type Subject = { tracked?: Tracked; name: string | undefined; state: FatigueState; printed?: Strengths };

/** The roster unit named, or an untracked unit described by its options. */
function subject(ctx: Context, o: { unit?: string; status?: FatigueState['status']; attack?: number; defense?: number; movement?: number }, needStrengths: boolean): Subject | string {
  if (o.unit) {
    const tracked = trackedUnit(ctx, SYSTEM, o.unit);
    if (!tracked) return `There is no Wacht am Rhein unit named ${JSON.stringify(o.unit)} in this channel's game. For an untracked unit give \`status\`${needStrengths ? ', `attack`, `defense` and `movement`' : ''} instead.`;
    const f = tracked.unit.fields as Record<string, any>;
    return { tracked, name: tracked.unit.name, state: { status: o.status ?? f.fatigue, mrExemption: Boolean(f.mr_exemption) }, printed: { attack: o.attack ?? f.attack, defense: o.defense ?? f.defense, movement: o.movement ?? f.movement } };
  }
  if (!o.status) return 'Name a roster `unit`, or give an untracked unit\'s `status`.';
  if (needStrengths && (o.attack === undefined || o.defense === undefined || o.movement === undefined)) return 'An untracked unit needs `attack`, `defense` and `movement`.';
  const printed = o.attack !== undefined && o.defense !== undefined && o.movement !== undefined ? { attack: o.attack, defense: o.defense, movement: o.movement } : undefined;
  return { name: undefined, state: { status: o.status, mrExemption: false }, ...(printed ? { printed } : {}) };
}

/** Records the change, writes it back to a tracked unit, and replies. */
function applyChange(ctx: Context, s: Subject, title: string, input: Record<string, unknown>, outcome: Outcome<FatigueFinding>): Reply {
  if (s.tracked && !mayManage(ctx, s.tracked.unit.owner_id)) return errorReply(`Only ${s.tracked.unit.owner_name}, who owns ${s.tracked.unit.name}, or a GM can change it.`);
  const { ledger } = ctx.services;
  const after = outcome.steps[0]!.after;
  const row = ledger.transaction(() => {
    const r = record(ctx, { command: 'fatigue', kind: 'check', unit: s.name, input }, outcome);
    if (s.tracked && (after.status !== s.state.status || after.mrExemption !== s.state.mrExemption)) {
      writeBack(ctx, s.tracked, { fields: { fatigue: after.status, mr_exemption: after.mrExemption }, why: outcome.steps[0]!.effect }, r.id, 'fatigue');
    }
    return r;
  });
  return resultMessage({ row, outcome }, fatigueChangeEmbed({ title, name: s.name, userName: ctx.actor.userName, outcome, row, ...(s.printed ? { printed: s.printed } : {}) }));
}

export default {
  name: 'fatigue',
  description: 'Wacht am Rhein 13.0: fatigue events, the Resting Phase, and a unit\'s effective values',
  system: SYSTEM,
  example: '/fatigue event unit:"1/506 PIR" event:ena_activated',
  subcommands: {
    event: defineSubcommand({
      description: 'Apply an event that fatigues or rests a unit',
      options: { event: choice({ description: 'What happened to the unit', choices: EVENT_CODES, required: true }), ...common },
      run(ctx, o) {
        const s = subject(ctx, o, false);
        if (typeof s === 'string') return errorReply(s);
        return applyChange(ctx, s, 'Fatigue event', o, applyEvent(s.state, o.event));
      },
    }),
    recover: defineSubcommand({
      description: 'The Resting Phase: recover one step if every condition holds',
      options: {
        tactical: boolean({ description: 'It is in Tactical mode (tracked units: from their mode)' }),
        adjacent_enemy: boolean({ description: 'It is adjacent to an enemy unit', required: true }),
        moved: boolean({ description: 'It moved in the Movement Phase', required: true }),
        ...common,
      },
      run(ctx, o) {
        const s = subject(ctx, o, false);
        if (typeof s === 'string') return errorReply(s);
        const mode = s.tracked ? (s.tracked.unit.fields as Record<string, unknown>).mode : undefined;
        const tactical = o.tactical ?? (mode === undefined ? undefined : mode === 'tactical');
        if (tactical === undefined) return errorReply('`tactical` is required for an untracked unit: is it in Tactical mode?');
        return applyChange(ctx, s, 'Resting Phase', { ...o, tactical }, recover(s.state, { tactical, adjacentEnemy: o.adjacent_enemy, moved: o.moved }));
      },
    }),
    status: defineSubcommand({
      description: 'Status, effective strengths and movement, and restrictions',
      options: { ...common, ...strengths },
      run(ctx, o) {
        const s = subject(ctx, o, true);
        if (typeof s === 'string') return errorReply(s);
        return message(fatigueStatusEmbed(s.name, s.printed!, s.state.status, s.state.mrExemption));
      },
    }),
  },
  autocomplete: (ctx, option, value) => (option === 'unit' ? rosterChoices(ctx, value) : []),
} satisfies CommandGroup;
