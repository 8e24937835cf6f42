import { z } from 'zod';
import { ApplicationCommandOptionType, ChannelType, type APIApplicationCommandBasicOption } from 'discord.js';
import { quoted } from '../render/embed.js';
import { command as commandName, isSaid, list, option, said, type Said } from '../i18n/said.js';
import { own } from '../util/own.js';

/**
 * One declaration per option gives everything that must agree about it: the zod schema that
 * validates it server-side, the slash-command JSON Discord shows, how the console reads it from
 * text, and the words an error uses to say what is allowed.
 */
export type OptionSpec<T> = {
  readonly description: string;
  readonly required: boolean;
  readonly schema: z.ZodType<T>;
  /** "a whole number from 1 to 10": completes "`disorder` must be …". */
  readonly allowed: Said;
  readonly autocomplete: boolean;
  /** The values to offer as the user types, for an option that answers its own autocomplete. */
  readonly suggest?: (value: string) => string[];
  /** Why a value is refused, where the rules have a reason beyond the range. */
  readonly explain?: (value: unknown) => Said | undefined;
  /** Its value is itself `name:value` text (/odds roll): a `name:` typed after it unquoted belongs in it. */
  readonly holdsOptions?: boolean;
  toSlash(name: string): APIApplicationCommandBasicOption;
  /** Turns console text into the value Discord would send; leaves what it cannot read for zod to refuse. */
  fromText(raw: string): unknown;
};

export type OptionMap = Record<string, OptionSpec<unknown>>;
export type ParsedOptions<O extends OptionMap> = { [K in keyof O]: O[K] extends OptionSpec<infer T> ? T : never };

type Presence<T> = { required: true } | { default: T } | { required?: false };
type Out<T, P> = P extends { required: true } ? T : P extends { default: T } ? T : T | undefined;

/** Discord's limit on an option description. */
export const DESCRIPTION_MAX = 100;

function finish<T>(base: z.ZodType<T>, presence: Presence<T>, rest: Omit<OptionSpec<T>, 'schema' | 'required'> & { description: string }): OptionSpec<any> {
  if (rest.description.length > DESCRIPTION_MAX) throw new Error(`description too long: ${rest.description}`);
  const required = 'required' in presence && presence.required === true;
  const schema = required ? base : 'default' in presence ? base.default(presence.default as never) : base.optional();
  return { ...rest, required, schema: schema as z.ZodType<any> };
}

export function integer<P extends Presence<number>>(
  o: { description: string; min: number; max: number; explain?: (value: unknown) => Said | undefined } & P,
): OptionSpec<Out<number, P>> {
  return finish(z.number().int().min(o.min).max(o.max), o, {
    description: o.description,
    explain: o.explain,
    allowed: said('allowedInteger', { min: o.min, max: o.max }),
    autocomplete: false,
    toSlash: (name) => ({
      type: ApplicationCommandOptionType.Integer,
      name,
      description: o.description,
      required: 'required' in o && o.required === true,
      min_value: o.min,
      max_value: o.max,
    }),
    fromText: (raw) => (/^[+-]?\d+$/.test(raw) ? Number(raw) : raw),
  });
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'on']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off']);

export function boolean<P extends Presence<boolean>>(o: { description: string } & P): OptionSpec<Out<boolean, P>> {
  return finish(z.boolean(), o, {
    description: o.description,
    allowed: said('allowedBoolean'),
    autocomplete: false,
    toSlash: (name) => ({
      type: ApplicationCommandOptionType.Boolean,
      name,
      description: o.description,
      required: 'required' in o && o.required === true,
    }),
    fromText: (raw) => {
      const v = raw.toLowerCase();
      return TRUE.has(v) ? true : FALSE.has(v) ? false : raw;
    },
  });
}

/**
 * One of a fixed list. `autocomplete`: offered as the user types instead of listed in the slash
 * JSON (a long list that would push a command past Discord's 4,000 characters); the router answers
 * from the same list, and zod still refuses anything else.
 */
