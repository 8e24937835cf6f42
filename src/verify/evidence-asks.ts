import { canonicalJson, type ChainedRow } from '../ledger/chain.js';
import { DECLARED_OPTIONS, type DeclaredOptions } from './declared-options.js';
import type { SignedFacts } from './signed-facts.js';

/**
 * What a Discord-signed request is evidence of: what it asked, nothing more. Discord signs every
 * interaction it sends under one key, autocomplete keystrokes included (they name the command, the
 * user and the channel but ask for nothing), so a host holding real signatures could otherwise
 * dress one up as a roll. Only an application command backs a roll, ruling or note; only a press of
 * the button that writes a row, naming the roll it acts on, backs that row; every option the row
 * holds was asked, or is a default its command declares, or the bot committed that it filled it.
 */

type Input = Record<string, unknown>;

/** The rows a request decides (not its side effects on a roster or a game): one request backs one of them. */
export const DECISIVE_KINDS: ReadonlySet<string> = new Set(['roll', 'reroll', 'check', 'annotation', 'void', 'decision']);

/** The buttons that write a decisive row (custom_id `v1:<action>:<roll id>`), each with the rows it writes. */
const BUTTON_ROWS: Record<string, { writes: (r: ChainedRow) => boolean; name: string }> = {
  ack: { writes: (r) => r.kind === 'annotation' && r.command === 'acknowledge', name: 'Acknowledge' },
  reroll: { writes: (r) => r.kind === 'reroll', name: 'a re-roll' },
  refuse_bh: { writes: (r) => r.kind === 'decision', name: 'a refusal of battle hardening' },
  dr_again: { writes: (r) => r.kind === 'roll' && r.command === 'dr', name: '/dr Roll again' },
  ask: { writes: (r) => r.kind === 'roll', name: 'an answer to a requested roll' },
};

/** Rows only a button press writes. */
const onlyPressed = (r: ChainedRow) => r.kind === 'reroll' || r.kind === 'decision' || r.command === 'acknowledge';

const TYPES: Record<number, string> = {
  1: 'a ping (type 1)',
  2: 'a slash command (type 2)',
  3: 'a component press (type 3)',
  4: 'an autocomplete request (type 4)',
  5: 'a modal submission (type 5)',
};
const typeName = (type: number) => TYPES[type] ?? `an interaction of unknown type ${String(type)}`;

/** What one row's options came to: the defaults it relied on, the values the bot says it filled; or what is wrong. */
export type Asked = { problem?: string; defaults: number; filled: string[] };

const isPackInput = (i: Input): i is Input & { options: Input } =>
  typeof i.pack === 'object' && i.pack !== null && typeof i.options === 'object' && i.options !== null && !Array.isArray(i.options);

/**
 * A row's options as its request would carry them: its input without what the bot adds beside them
 * (a beacon binding, the evidence); a pack roll's its `options` with its unit, note and seal; a
 * GM's mark names its roll as `id`.
 */
export function optionsOfRow(input: Input, row?: Pick<ChainedRow, 'unit' | 'parent_id'>): Input {
  const { beacon: _bound, evidence: _signed, ...rest } = input;
  if (isPackInput(rest))
    return {
      ...rest.options,
      ...(row?.unit ? { unit: row.unit } : {}),
      ...(typeof rest.note === 'string' ? { note: rest.note } : {}),
      ...(rest.sealed === true ? { sealed: true } : {}),
    };
  return row?.parent_id && !('id' in rest) ? { ...rest, id: row.parent_id } : rest;
}

/**
 * The options a request's command declares, or undefined when this core does not know it (every
 * key of the row is then an option with no default). A pack's command declares the bot's own four;
 * its pack's options, whose defaults its pack row holds, count as declared with none.
 */
function declaredFor(f: SignedFacts, input: Input): DeclaredOptions | undefined {
  const { beacon: _bound, evidence: _signed, ...rest } = input;
  if (isPackInput(rest))
    return { ...Object.fromEntries(Object.keys(rest.options).map((k) => [k, null])), unit: null, note: null, sealed: false, odds_only: false };
  const key = [f.command, ...f.path].join(' ');
  return Object.hasOwn(DECLARED_OPTIONS, key) ? DECLARED_OPTIONS[key] : undefined;
}

