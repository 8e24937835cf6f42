import { EVERYONE } from './access.js';
import { defineCommand, type AnyCommand, type Context } from './command.js';
import { boolean, choice, integer, text, type OptionMap } from './options.js';
import type { InstalledPack } from './packs.js';
import { message, rollMessage } from './replies.js';
import { rollAndRecord } from './roll.js';
import { refuse } from './user-error.js';
import { packEmbed, packOddsEmbed } from '../render/pack.js';
import type { LedgerRow } from '../ledger/rows.js';
import { oddsOf } from '../rules/odds.js';
import { resolveInput } from '../rules/packs/input.js';
import type { PackInput } from '../rules/packs/modifiers.js';
import { packDistribution, packOrder } from '../rules/packs/odds.js';
import { rollPack, type PackOutcome } from '../rules/packs/roll.js';
import type { PackOption } from '../rules/packs/schema.js';
import { packSystem } from '../rules/systems.js';
import type { Outcome } from '../rules/types.js';

/** A pack roll's outcome on the chain: the pack's outcome, under the pack's system. */
export type PackRollOutcome = PackOutcome & Outcome;

/** What a pack roll's row holds as its input: the pack row it used, the options as settled, and the note. */
export type PackRollInput = { pack: { id: string; version: number; row: string; sha256: string }; options: PackInput; note?: string };

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

/** The options of a pack's command: its own, then the bot's note and odds_only. */
export function packOptions(pack: InstalledPack['pack']): OptionMap {
  const own = Object.fromEntries(pack.options.map((o) => [o.name, optionSpec(o)]));
  return {
    ...own,
    note: text({ description: 'A note kept with the roll (why it was rolled)', maxLength: 200 }),
    odds_only: boolean({ description: 'Show the exact odds of every result for these options; nothing is rolled' }),
  };
}

/** The options the player gave, as the pack reads them (the bot's own options left out). */
function givenOptions(ctx: Context, pack: InstalledPack['pack'], o: Record<string, unknown>) {
  return Object.fromEntries(pack.options.filter((p) => ctx.given.has(p.name)).map((p) => [p.name, o[p.name] as string | number | boolean]));
}

const stored = (installed: InstalledPack, row: LedgerRow) => ({
  embed: packEmbed({
    pack: installed.pack,
    userName: row.user_name,
    input: (row.input as PackRollInput).options,
    outcome: row.outcome as PackRollOutcome,
    row,
  }),
  buttons: [],
});

/** The slash command an installed pack adds to its server. */
export function packCommand(installed: InstalledPack): AnyCommand {
  const { pack } = installed;
  const system = packSystem(pack.pack);
  return defineCommand({
    name: pack.pack,
    description: pack.description,
    system,
    example: `/${pack.pack}`,
    access: EVERYONE,
    options: packOptions(pack),
    async run(ctx, o) {
      const resolved = resolveInput(pack, givenOptions(ctx, pack, o));
      if (typeof resolved === 'string') refuse(`/${pack.pack}: ${resolved}.`);
      const input = resolved.input;
      const order = packOrder(pack);
      if (o.odds_only) return message(packOddsEmbed(pack, input, packDistribution(pack, input), order));
      const meta: PackRollInput = {
        pack: { id: pack.pack, version: pack.version, row: installed.rowId, sha256: installed.sha256 },
        options: input,
        ...(o.note ? { note: o.note as string } : {}),
      };
      const found = await rollAndRecord(ctx, system, () => ({
        meta: { command: pack.pack, kind: 'roll', input: meta },
        rules: (dice): PackRollOutcome => ({ ...rollPack(pack, input, dice), system }),
        odds: (out) => oddsOf(packDistribution(pack, input), order.order, out.result),
      }));
      return rollMessage(ctx, false, found, stored(installed, found.row).embed);
    },
    renderStored: (_ctx, row) => stored(installed, row),
  });
}