export function choice<const C extends readonly [string, ...string[]], P extends Presence<C[number]>>(
  o: { description: string; choices: C; autocomplete?: boolean } & P,
): OptionSpec<Out<C[number], P>> {
  return finish(z.enum(o.choices), o as Presence<C[number]>, {
    description: o.description,
    allowed: said('allowedChoice', { choices: o.choices.join(', ') }),
    autocomplete: o.autocomplete ?? false,
    ...(o.autocomplete ? { suggest: (value: string) => o.choices.filter((c) => c.startsWith(value.trim().toLowerCase())) } : {}),
    toSlash: (name) => ({
      type: ApplicationCommandOptionType.String,
      name,
      description: o.description,
      required: 'required' in o && o.required === true,
      ...(o.autocomplete ? { autocomplete: true } : { choices: o.choices.map((c) => ({ name: c, value: c })) }),
    }),
    // The console types choices in any case; an exact match wins (`DR` and `dr` are both choices of /dr).
    fromText: (raw) => (o.choices.includes(raw) ? raw : (o.choices.find((c) => c.toLowerCase() === raw.toLowerCase()) ?? raw.toLowerCase())),
  });
}

export function text<P extends Presence<string>>(
  o: { description: string; maxLength: number; autocomplete?: boolean; holdsOptions?: boolean } & P,
): OptionSpec<Out<string, P>> {
  return finish(z.string().trim().min(1).max(o.maxLength), o, {
    description: o.description,
    ...(o.holdsOptions ? { holdsOptions: true } : {}),
    allowed: said('allowedText', { max: o.maxLength }),
    autocomplete: o.autocomplete ?? false,
    toSlash: (name) => ({
      type: ApplicationCommandOptionType.String,
      name,
      description: o.description,
      required: 'required' in o && o.required === true,
      max_length: o.maxLength,
      ...(o.autocomplete ? { autocomplete: true } : {}),
    }),
    fromText: (raw) => raw,
  });
}

/** A Discord user (the console takes a user id or name as text). */
export function user(o: { description: string; required?: boolean }): OptionSpec<string | undefined> {
  return finish(z.string().min(1).max(100), o.required ? { required: true } : {}, {
    description: o.description,
    allowed: said('allowedMember'),
    autocomplete: false,
    toSlash: (name) => ({ type: ApplicationCommandOptionType.User, name, description: o.description, required: o.required ?? false }),
    fromText: (raw) => raw.replace(/^<@!?(\d+)>$/, '$1').replace(/^@/, ''),
  });
}

/** A role of the server (the console takes its id as text). */
export function role(o: { description: string; required?: boolean }): OptionSpec<string | undefined> {
  return finish(z.string().min(1).max(100), o.required ? { required: true } : {}, {
    description: o.description,
    allowed: said('allowedRole'),
    autocomplete: false,
    toSlash: (name) => ({ type: ApplicationCommandOptionType.Role, name, description: o.description, required: o.required ?? false }),
    fromText: (raw) => raw.replace(/^<@&(\d+)>$/, '$1').replace(/^@/, ''),
  });
}