// Text as the bot keeps it (normalized, trimmed), never folded in case: a choice written in another
// case would match no rule's condition, and so drop a modifier unseen.
const norm = (v: unknown) => (typeof v === 'string' ? v.normalize('NFC').trim() : v);
const show = (v: unknown) => JSON.stringify(v ?? null);

/** The default `name` has in `declared` (null: none), or undefined when `name` is not an option at all. */
function defaultOf(declared: DeclaredOptions | undefined, name: string): string | number | boolean | null | undefined {
  if (!declared) return null;
  return Object.hasOwn(declared, name) ? declared[name] : undefined;
}

/** The row's options the request does not carry: each its command's declared default, or else filled by the bot. */
function leftOut(f: SignedFacts, view: Input, declared: DeclaredOptions | undefined): { name: string; value: unknown; isDefault: boolean }[] {
  const out: { name: string; value: unknown; isDefault: boolean }[] = [];
  // In name order: a row read back from PostgreSQL's jsonb holds its keys in another order than an export's.
  for (const name of Object.keys(view).sort()) {
    const value = view[name];
    const fallback = Object.hasOwn(f.options, name) ? undefined : defaultOf(declared, name);
    // Carried by the request, or not an option of the command (a field the bot derived).
    if (fallback === undefined) continue;
    out.push({ name, value, isDefault: fallback !== null && norm(fallback) === norm(value) });
  }
  return out;
}

/**
 * What the bot commits with a row at write time: its options the signed request does not carry and
 * that are not their command's declared defaults (a roster's value, a pack's default). Verifiers
 * name each one as the bot's word; an option neither asked, nor declared, nor committed here fails.
 */
export function unaskedOf(f: SignedFacts, input: Input): string[] {
  const declared = declaredFor(f, input);
  // Only a command whose rows verifiers compare (a game's or a roster's change keeps its own fields).
  if (f.type !== 2 || !declared) return [];
  return leftOut(f, optionsOfRow(input), declared)
    .filter((o) => !o.isDefault)
    .map((o) => o.name);
}

/** Every option of the request is in the row with its value; every option of the row is asked, declared, or committed as filled. */
function optionsAsked(f: SignedFacts, r: ChainedRow, unasked: readonly string[]): Asked {
  const input = (r.input ?? {}) as Input;
  const view = optionsOfRow(input, r);
  const declared = declaredFor(f, input);
  const found: Asked = { defaults: 0, filled: [] };
  for (const [name, value] of Object.entries(f.options)) {
    if (!Object.hasOwn(view, name)) {
      const fallback = defaultOf(declared, name);
      // A pack roll's row leaves its unsealed, rolled (not odds-only) defaults unsaid.
      if (fallback !== null && fallback !== undefined && norm(fallback) === norm(value)) continue;
      return { ...found, problem: `Discord's signed request names option ${name} ${show(value)}, which the row does not hold` };
    }
    const kept = view[name];
    // A value Discord signed is never null: a row holding null (or nothing) in its place dropped it.
    if ((kept === null || kept === undefined) !== (value === null || value === undefined))
      return { ...found, problem: `Discord's signed request names option ${name} ${show(value)}, the row ${show(kept)}` };
    // A text option the command reads into a list or a record (its parts compared by the command's own rules).
    if (typeof value === 'object' || typeof kept === 'object') continue;
    if (norm(value) !== norm(kept)) return { ...found, problem: `Discord's signed request names option ${name} ${show(value)}, the row ${show(kept)}` };
  }
  for (const o of leftOut(f, view, declared)) {
    if (o.isDefault) found.defaults++;
    else if (unasked.includes(o.name)) found.filled.push(`${o.name} ${show(o.value)}`);
    else {
      const fallback = defaultOf(declared, o.name);
      const why = fallback === null ? `/${[f.command, ...f.path].join(' ')} declares no default for it` : `its declared default is ${show(fallback)}`;
      return { ...found, problem: `the row holds option ${o.name} ${show(o.value)}, which Discord's signed request does not carry (${why})` };
    }
  }
  return found;
}

