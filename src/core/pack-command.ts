import { EVERYONE } from './access.js';
import { customId, defineCommand, type AnyCommand, type Context } from './command.js';
import { boolean, choice, integer, text, type OptionMap } from './options.js';
import { installedPacks, type InstalledPack } from './packs.js';
import { message, rollMessage } from './replies.js';
import { rollAndRecord } from './roll.js';
import { refuse } from './user-error.js';
import { packEmbed, packOddsEmbed } from '../render/pack.js';
import type { LedgerRow } from '../ledger/rows.js';
import { memo, oddsOf } from '../rules/odds.js';
import { readScope } from './games.js';
import { trackedUnit, type Tracked } from './roster-unit.js';
import type { RosterEffect } from './roll.js';
import { unitChoicesFor, unitOption } from './unit-option.js';
import { changedUnit, resolveInput, type ResolvedInput, type UnitValues } from '../rules/packs/input.js';
import { isSaid } from '../i18n/said.js';
import type { PackInput } from '../rules/packs/modifiers.js';
import { packDistribution, packOrder } from '../rules/packs/odds.js';
import { rollPack, type PackOutcome, type RollStart } from '../rules/packs/roll.js';
import { diceOf } from '../rules/packs/dice.js';
import { scopeOf } from '../rules/packs/scope.js';
import { rerollOffer } from '../rules/packs/reroll.js';
import type { Pack } from '../rules/packs/load.js';
import { sum } from '../rules/types.js';
import { clip, type Button } from '../render/embed.js';
import type { APIEmbed } from 'discord.js';
import type { PackReroll } from '../render/pack.js';
import { shapeOf } from '../rules/dice/expression.js';
import type { DeclaredTally } from '../ledger/tally.js';
import type { PackOption } from '../rules/packs/schema.js';
import { packSystem } from '../rules/systems.js';
import type { Outcome } from '../rules/types.js';
import { turnLapse } from './offer-lapse.js';

/** A pack roll's outcome on the chain: the pack's outcome, under the pack's system. */
export type PackRollOutcome = PackOutcome & Outcome & { tally: DeclaredTally };

/** What a pack roll's row holds as its input: the pack row it used, the options as settled, and the note. */
export type PackRollInput = {
  pack: { id: string; version: number; row: string; sha256: string };
  options: PackInput;
  /** Options taken from the named roster unit, and those given over the unit's value. */
  from_unit?: string[];
  overridden?: string[];
  note?: string;
  sealed?: true;
  /** The named unit's fields before the roll: a field's bound fires on them (the verifiers read them too). */
  unit_values?: Record<string, number | string>;
  /** A re-roll: the roll it replaces, and the test it rolls. */
  reroll?: { of: string; test: string };
};

/** One pack option as a slash-command option: required only when it has no default and no unit to take it from. */
function optionSpec(o: PackOption) {
  const description = o.description ?? o.name.replaceAll('_', ' ');
  const presence = o.default === undefined && o.from_unit === undefined ? { required: true as const } : {};
  if (o.type === 'integer') return integer({ description, min: o.min, max: o.max, ...presence });
  if (o.type === 'boolean') return boolean({ description, ...presence });
  const values = o.choices.map((c) => (typeof c === 'string' ? c : c.value)) as [string, ...string[]];
  const spec = choice({ description, choices: values, ...presence });
  // A choice's label is what the player's client shows; its value is what the pack reads.
  const labels = o.choices.map((c) => (typeof c === 'string' ? { name: c, value: c } : { name: c.label, value: c.value }));
  return { ...spec, toSlash: (name: string) => ({ ...spec.toSlash(name), choices: labels }) };
}

/** The options of a pack's command: its own, then the bot's unit, sealed, note and odds_only. */
export function packOptions(pack: InstalledPack['pack']): OptionMap {
  const own = Object.fromEntries(pack.options.map((o) => [o.name, optionSpec(o)]));
  return {
    ...own,
    unit: unitOption(),
    sealed: boolean({ description: 'Sealed: only GMs see the result until /reveal' }),
    note: text({ description: 'A note kept with the roll (why it was rolled)', maxLength: 200 }),
    odds_only: boolean({ description: 'Show the exact odds of every result for these options; nothing is rolled' }),
  };
}