/** A channel of the server (the console takes its id as text). */
/** A channel option; Discord's picker offers only text and announcement channels. */
export function channel(o: { description: string; required?: boolean }): OptionSpec<string | undefined> {
  return finish(z.string().min(1).max(100), o.required ? { required: true } : {}, {
    description: o.description,
    allowed: said('allowedChannel'),
    autocomplete: false,
    toSlash: (name) => ({
      type: ApplicationCommandOptionType.Channel,
      name,
      description: o.description,
      required: o.required ?? false,
      channel_types: [ChannelType.GuildText, ChannelType.GuildAnnouncement],
    }),
    fromText: (raw) => raw.replace(/^<#(\d+)>$/, '$1').replace(/^#/, ''),
  });
}

/**
 * Text the command reads into a value (`2/5` → lost and original). `parse` returns the value, or
 * the reason the text cannot be one, which the error then quotes.
 */
export function parsedText<T>(o: { description: string; maxLength: number; allowed: Said; parse: (raw: string) => T | Said }): OptionSpec<T | undefined> {
  const schema = z
    .string()
    .max(o.maxLength)
    .transform((raw, ctx) => {
      const v = o.parse(raw);
      if (!isSaid(v)) return v;
      // What the parser says rides on the issue as it is, read back in parseOptions.
      ctx.addIssue({ code: 'custom', message: v.key, params: { said: v } });
      return z.NEVER;
    });
  return finish(
    schema as unknown as z.ZodType<T>,
    {},
    {
      description: o.description,
      allowed: o.allowed,
      explain: (v) => (typeof v === 'string' && v.length > o.maxLength ? said('tooLong', { length: v.length, max: o.maxLength }) : undefined),
      autocomplete: false,
      toSlash: (name) => ({ type: ApplicationCommandOptionType.String, name, description: o.description, required: false, max_length: o.maxLength }),
      fromText: (raw) => raw,
    },
  );
}

const schemas = new WeakMap<OptionMap, z.ZodType>();

/** Every rolling command's `sealed`: only GMs see the result until /reveal. */
export const sealedOption = () => boolean({ description: 'Sealed: only GMs see the result until /reveal', default: false });

/** The zod object for a command's options, built once per option map: unknown keys are refused. */
export function objectSchema<O extends OptionMap>(options: O): z.ZodType<ParsedOptions<O>> {
  let schema = schemas.get(options);
  if (!schema) {
    const shape: Record<string, z.ZodType> = {};
    for (const [k, spec] of Object.entries(options)) shape[k] = spec.schema;
    schema = z.strictObject(shape);
    schemas.set(options, schema);
  }
  return schema as unknown as z.ZodType<ParsedOptions<O>>;
}

/** The error for a missing option, also used where a roster can stand in for it. */
export const requiredMessage = (name: string, spec: OptionSpec<unknown>): Said => said('optionRequired', { name: option(name), allowed: spec.allowed });

const show = quoted;

/**
 * `/odds roll:rally disorder:2` typed unquoted reaches the router as two options (a console, a
 * transport that splits on every `name:`): the option before the stray one whose value is itself
 * `name:value` text, and that value as it should have been typed, quoted whole.
 */
function heldBy(options: OptionMap, raw: Record<string, unknown>, stray: string): { name: string; typed: string; value: string } | undefined {
  const keys = Object.keys(raw);
  const before = keys.slice(0, keys.indexOf(stray));
  const name = before.findLast((k) => own(options, k));
  if (name === undefined || !options[name]!.holdsOptions) return undefined;
  // Up to the next option of the command: the strays between belong to the value.
  const after = keys.slice(keys.indexOf(name) + 1);
  const end = after.findIndex((k) => own(options, k));
  const typed = (k: string) => `${k}:${/\s/.test(String(raw[k])) ? `'${String(raw[k])}'` : String(raw[k])}`;
  const held = (end < 0 ? after : after.slice(0, end)).map(typed);
  // Backticks would end the code span each is shown in.
  const shown = (s: string) => s.replaceAll('`', "'");
  return { name, typed: shown(typed(stray)), value: shown([String(raw[name]), ...held].join(' ')) };
}

/**
 * Validates raw options and returns either the typed values or one sentence naming the first bad
 * option, the value given and what is allowed.
 */
export function parseOptions<O extends OptionMap>(
  command: string,
  options: O,
  given: Record<string, unknown>,
): { ok: true; value: ParsedOptions<O> } | { ok: false; error: Said } {
  // Own keys only: a rule pack's option named `constructor` must not read what every object inherits.
  const raw: Record<string, unknown> = Object.assign(Object.create(null), given);
  const names = Object.keys(options);
  for (const k of Object.keys(raw)) {
    if (!own(options, k)) {
      const where = { name: option(k), command: commandName(command) };
      if (!names.length) return { ok: false, error: said('noOptions', where) };
      const into = heldBy(options, raw, k);
      const notOne = { ...where, names: list(names.map(option), 'comma') };
      if (!into) return { ok: false, error: said('notAnOption', notOne) };
      return { ok: false, error: said('notAnOptionQuote', { ...notOne, typed: into.typed, text: option(into.name), value: into.value }) };
    }
  }
  const parsed = objectSchema(options).safeParse(raw);
  // A value the user gave and got wrong is named before an option they left out.
  const wrong = parsed.success ? undefined : parsed.error.issues.find((i) => raw[String(i.path[0] ?? '')] !== undefined);
  if (!wrong) {
    for (const [k, spec] of Object.entries(options)) {
      if (spec.required && raw[k] === undefined) return { ok: false, error: requiredMessage(k, spec) };
    }
  }
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = wrong ?? parsed.error.issues[0]!;
  const name = String(issue.path[0] ?? '');
  const spec = options[name]!;
  const why = issue.code === 'custom' ? (issue.params?.said as Said) : spec.explain?.(raw[name]);
  const values = { name: option(name), allowed: spec.allowed, given: show(raw[name]) };
  return { ok: false, error: why ? said('optionWrongWhy', { ...values, why }) : said('optionWrong', values) };
}

/** A file attached to the command: Discord sends its id, and the transport hands the file beside the options. */
export function attachment(o: { description: string }): OptionSpec<string | undefined> {
  return finish(
    z.string().min(1).max(64),
    {},
    {
      description: o.description,
      allowed: said('allowedFile'),
      autocomplete: false,
      toSlash: (name) => ({ type: ApplicationCommandOptionType.Attachment, name, description: o.description, required: false }),
      fromText: (raw) => raw,
    },
  );
}
