import { EVERYONE } from '../../src/core/access.js';
import { record } from '../../src/core/record.js';
import { message, resultMessage } from '../../src/core/replies.js';
import { gameNote, readScope, type Scope } from '../../src/core/games.js';
import { unitOfWork, type TxScope } from '../../src/core/unit-of-work.js';
import { refuse } from '../../src/core/user-error.js';
import { defineSubcommand, type CommandGroup, type Context, type Reply } from '../../src/core/command.js';
import { boolean, choice, integer, text, type ParsedOptions } from '../../src/core/options.js';
import { trackedUnit, writeBack, type Tracked } from '../../src/core/roster-unit.js';
import type { Game } from '../../src/ledger/roster.js';
import { fatigueChangeEmbed, fatigueStatusEmbed } from '../../src/render/wacht-am-rhein.js';
import type { Outcome } from '../../src/rules/types.js';
import {
  applyEvent,
  EVENT_CODES,
  exemptible,
  isEnaPhase,
  isRestingPhase,
  needsOverkillBy,
  positionKey,
  OVERKILL_BY,
  recover,
  STATUSES,
  type FatigueFinding,
  type FatigueState,
  type Strengths,
} from '../../src/rules/wacht-am-rhein/fatigue.js';
import { rosterChoices } from '../../src/core/unit-option.js';
import { quoted, userText } from '../../src/render/embed.js';
import { command, option, said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

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

/**
 * The roster unit named, or an untracked unit described by its options (a name not on the roster
 * is kept with the ruling). `status` describes an untracked unit only: a roster unit's status is
 * its own, changed by events and recoveries.
 */
async function subject(
  scope: Scope,
  ctx: Context,
  o: { unit?: string; status?: FatigueState['status']; attack?: number; defense?: number; movement?: number },
  purpose: 'write' | 'read',
  needStrengths: boolean,
): Promise<Subject> {
  const tracked = o.unit ? await trackedUnit(scope, ctx, o.unit, purpose) : undefined;
  if (tracked) {
    const f = tracked.unit.fields as Record<string, any>;
    if (o.status !== undefined && o.status !== f.fatigue) {
      refuse('statusForUntracked', { status: option('status'), unit: userText(tracked.unit.name), fatigue: String(f.fatigue), edit: command('unit edit') });
    }
    return {
      tracked,
      name: tracked.unit.name,
      state: { status: f.fatigue, mrExemption: Boolean(f.mr_exemption) },
      printed: { attack: o.attack ?? f.attack, defense: o.defense ?? f.defense, movement: o.movement ?? f.movement },
    };
  }
  if (!o.status) {
    const names = { status: option('status'), attack: option('attack'), defense: option('defense'), movement: option('movement') };
    if (!o.unit) refuse('nameAUnit', { unit: option('unit'), status: names.status });
    refuse(needStrengths ? said('noWarUnitStrengths', { name: quoted(o.unit), ...names }) : said('noWarUnit', { name: quoted(o.unit), status: names.status }));
  }
  if (needStrengths && (o.attack === undefined || o.defense === undefined || o.movement === undefined))
    refuse('untrackedStrengths', { attack: option('attack'), defense: option('defense'), movement: option('movement') });
  const printed =
    o.attack !== undefined && o.defense !== undefined && o.movement !== undefined ? { attack: o.attack, defense: o.defense, movement: o.movement } : undefined;
  return { name: o.unit, state: { status: o.status, mrExemption: false }, ...(printed ? { printed } : {}) };
}

/** Records the change and writes it back to a tracked unit, in the command's unit of work; and replies. */
async function applyChange(
  at: TxScope,
  ctx: Context,
  s: Subject,
  title: string,
  input: Record<string, unknown>,
  outcome: Outcome<FatigueFinding>,
  how: {
    /** Roster fields the change sets beside the status (the exemption's bookkeeping, recovered_in). */
    extra?: Record<string, unknown>;
    /** Said under the ruling: an option the roster overrode. */
    note?: string | undefined;
    /** The event, as the event table words it. */
    event?: string;
  } = {},
): Promise<Reply> {
  const extra = how.extra ?? {};
  const after = outcome.steps[0]!.after;
  const row = await record(at.tx, ctx, { command: 'fatigue', kind: 'check', unit: s.name, input }, outcome, [], at);
  if (s.tracked && (after.status !== s.state.status || after.mrExemption !== s.state.mrExemption || Object.keys(extra).length)) {
    const fields = { fatigue: after.status, mr_exemption: after.mrExemption, ...extra };
    await writeBack(at.tx, ctx, s.tracked, { fields, why: outcome.steps[0]!.effect }, row.id, 'fatigue');
  }
  const embed = fatigueChangeEmbed({
    title,
    name: s.name,
    userName: ctx.actor.userName,
    outcome,
    row,
    ...(s.printed ? { printed: s.printed } : {}),
    ...(how.event ? { event: how.event } : {}),
  });
  const notes = [how.note, gameNote(at, SYSTEM)].filter(Boolean).map((n) => `*${n}*`);
  return resultMessage({ row, outcome, scope: at }, notes.length ? { ...embed, description: [embed.description, ...notes].filter(Boolean).join('\n') } : embed);
}

/** The MR exemption of a tracked unit as it stands at the game's position: armed, bound to this ENA, or over. */
function exemptionNow(s: Subject, game: Game | undefined): { valid: boolean; bind?: string; ended?: boolean } {
  const f = s.tracked?.unit.fields as Record<string, any> | undefined;
  if (!f?.mr_exemption || !game) return { valid: s.state.mrExemption };
  const here = positionKey(game);
  if (!isEnaPhase(game.phase)) return { valid: true };
  if (f.mr_ena && f.mr_ena !== here) return { valid: false, ended: true };
  // The first possible ENA after leaving MR is this one, unless it left MR during this very ENA.
  if (f.mr_armed === here) return { valid: false };
  return { valid: true, ...(f.mr_ena ? {} : { bind: here }) };
}

const eventOptions = {
  event: choice({ description: 'What happened to the unit', choices: EVENT_CODES, required: true }),
  ...common,
  by: choice({ description: "Overkill: from the unit's own attack or the enemy's GA/Barrage (13.1.3)", choices: OVERKILL_BY }),
};

const recoverOptions = {
  tactical: boolean({ description: 'It is in Tactical mode (tracked units: from their mode)' }),
  adjacent_enemy: boolean({ description: 'It is adjacent to an enemy unit', default: false }),
  moved: boolean({ description: 'It moved in the Movement Phase', required: true }),
  ...common,
};

/** /fatigue event, decided from the unit and game read in its unit of work. */
async function fatigueEvent(at: TxScope, ctx: Context, o: ParsedOptions<typeof eventOptions>): Promise<Reply> {
  if (o.by !== undefined && o.event !== 'overkill') refuse('byOverkillOnly', { by: option('by') });
  const s = await subject(at, ctx, o, 'write', false);
  const game = s.tracked?.game ?? at.game;
  const mode = s.tracked ? (s.tracked.unit.fields as Record<string, unknown>).mode : undefined;
  if (o.event === 'left_maneuver_reserve' && s.tracked && mode !== 'maneuver_reserve') {
    refuse('notInMr', { unit: userText(s.tracked.unit.name), mode: String(mode ?? 'no').replace('_', ' ') });
  }
  const ex = exemptionNow(s, game);
  const state = { ...s.state, mrExemption: ex.valid };
  const where = { inEna: isEnaPhase(game?.phase), overkillBy: o.by };
  if (needsOverkillBy(state, o.event, where)) {
    refuse('mrExempt', { unit: s.name ? userText(s.name) : said('theUnit'), by: option('by') });
  }
  const outcome = applyEvent(state, o.event, where);
  const extra: Record<string, unknown> = {};
  if (o.event === 'left_maneuver_reserve' && s.tracked) Object.assign(extra, { mode: 'tactical', mr_armed: game ? positionKey(game) : null, mr_ena: null });
  else if (ex.ended) Object.assign(extra, { mr_exemption: false, mr_ena: null });
  else if (ex.bind && exemptible(o.event)) Object.assign(extra, { mr_ena: ex.bind });
  // What the rules read as the state is what the roster keeps (an exemption that ended is cleared).
  const fixed = ex.ended ? { ...outcome, steps: [{ ...outcome.steps[0]!, after: { ...outcome.steps[0]!.after, mrExemption: false } }] } : outcome;
  return applyChange(at, ctx, s, say('war.r.eventTitle'), { ...o, in_ena: isEnaPhase(game?.phase) }, fixed, {
    extra,
    event: say(`war.event.${o.event}`, { by: o.by ?? 'untold' }),
  });
}

/** /fatigue recover, decided from the unit and game read in its unit of work. */
async function fatigueRecover(at: TxScope, ctx: Context, o: ParsedOptions<typeof recoverOptions>): Promise<Reply> {
  const s = await subject(at, ctx, o, 'write', false);
  const f = s.tracked?.unit.fields as Record<string, unknown> | undefined;
  const mode = f?.mode;
  // A tracked unit's mode is the roster's; `tactical` describes an untracked unit only.
  const tactical = s.tracked && mode !== undefined ? mode === 'tactical' : o.tactical;
  if (tactical === undefined) refuse('tacticalRequired', { tactical: option('tactical') });
  const note =
    s.tracked && mode !== undefined && o.tactical !== undefined
      ? say('war.r.tacticalIgnored', {
          tactical: option('tactical'),
          given: String(o.tactical),
          unit: userText(s.tracked.unit.name),
          mode: String(mode).replace(/_/g, ' '),
        })
      : undefined;
  // One step per Resting Phase (13.1.2): a tracked unit recovers in the game's Resting Phase, once.
  let extra: Record<string, unknown> = {};
  if (s.tracked) {
    const g = s.tracked.game;
    if (!isRestingPhase(g.phase)) {
      const when =
        g.turn === null ? said('noTurnYet') : g.phase ? said('atTurnPhase', { turn: g.turn, phase: userText(g.phase) }) : said('atTurn', { turn: g.turn });
      refuse('recoveryNotResting', { game: userText(g.name), when, turn: command('game turn') });
    }
    const here = positionKey(g);
    if (f?.recovered_in === here) refuse('recoveredThisPhase', { unit: userText(s.tracked.unit.name), turn: String(g.turn) });
    extra = { recovered_in: here };
  }
  const outcome = recover(s.state, { tactical, adjacentEnemy: o.adjacent_enemy, moved: o.moved });
  // Only a step taken uses up the phase; a refused or needless recovery leaves it open.
  if (outcome.steps[0]!.after.status === s.state.status) extra = {};
  return applyChange(at, ctx, s, say('war.r.restingTitle'), { ...o, tactical }, outcome, { extra, note });
}

export default {
  name: 'fatigue',
  description: "Wacht am Rhein 13.0: fatigue events, the Resting Phase, and a unit's effective values",
  system: SYSTEM,
  example: '/fatigue status unit:"1/506 PIR" status:fatigued attack:7 defense:5 movement:6',
  subcommands: {
    event: defineSubcommand({
      description: 'Apply an event that fatigues or rests a unit',
      access: EVERYONE,
      options: eventOptions,
      run: (ctx, o) => unitOfWork(ctx, SYSTEM, (at) => fatigueEvent(at, ctx, o)),
    }),
    recover: defineSubcommand({
      description: 'The Resting Phase: recover one step if every condition holds',
      access: EVERYONE,
      options: recoverOptions,
      run: (ctx, o) => unitOfWork(ctx, SYSTEM, (at) => fatigueRecover(at, ctx, o)),
    }),
    status: defineSubcommand({
      description: 'Status, effective strengths and movement, and restrictions',
      access: EVERYONE,
      options: { ...common, ...strengths },
      async run(ctx, o) {
        const s = await subject(await readScope(ctx, SYSTEM), ctx, o, 'read', true);
        return message(fatigueStatusEmbed(s.name, s.printed!, s.state.status, s.state.mrExemption));
      },
    }),
  },
  autocomplete: (ctx, option, value) => (option === 'unit' ? rosterChoices(ctx, value) : []),
} satisfies CommandGroup;
