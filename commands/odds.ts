import { EVERYONE } from '../src/core/access.js';
import { defineCommand, type Action, type Context, type Reply } from '../src/core/command.js';
import { readOptionText } from '../src/core/option-text.js';
import { parseOptions, text } from '../src/core/options.js';
import { fieldChoices } from '../src/core/unit-fields.js';
import { refuse } from '../src/core/user-error.js';
import { quoted } from '../src/render/embed.js';
import { SYSTEM_MODULES } from './systems.js';
import { command, option, said } from '../src/i18n/said.js';
import { nameIn } from '../src/i18n/i18n.js';
import { readerLanguage } from '../src/i18n/reader.js';
import { asTyped, englishName, readBack } from '../src/core/typed-names.js';

/**
 * /odds takes the roll as it would be typed (`rally disorder:2 quality:militia`): one option, so it
 * does not grow with the systems (Discord allows 4,000 characters of options a command). Each
 * system's descriptor says what /odds answers for its rolling commands.
 */
const ENTRIES: ReadonlyMap<string, Action<any>> = new Map(SYSTEM_MODULES.flatMap((s) => Object.entries(s.odds)));
const NAMES = [...ENTRIES.keys()];

/** The roll typed: its command (in English, or as the reader's client names it) and its options as text. */
function split(roll: string): { name: string; rest: string; typed: string } {
  const m = /^\s*\/?([\p{Ll}0-9_-]+)\s*(.*)$/su.exec(roll);
  const typed = m?.[1] ?? '';
  return { name: englishName(readerLanguage(), NAMES, typed) ?? typed, rest: m?.[2] ?? '', typed };
}

function entryNamed(name: string): Action<any> {
  const names = NAMES.map((n) => nameIn(readerLanguage(), n)).join(', ');
  return ENTRIES.get(name) ?? refuse('oddsUnknown', { roll: option('roll'), given: quoted(name), odds: command('odds'), names });
}

/** The roll's options, read and checked as the command itself would check them. */
function readRoll(name: string, entry: Action<any>, rest: string): { options: Record<string, unknown>; given: Set<string> } {
  const read = readOptionText(rest);
  if ('error' in read) {
    const roll = option('roll');
    refuse(
      read.stray !== undefined
        ? said('oddsNotOptionValue', { roll, given: quoted(read.stray), odds: command('odds') })
        : said('oddsUnreadable', { roll, why: read.error }),
    );
  }
  // Option names as the reader's client shows them (unordnung:2) are read as the English ones.
  const back = readBack(readerLanguage(), Object.keys(entry.options), read.values);
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(back.values)) raw[k] = entry.options[k]?.fromText(v) ?? v;
  const parsed = parseOptions(`odds ${name}`, entry.options, raw);
  if (!parsed.ok) refuse(asTyped(parsed.error, back.typed));
  const wrong = entry.check?.(parsed.value);
  if (wrong) refuse(asTyped(wrong, back.typed));
  return { options: parsed.value, given: new Set(Object.keys(raw)) };
}

export default defineCommand({
  name: 'odds',
  description: 'Exact chances of every outcome, before you roll (nothing is rolled or recorded)',
  example: '/odds roll:"rally disorder:2 quality:militia commander_near:true"',
  access: EVERYONE,
  options: {
    roll: text({
      description: `The roll as you would type it, e.g. rally disorder:2 (${NAMES.join(', ')})`.slice(0, 100),
      maxLength: 400,
      required: true,
      autocomplete: true,
      holdsOptions: true,
    }),
  },
  async run(ctx: Context, o): Promise<Reply> {
    const { name, rest } = split(o.roll);
    const entry = entryNamed(name);
    const { options, given } = readRoll(name, entry, rest);
    // What the player typed beats a roster value, as in the roll itself.
    return entry.run({ ...ctx, given }, options);
  },
  autocomplete: (ctx, option, value) => {
    if (option !== 'roll') return [];
    const { name, rest, typed } = split(value);
    const entry = ENTRIES.get(name);
    // Still typing the command's name: the rolls /odds knows, as the reader's client names them.
    const shownNames = NAMES.map((n) => nameIn(readerLanguage(), n));
    if (!entry || !/^\s*\/?[\p{Ll}0-9_-]+\s/u.test(value))
      return shownNames.filter((n) => n.startsWith(typed)).map((n) => ({ name: `${n} …`, value: `${n} ` }));
    return fieldChoices(entry.options, rest, ctx.locale)
      .map((c) => ({ name: `${typed} ${c.name}`.slice(-100), value: `${typed} ${c.value}` }))
      .filter((c) => c.value.length <= 100);
  },
});
