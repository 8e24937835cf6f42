import { ApplicationCommandOptionType } from 'discord.js';
import { quoted } from '../render/embed.js';
import { capitalized, articleOf } from '../util/text.js';
import type { Choices } from './command.js';
import { readOptionText } from './option-text.js';
import type { OptionMap } from './options.js';
import type { UnitFields, UnitSpec } from './system.js';
import { refuse } from './user-error.js';
import { list, option, said } from '../i18n/said.js';
import { speak } from '../i18n/speak.js';
import { languageOf, nameIn } from '../i18n/i18n.js';
import { readerLanguage } from '../i18n/reader.js';
import { englishName, readBack } from './typed-names.js';

/**
 * A roster unit's fields as typed in one option, `fields:` (`counter:German 4-6-7 broken:true`),
 * read against its system's unit spec: the same for every system, built-in or rule pack, so /unit
 * does not grow with the number of systems (Discord allows 25 options a subcommand).
 */

/** An example `fields:` text of the system: its required fields (or its first two). */
export const fieldsExample = (spec: UnitSpec) =>
  (spec.required.length ? spec.required : Object.keys(spec.fields).slice(0, 2)).map((k) => `${k}:${exampleValue(spec, k)}`).join(' ');

/** A value a field takes: its first choice, its least number, or the example its description gives. */
function exampleValue(spec: UnitSpec, name: string): string {
  const values = valuesOf(spec.fields, name);
  if (values.length) return values[0]!;
  const slash = spec.fields[name]!.toSlash(name);
  if ('min_value' in slash && slash.min_value !== undefined) return String(slash.min_value);
  return /e\.g\. (.+)$/.exec(spec.fields[name]!.description)?.[1] ?? '…';
}

/** The values a field takes that start with what is typed: a choice's (or true/false); none for a number or text. */
function valuesOf(fields: OptionMap, name: string, typed = ''): string[] {
  const spec = fields[name]!;
  if (spec.suggest) return spec.suggest(typed);
  const slash = spec.toSlash(name);
  const all =
    slash.type === ApplicationCommandOptionType.Boolean
      ? ['true', 'false']
      : 'choices' in slash && slash.choices
        ? slash.choices.map((c) => String(c.value))
        : [];
  return all.filter((v) => v.startsWith(typed.toLowerCase()));
}

/** The system's fields as the reader's client names them. */
const fieldList = (spec: UnitSpec) =>
  Object.keys(spec.fields)
    .map((k) => nameIn(readerLanguage(), k))
    .join(', ');

/** The fields typed, each checked by its own spec; a name the system does not know is refused, listing its fields. */
export function typedFields(spec: UnitSpec, text: string | undefined): UnitFields {
  if (text === undefined || !text.trim()) return {};
  if (!Object.keys(spec.fields).length) refuse('noFields', { fields: option('fields'), article: articleOf(spec.label), system: spec.label });
  const read = readOptionText(text);
  if ('error' in read)
    refuse(
      read.stray !== undefined
        ? said('fieldsNotNameValue', { fields: option('fields'), given: quoted(read.stray), example: fieldsExample(spec) })
        : said('fieldsUnreadable', { fields: option('fields'), why: read.error }),
    );
  const out: UnitFields = {};
  // A field named as the reader's client names options (unordnung:2) is the English one it stands for.
  const back = readBack(readerLanguage(), Object.keys(spec.fields), read.values);
  for (const [name, raw] of Object.entries(back.values)) {
    const field = spec.fields[name];
    const typed = back.typed[name] ?? name;
    if (!field) refuse('notAField', { fields: option('fields'), name: typed, article: articleOf(spec.label), system: spec.label, names: fieldList(spec) });
    const parsed = field.schema.safeParse(field.fromText(raw));
    if (!parsed.success || parsed.data === undefined) {
      const why = field.explain?.(raw);
      const values = { fields: option('fields'), name: typed, allowed: field.allowed, given: quoted(raw) };
      refuse(why ? said('fieldWrongWhy', { ...values, why }) : said('fieldWrong', values));
    }
    out[name] = parsed.data;
  }
  return out;
}

/** A complete, checked set of fields for a new unit; anything missing or forbidden is refused. */
export function newUnitFields(spec: UnitSpec, given: UnitFields): UnitFields {
  const missing = spec.required.filter((k) => given[k] === undefined);
  if (missing.length)
    refuse('fieldsMissing', {
      Article: capitalized(articleOf(spec.label)),
      system: spec.label,
      missing: list(missing),
      fields: option('fields'),
      example: quoted(fieldsExample(spec)),
    });
  const next = { ...spec.defaults(given), ...given };
  spec.entering?.(undefined, next);
  return spec.check(next);
}

/** The unit's fields after an edit, checked as a whole; a forbidden change is refused. */
export function editedFields(spec: UnitSpec, current: UnitFields, given: UnitFields): UnitFields {
  const next = { ...current, ...given };
  spec.entering?.(current, next);
  return spec.check(next);
}

/**
 * Autocomplete for `name:value …` text (a unit's `fields:`, /odds' roll): what is typed so far,
 * completed with the name being typed (its values, when it has a few) or with the names not yet given.
 */
export function fieldChoices(fields: OptionMap, typed: string, locale?: string): Choices {
  const lang = languageOf(locale);
  const names = Object.keys(fields);
  // Names are offered as the reader's client shows options; what they typed in English still counts.
  const english = (t: string) => englishName(lang, names, t);
  const m = /^(.*?)(?:(\S*))$/s.exec(typed)!;
  const head = m[1]!;
  const last = m[2]!;
  const given = new Set([...head.matchAll(/(?:^|\s)([\p{Ll}][\p{Ll}0-9_]*):/gu)].map((g) => english(g[1]!) ?? g[1]!));
  const colon = last.indexOf(':');
  const typedName = last.slice(0, colon);
  const field = colon >= 0 ? english(typedName) : undefined;
  const candidates = field
    ? valuesOf(fields, field, last.slice(colon + 1)).map((v) => ({ text: `${typedName}:${v}`, label: `${typedName}:${v}` }))
    : names
        .filter((k) => !given.has(k) && (nameIn(lang, k).startsWith(last) || k.startsWith(last)))
        .flatMap((k) => {
          const shown = nameIn(lang, k);
          const values = valuesOf(fields, k);
          if (values.length && values.length <= 6) return values.map((v) => ({ text: `${shown}:${v}`, label: `${shown}:${v}` }));
          // What a field takes, in the player's language ("one of a, b, c, d…" when it has many values).
          const allowed = values.length ? said('allowedChoice', { choices: `${values.slice(0, 4).join(', ')}…` }) : fields[k]!.allowed;
          return [{ text: `${shown}:`, label: `${shown}: ${speak(locale, allowed)}` }];
        });
  return candidates
    .map((c) => ({ name: `${head}${c.label}`.slice(-100), value: `${head}${c.text}` }))
    .filter((c) => c.value.length <= 100)
    .slice(0, 25);
}