/** A press of the button that writes this row, naming the roll it acts on. */
function pressDiffers(f: SignedFacts, r: ChainedRow, rows: ReadonlyMap<string, ChainedRow>): string | undefined {
  const m = /^v1:([a-z_]+):([0-9a-z_-]{1,64})$/.exec(f.customId ?? '');
  const button = BUTTON_ROWS[m?.[1] ?? ''];
  const pressed = `a press of ${show(f.customId)}`;
  if (!m || !button?.writes(r)) return `Discord's signed request is ${pressed}, not of a button that writes this row`;
  const target = m[2]!;
  if (m[1] === 'dr_again') return againDiffers(target, r, rows, pressed);
  if (r.parent_id !== target) return `Discord's signed request is ${pressed}, which acts on row ${target}, not on this row's ${show(r.parent_id)}`;
  if (m[1] === 'ack' && rows.get(target)?.user_id === r.user_id) return `Discord's signed request is ${pressed} by the roller: only an opponent acknowledges`;
  if (m[1] === 'ask') return answerDiffers(rows.get(target), r, pressed);
  return undefined;
}

/** A requested roll is the asked player's, of the command asked for: the request's row says both. */
function answerDiffers(request: ChainedRow | undefined, r: ChainedRow, pressed: string): string | undefined {
  const asked = (request?.input ?? {}) as { player?: unknown; roll?: unknown };
  if (request?.kind !== 'request' || typeof asked.roll !== 'string') return `Discord's signed request is ${pressed}, which names no request of this game`;
  if (asked.player !== r.user_id) return `Discord's signed request is ${pressed}, a request made of ${String(asked.player)}, not of this row's player`;
  if (asked.roll.trim().split(/\s+/)[0]?.toLowerCase() !== r.command)
    return `Discord's signed request is ${pressed}, a request for ${show(asked.roll)}, not for /${r.command}`;
  return undefined;
}

const asked = (r: ChainedRow) => optionsOfRow((r.input ?? {}) as Input);

/** "Roll again" rolls the player's own /dr again, with its options: the row must be that. */
function againDiffers(target: string, r: ChainedRow, rows: ReadonlyMap<string, ChainedRow>, pressed: string): string | undefined {
  const first = rows.get(target);
  if (first?.kind !== 'roll' || first.command !== 'dr' || first.user_id !== r.user_id)
    return `Discord's signed request is ${pressed}, which names no /dr roll of this player in this game`;
  if (canonicalJson(asked(first)) !== canonicalJson(asked(r)))
    return `Discord's signed request is ${pressed}, whose roll ${target} was asked with other options`;
  return undefined;
}

/**
 * Whether the request asked for this decisive row: its interaction type, then the button or the
 * command and every option. `rows`: the game's rows by id (a press names the roll it acts on).
 */
export function asksFor(f: SignedFacts, r: ChainedRow, unasked: readonly string[], rows: ReadonlyMap<string, ChainedRow>): Asked {
  const none: Asked = { defaults: 0, filled: [] };
  if (f.type === 3) return { ...none, problem: pressDiffers(f, r, rows) };
  if (f.type !== 2) return { ...none, problem: `Discord's signed request is ${typeName(f.type)}, not a request for this row` };
  if (onlyPressed(r)) return { ...none, problem: `Discord's signed request is ${typeName(2)}, not a press of the button that writes this row` };
  if (f.command !== r.command) return { ...none, problem: `Discord's signed request names command /${String(f.command)}, the row /${r.command}` };
  return optionsAsked(f, r, unasked);
}

/** A side effect's request (a roster or game change beside the decisive row) is a command or a press, nothing else. */
export const notARequest = (f: SignedFacts): string | undefined =>
  f.type === 2 || f.type === 3 ? undefined : `Discord's signed request is ${typeName(f.type)}, not a request for this row`;