/** How a pack's command is typed: its options in order, the optional ones in brackets (`/nerve-test nerve: [pins:] …`). */
export function packUsage(pack: InstalledPack['pack']): string {
  const options = Object.entries(packOptions(pack)).map(([name, o]) => (o.required ? `${name}:` : `[${name}:]`));
  return `/${pack.pack} ${options.join(' ')}`;
}

/** The options the player gave, as the pack reads them (the bot's own options left out). */
function givenOptions(ctx: Context, pack: InstalledPack['pack'], o: Record<string, unknown>) {
  return Object.fromEntries(pack.options.filter((p) => ctx.given.has(p.name)).map((p) => [p.name, o[p.name] as string | number | boolean]));
}

/** The button under a roll that offers its pack's re-roll (one action for every pack: the roll id names the pack). */
export const PACK_REROLL = 'pack_reroll';

export const packEmbedOf = (installed: InstalledPack, row: LedgerRow, reroll?: PackReroll) =>
  packEmbed({
    pack: installed.pack,
    ...(row.unit ? { unit: row.unit } : {}),
    userName: row.user_name,
    input: (row.input as PackRollInput).options,
    sources: { fromUnit: (row.input as PackRollInput).from_unit ?? [], overridden: (row.input as PackRollInput).overridden ?? [] },
    outcome: row.outcome as PackRollOutcome,
    row,
    ...(reroll ? { reroll } : {}),
  });

/** A stored pack roll as its message: the roll, the re-roll taken on it, and the re-roll button while it is offered. */
async function stored(ctx: Context, installed: InstalledPack, row: LedgerRow, fresh = false): Promise<{ embed: APIEmbed; buttons: Button[] }> {
  const input = row.input as PackRollInput;
  const offer = row.kind === 'roll' && row.outcome ? rerollOffer(installed.pack, row.outcome as PackRollOutcome, input.options) : undefined;
  if (!offer) return { embed: packEmbedOf(installed, row), buttons: [] };
  // A roll just made has no re-roll or void yet: no need to look.
  const children = fresh ? [] : await ctx.services.ledger.children(row.guild_id, row.id);
  const taken = children.find((r) => r.kind === 'reroll');
  const reroll = taken && { label: offer.reroll.label, userName: taken.user_name, row: taken, outcome: taken.outcome as PackRollOutcome };
  const open = !taken && !children.some((r) => r.kind === 'void') && (fresh || !(await turnLapse(ctx.services.ledger, row)));
  return {
    embed: packEmbedOf(installed, row, reroll),
    buttons: open ? [{ custom_id: customId(PACK_REROLL, row.id), label: clip(offer.reroll.label, 80), style: 'primary' }] : [],
  };
}

/** The roll's inputs: the options given, then the named roster unit's fields for `from_unit` options. */
function settled(ctx: Context, pack: InstalledPack['pack'], o: Record<string, unknown>, tracked: Tracked | undefined): ResolvedInput {
  const resolved = resolveInput(pack, givenOptions(ctx, pack, o), unitValues(tracked));
  if (isSaid(resolved)) refuse('packRefused', { pack: pack.pack, why: resolved });
  return resolved;
}

/** What a roll does to its roster unit, as data: its fields changed (within their bounds), or the unit removed. */
export function packEffects(pack: InstalledPack['pack'], tracked: Tracked | undefined, out: PackRollOutcome): RosterEffect[] {
  if (!tracked || !out.unit) return [];
  const before = tracked.unit.fields as Record<string, number | string>;
  const next = changedUnit(pack, before, out.unit);
  const why = out.steps.at(-1)!.label;
  if (!next) return [{ tracked, change: { remove: true, why } }];
  const fields = Object.fromEntries(Object.entries(next).filter(([k, v]) => before[k] !== v));
  return Object.keys(fields).length ? [{ tracked, change: { fields, why } }] : [];
}

