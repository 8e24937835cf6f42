import type { Action, AnyCommand, Choices, CommandModule, Context } from '../../src/core/command.js';
import { actionOf } from '../../src/core/command.js';
import { NOT_ODDS } from '../../src/core/odds-entry.js';
import { readOptionText } from '../../src/core/option-text.js';
import { parseOptions } from '../../src/core/options.js';
import { fieldChoices } from '../../src/core/unit-fields.js';
import { refuse } from '../../src/core/user-error.js';
import { quoted } from '../../src/render/embed.js';
import { command, option, said } from '../../src/i18n/said.js';
import { SYSTEM_MODULES } from '../systems.js';

/**
 * The roll /ask asks for, typed as /odds takes it (`mc unit:'Squad 3' number:1`): a rolling
 * command /odds answers for, with the command's own options (sealing too: who sees the result is
 * the asker's to say). Read and refused as /odds reads it, then checked as the command checks it.
 */
type Askable = { command: CommandModule<any>; odds: Action<any> };

const ASKABLE: ReadonlyMap<string, Askable> = new Map(
  SYSTEM_MODULES.flatMap((s) =>
    Object.entries(s.odds).flatMap(([name, odds]) => {
      const c = s.commands.find((x: AnyCommand) => x.name === name);
      const action = c && actionOf(c);
      return action && c ? [[name, { command: c as CommandModule<any>, odds }] as const] : [];
    }),
  ),
);

export const ASKABLE_NAMES = [...ASKABLE.keys()];

/** A roll as asked: its command, the options as parsed and as typed, and the ones that give its odds. */
export type AskedRoll = {
  name: string;
  command: CommandModule<any>;
  odds: Action<any>;
  options: Record<string, unknown>;
  /** The options the asker typed (an explicit option beats a roster value, as in the roll itself). */
  given: Set<string>;
  /** The options its odds take: the roll's, less those that change no chance. */
  oddsOptions: Record<string, unknown>;
};

function split(roll: string): { name: string; rest: string } {
  const m = /^\s*\/?([a-z0-9_-]+)\s*(.*)$/s.exec(roll);
  return { name: m?.[1] ?? '', rest: m?.[2] ?? '' };
}

/** The typed text's values, each read as its option reads console text. */
function typedValues(c: CommandModule<any>, rest: string): Record<string, unknown> {
  const read = readOptionText(rest);
  if ('error' in read) {
    const roll = option('roll');
    refuse(
      read.stray !== undefined
        ? said('oddsNotOptionValue', { roll, given: quoted(read.stray), odds: command('ask roll') })
        : said('oddsUnreadable', { roll, why: read.error }),
    );
  }
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(read.values)) raw[k] = c.options[k]?.fromText(v) ?? v;
  return raw;
}

/** Reads the roll text, refusing what the command itself would refuse of these options. */
export function readAskedRoll(text: string): AskedRoll {
  const { name, rest } = split(text);
  const askable = ASKABLE.get(name);
  if (!askable) refuse('askRollUnknown', { roll: option('roll'), given: quoted(name), ask: command('ask roll'), names: ASKABLE_NAMES.join(', ') });
  const raw = typedValues(askable.command, rest);
  const parsed = parseOptions(name, askable.command.options, raw);
  if (!parsed.ok) refuse(parsed.error);
  const wrong = askable.command.check?.(parsed.value);
  if (wrong) refuse(wrong);
  const options = parsed.value as Record<string, unknown>;
  const oddsOptions = Object.fromEntries(Object.entries(options).filter(([k]) => !Object.hasOwn(NOT_ODDS, k)));
  return { name, ...askable, options, given: new Set(Object.keys(raw)), oddsOptions };
}

/** The roll as a line a player reads: its command and what was typed, in a code span. */
export const rollShown = (text: string) => `\`/${text.trim().replace(/^\//, '').replaceAll('`', "'")}\``;

/** Autocomplete of the roll text: the commands while its name is typed, then the command's options and values. */
export function rollChoices(ctx: Context, value: string): Choices {
  const { name, rest } = split(value);
  const askable = ASKABLE.get(name);
  if (!askable || !/^\s*\/?[a-z0-9_-]+\s/.test(value)) return ASKABLE_NAMES.filter((n) => n.startsWith(name)).map((n) => ({ name: `${n} …`, value: `${n} ` }));
  return fieldChoices(askable.command.options, rest, ctx.locale)
    .map((c) => ({ name: `${name} ${c.name}`.slice(-100), value: `${name} ${c.value}` }))
    .filter((c) => c.value.length <= 100);
}