/**
 * Commands already built, by the pack row they come from: a command's option specs (their zod
 * schemas) are built once per installed pack, not on every roll of it.
 */
const built = memo<AnyCommand>(256);

/** The slash command an installed pack adds to its server (built once per pack row). */
export const packCommand = (installed: InstalledPack): AnyCommand => built(`${installed.rowId}:${installed.sha256}`, () => buildPackCommand(installed));

function buildPackCommand(installed: InstalledPack): AnyCommand {
  const { pack } = installed;
  const system = packSystem(pack.pack);
  const order = packOrder(pack);
  return defineCommand({
    name: pack.pack,
    description: pack.description,
    system,
    example: `/${pack.pack}`,
    access: EVERYONE,
    options: packOptions(pack),
    async run(ctx, o) {
      const unit = o.unit as string | undefined;
      if (o.odds_only) {
        const tracked = await trackedUnit(await readScope(ctx, system), ctx, unit, 'read');
        const { input } = settled(ctx, pack, o, tracked);
        return message(packOddsEmbed(pack, input, packDistribution(pack, input, unitStart(tracked)), order));
      }
      const found = await rollAndRecord(ctx, system, async (at) => {
        // In a game of this pack, a named unit is read and written in the roll's transaction (its owner or a GM).
        const tracked = await trackedUnit(at, ctx, unit);
        const { input, fromUnit, overridden } = settled(ctx, pack, o, tracked);
        const meta: PackRollInput = {
          pack: { id: pack.pack, version: pack.version, row: installed.rowId, sha256: installed.sha256 },
          options: input,
          ...(fromUnit.length ? { from_unit: fromUnit } : {}),
          ...(overridden.length ? { overridden } : {}),
          ...(o.note ? { note: o.note as string } : {}),
          // As every sealed roll's input says it (the reveal and the review read it there).
          ...(o.sealed === true ? { sealed: true } : {}),
          ...(tracked ? { unit_values: { ...unitValues(tracked) } } : {}),
        };
        const from = unitStart(tracked);
        return {
          meta: { command: pack.pack, kind: 'roll', unit, input: meta, sealed: o.sealed === true },
          rules: (dice): PackRollOutcome => withTally(pack, input, rollPack(pack, input, dice, from)),
          odds: (out) => oddsOf(packDistribution(pack, input, from), order.order, out.result),
          effects: (out) => packEffects(pack, tracked, out),
        };
      });
      const { embed, buttons } = await stored(ctx, installed, found.row, true);
      return rollMessage(ctx, o.sealed === true, found, embed, buttons);
    },
    autocomplete: unitChoicesFor(system),
    renderStored: (ctx, row) => stored(ctx, installed, row),
  });
}

const unitValues = (tracked: Tracked | undefined) => tracked?.unit.fields as UnitValues | undefined;
const unitStart = (tracked: Tracked | undefined): RollStart => (tracked ? { unit: unitValues(tracked)! } : {});

/** A pack outcome on the chain: under the pack's system, with what the dice report counts (the first test's dice: a follow-up's depend on it). */
export function withTally(pack: Pack, input: PackInput, rolled: PackOutcome): PackRollOutcome {
  const first = rolled.steps[0]!;
  const test = pack.tests[first.kind]!;
  const shape = shapeOf(diceOf(test, scopeOf(input, {})));
  // A counted test's total is a count: the report reads the dice's own sum.
  return { ...rolled, system: packSystem(pack.pack), tally: { shape, total: test.count ? sum(first.kept) : first.original } };
}

/** The command a server knows by a stored row's name: a built-in one, or a rule pack installed there. */
export async function commandNamed(ctx: Context, name: string): Promise<AnyCommand | undefined> {
  const builtIn = ctx.commands.find((c) => c.name === name);
  if (builtIn) return builtIn;
  const installed = (await installedPacks(ctx)).get(name);
  return installed && packCommand(installed);
}
