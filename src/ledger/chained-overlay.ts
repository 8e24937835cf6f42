import { canonicalJson } from './chain.js';
import { COMMITMENT_TEXT, opens, type CommitCache } from './committed-text.js';
import { stringEnd, valueEnd } from './json-text.js';
import { isCommitment, isPersonField, type Commitment } from './people.js';
import { isObject } from '../util/own.js';

/**
 * How the ledger stores a committed row's chained text (people.ts). That text is the row's plain
 * canonical text with each value naming a person replaced by its commitment, so the plain columns
 * already hold all of it but the commitments: the row keeps only those, each at its path in the
 * row, as `[[path, commitment], …]` (canonical JSON). Whole, the chained text was three fifths of a
 * /dr's row and pushed a row with its signed request past half a page. Every reader of a row gets
 * the whole text back (fullChained): the hash covers it, an export carries it, the walk checks it.
 * A stored text starting with `{` is a whole chained text, as rows were stored before.
 */
export type Path = (string | number)[];
export type Overlay = [Path, Commitment][];

/**
 * The commitments `committed` holds where `plain` holds a value, by path; undefined when the two
 * differ otherwise (the caller then stores the whole text). Unchanged parts are the same objects
 * (commitTree keeps them), so the walk stops at once there.
 */
export function overlayOf(plain: unknown, committed: unknown, path: Path = [], out: Overlay = []): Overlay | undefined {
  if (plain === committed) return out;
  if (isCommitment(committed) && !isCommitment(plain)) {
    out.push([path, committed]);
    return out;
  }
  if (Array.isArray(plain) && Array.isArray(committed) && plain.length === committed.length) {
    for (let i = 0; i < plain.length; i++) if (!overlayOf(plain[i], committed[i], [...path, i], out)) return undefined;
    return out;
  }
  if (isObject(plain) && isObject(committed)) {
    const keys = Object.keys(committed);
    if (keys.length !== Object.keys(plain).length || keys.some((k) => !Object.hasOwn(plain, k))) return undefined;
    for (const k of keys) if (!overlayOf(plain[k], committed[k], [...path, k], out)) return undefined;
    return out;
  }
  return canonicalJson(plain ?? null) === canonicalJson(committed ?? null) ? out : undefined;
}

/** A commitment as the overlay holds it: its canonical text, its salt ids' list as that text writes it (`"a","b"`), and the HMAC. */
type Slot = { text: string; list: string; erasable: string };
/** A path's steps as they meet the text (an object's key as its JSON text, an array's index as a number); a leaf is a slot's index. */
type Trie = Map<string | number, Trie | { slot: number }>;
type Parsed = { trie: Trie; slots: Slot[]; person: boolean };

const KEY = '"(?:[^"\\\\]|\\\\.)*"';
/** One overlay entry as the writer writes it: a path of keys and indices, then a commitment. */
const ENTRY = new RegExp(`\\[(\\[(?:${KEY}|\\d+)(?:,(?:${KEY}|\\d+))*\\]),(${COMMITMENT_TEXT})\\]`, 'y');

/** The deepest path an overlay may name: the walk of the text follows it by recursion (a row nested deeper stores its whole text). */
const MAX_DEPTH = 64;

/** Path skeletons by their paths' text: rows of one kind name the same fields, so each is built once. */
const skeletons = new Map<string, { trie: Trie; person: boolean } | undefined>();
const SKELETONS_KEPT = 512;
const SKELETON_KEY_MAX = 1_000;
/** How many skeletons are kept (the tests read it). */
export const skeletonsKept = () => skeletons.size;

/** The paths as a tree whose leaves are the slots' indices; undefined when two paths clash or a step is not a key or an index. */
function skeletonOf(paths: unknown[][]): { trie: Trie; person: boolean } | undefined {
  const trie: Trie = new Map();
  let person = true;
  for (const [slot, path] of paths.entries()) {
    if (!path.length || path.length > MAX_DEPTH) return undefined;
    person &&= typeof path[0] === 'string' && isPersonField(path[0]);
    let node = trie;
    for (let i = 0; i < path.length; i++) {
      const step = path[i];
      const key = typeof step === 'string' ? JSON.stringify(step) : Number.isInteger(step) && (step as number) >= 0 ? (step as number) : undefined;
      if (key === undefined) return undefined;
      const had = node.get(key);
      if (i === path.length - 1) {
        if (had !== undefined) return undefined;
        node.set(key, { slot });
      } else if (had === undefined) {
        const next: Trie = new Map();
        node.set(key, next);
        node = next;
      } else if (!(had instanceof Map)) return undefined;
      else node = had;
    }
  }
  return { trie, person };
}

function skeleton(pathTexts: string[]): { trie: Trie; person: boolean } | undefined {
  const key = pathTexts.join('\n');
  // Only the short paths a writer makes are kept: a crafted overlay's are built and let go.
  if (key.length > SKELETON_KEY_MAX) return skeletonOrNot(pathTexts);
  if (skeletons.has(key)) return skeletons.get(key);
  const built = skeletonOrNot(pathTexts);
  if (skeletons.size >= SKELETONS_KEPT) skeletons.clear();
  skeletons.set(key, built);
  return built;
}

function skeletonOrNot(pathTexts: string[]): { trie: Trie; person: boolean } | undefined {
  try {
    return skeletonOf(pathTexts.map((t) => JSON.parse(t) as unknown[]));
  } catch {
    return undefined;
  }
}

/**
 * Overlays already read, by their text: a player's rows for one unit commit to the same values under
 * the same salts, so they store the same overlay, and a walk meets each one row after row.
 */
const overlaysRead = new Map<string, Parsed | null>();
const OVERLAYS_KEPT = 256;
const OVERLAY_KEPT_MAX = 2_000;

/** The overlay read (parsed once per text kept); undefined when it is none. */
function parse(stored: string): Parsed | undefined {
  if (stored.length > OVERLAY_KEPT_MAX) return parseFresh(stored);
  let parsed = overlaysRead.get(stored);
  if (parsed === undefined) {
    parsed = parseFresh(stored) ?? null;
    if (overlaysRead.size >= OVERLAYS_KEPT) overlaysRead.clear();
    overlaysRead.set(stored, parsed);
  }
  return parsed ?? undefined;
}

/** The overlay read as the writer writes it (one regular expression an entry), or else parsed in full; undefined when it is none. */
function parseFresh(stored: string): Parsed | undefined {
  const paths: string[] = [];
  const slots: Slot[] = [];
  for (let i = 1; ; ) {
    ENTRY.lastIndex = i;
    const m = ENTRY.exec(stored);
    if (!m) return parseSlowly(stored);
    paths.push(m[1]!);
    slots.push({ text: m[2]!, list: m[3]!, erasable: m[4]! });
    i = ENTRY.lastIndex;
    if (stored.charCodeAt(i) === 0x2c) i++;
    else if (i === stored.length - 1 && stored.charCodeAt(i) === 0x5d) break;
    else return parseSlowly(stored);
  }
  const built = skeleton(paths);
  return built && { ...built, slots };
}

/** An overlay's entries, when it is one. */
function entriesOf(overlay: unknown): [unknown[], Commitment][] | undefined {
  if (!Array.isArray(overlay) || !overlay.length) return undefined;
  if (overlay.some((e) => !Array.isArray(e) || e.length !== 2 || !Array.isArray(e[0]) || !isCommitment(e[1]))) return undefined;
  return overlay as [unknown[], Commitment][];
}

/** Any overlay JSON reads to the same: a commitment written otherwise than the writer writes it is put in as it reads. */
function parseSlowly(stored: string): Parsed | undefined {
  let overlay: unknown;
  try {
    overlay = JSON.parse(stored);
  } catch {
    return undefined;
  }
  const entries = entriesOf(overlay);
  if (!entries) return undefined;
  const built = skeletonOf(entries.map((e) => e[0]));
  return (
    built && {
      ...built,
      slots: entries.map(([, c]) => ({ text: canonicalJson(c), list: c.by.map((id) => JSON.stringify(id)).join(','), erasable: c.erasable })),
    }
  );
}

/** What a pass over the plain text builds: the chained text so far, where the copy resumes, and whether every commitment opened. */
type Built = { text: string; from: number; opened: boolean };
type Opener = (value: string, slot: Slot) => boolean;

/** Copies the container at `i` into `out`, each value the trie names replaced by its slot's text; its end, or -1 where the text lacks a path. */
function replaceIn(text: string, i: number, node: Trie, slots: Slot[], out: Built, open?: Opener): number {
  const first = text.charCodeAt(i);
  if (first !== 0x7b && first !== 0x5b) return -1;
  const close = first === 0x7b ? 0x7d : 0x5d;
  let j = i + 1;
  let found = 0;
  if (text.charCodeAt(j) === close) return node.size ? -1 : j + 1;
  for (let index = 0; ; index++) {
    let key: string | number = index;
    if (first === 0x7b) {
      const keyEnd = stringEnd(text, j);
      if (keyEnd < 0 || text.charCodeAt(keyEnd) !== 0x3a) return -1;
      key = text.slice(j, keyEnd);
      j = keyEnd + 1;
    }
    const end = valueEnd(text, j);
    if (end < 0) return -1;
    const child = node.get(key);
    if (child instanceof Map) {
      found++;
      if (replaceIn(text, j, child, slots, out, open) !== end) return -1;
    } else if (child !== undefined) {
      found++;
      const slot = slots[child.slot]!;
      if (open && out.opened) out.opened = open(text.slice(j, end), slot);
      out.text += text.slice(out.from, j) + slot.text;
      out.from = end;
    }
    j = end;
    const next = text.charCodeAt(j);
    if (next === close) return found === node.size ? j + 1 : -1;
    if (next !== 0x2c) return -1;
    j++;
  }
}

/** The whole text from the plain one, or undefined where the overlay does not read or the row lacks one of its paths. */
function expand(plainText: string, stored: string, open?: Opener): Built | undefined {
  // Whatever an edit stored, the row is read, never thrown on: the caller hashes what was stored.
  try {
    const parsed = parse(stored);
    if (!parsed) return undefined;
    // A commitment in the plain text opens nothing (a copy standing in for the value it hides): checkRow decides.
    const out: Built = { text: '', from: 0, opened: parsed.person && !plainText.includes('"erasable":') };
    if (replaceIn(plainText, 0, parsed.trie, parsed.slots, out, open) !== plainText.length) return undefined;
    out.text += plainText.slice(out.from);
    return out;
  } catch {
    return undefined;
  }
}

export const isOverlay = (stored: unknown): stored is string => typeof stored === 'string' && stored.charCodeAt(0) === 0x5b;

/**
 * The whole chained text of a row from its plain canonical text and what it stored for it: a
 * whole text as it is; an overlay with each commitment put in its place. An overlay that does not
 * read, or whose paths the row does not have (an edit), gives back the stored text: hashed as it
 * is, the row then reads as edited.
 */
export function fullChained(plainText: string, stored: string): string {
  if (!isOverlay(stored)) return stored;
  return expand(plainText, stored)?.text ?? stored;
}

/**
 * The walk's reading of an overlay: the whole text, and whether every commitment in it stands in a
 * person field and is opened by the plain value in its place (what holdsAsText finds of a whole
 * text, found in the same pass). Not opened: checkRow decides, and names what is wrong.
 */
export function openedChained(plainText: string, stored: string, salts: ReadonlyMap<string, string>, cache: CommitCache): { text: string; opened: boolean } {
  const built = expand(plainText, stored, (value, slot) => opens(value, slot.list, slot.erasable, salts, cache) === true);
  return built ? { text: built.text, opened: built.opened } : { text: stored, opened: false };
}

/**
 * openedChained, faster, from the plain text cut at MARKs around the values of `fields` (in the
 * order the text holds them), as the SQLite walk reads a row: the commitments of a field's value
 * are put in within that value alone, and the rest of the text is copied without reading it.
 * Undefined where this reading does not serve: a piece that is not one JSON value (an edit appended
 * text to a JSON column), or a path that starts at a field not marked. The caller then reads the
 * unmarked text with openedChained, which reads every value of the row.
 */
export function markedOpener(fields: readonly string[], salts: ReadonlyMap<string, string>, cache: CommitCache) {
  const keys = fields.map((f) => JSON.stringify(f));
  // One walk's memory (its salts never change during it): the overlay the row before stored, which
  // a player's next row usually repeats, and the value each commitment was last opened by (the
  // HMAC cache would answer too, after building its key from the salts' list and the value).
  let last: { stored: string; parsed: Parsed | undefined } = { stored: '', parsed: undefined };
  const openedBy = new WeakMap<Slot, string>();
  const open: Opener = (value, slot) => {
    if (openedBy.get(slot) === value) return true;
    const ok = opens(value, slot.list, slot.erasable, salts, cache) === true;
    if (ok) openedBy.set(slot, value);
    return ok;
  };
  return (pieces: readonly string[], stored: string): { text: string; opened: boolean } | undefined => {
    try {
      if (pieces.length !== 2 * keys.length + 1) return undefined;
      if (stored !== last.stored) last = { stored, parsed: parse(stored) };
      // A mark stands between a value and the ':' before it or the ',' or '}' after it: no '"erasable":' spans one.
      return last.parsed && openedPieces(pieces, keys, last.parsed, open, !pieces.some((p) => p.includes('"erasable":')));
    } catch {
      return undefined;
    }
  };
}

/**
 * markedOpener's reading of one row: `pieces` its marked text cut at the marks (the values of the
 * fields `keys` names, as JSON text, at the odd places); `plainClean`: no commitment stands in the
 * plain text (one copied there in place of a value opens nothing).
 */
function openedPieces(
  pieces: readonly string[],
  keys: readonly string[],
  parsed: Parsed,
  open: Opener,
  plainClean: boolean,
): { text: string; opened: boolean } | undefined {
  const out: Built = { text: '', from: 0, opened: parsed.person && plainClean };
  let found = 0;
  for (let f = 0; f < keys.length; f++) {
    const value = pieces[2 * f + 1]!;
    // A JSON column holds its text raw: one value, or openedChained reads what follows it as more keys.
    if (valueEnd(value, 0) !== value.length) return undefined;
    out.text += pieces[2 * f];
    const child = parsed.trie.get(keys[f]!);
    if (child instanceof Map) {
      const inner: Built = { text: '', from: 0, opened: out.opened };
      if (replaceIn(value, 0, child, parsed.slots, inner, open) !== value.length) return undefined;
      out.text += inner.text + value.slice(inner.from);
      out.opened = inner.opened;
      found++;
      continue;
    }
    if (child === undefined) {
      out.text += value;
      continue;
    }
    const slot = parsed.slots[child.slot]!;
    if (out.opened) out.opened = open(value, slot);
    out.text += slot.text;
    found++;
  }
  if (found !== parsed.trie.size) return undefined;
  out.text += pieces[2 * keys.length];
  return { text: out.text, opened: out.opened };
}

/**
 * A committed row's fields as its chain commits them, for the eraser: the stored whole text parsed,
 * or the plain fields with an overlay's commitments set at their paths (even where the text no
 * longer expands, a plain value edited). Undefined when what is stored reads as neither, or names a
 * path the row lacks: the eraser then blanks every person field whole.
 */
export function committedFieldsOf(stored: string, plain: Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!isOverlay(stored)) return isObject(parsed) ? parsed : undefined;
    const entries = entriesOf(parsed);
    if (!entries) return undefined;
    const out = structuredClone(plain);
    for (const [path, c] of entries) if (!setAt(out, path, c)) return undefined;
    return out;
  } catch {
    return undefined;
  }
}

/** Sets a value at a path of the row's own keys and indices only (never a prototype's, an array's length or `__proto__`); false where there is none. */
function setAt(root: Record<string, unknown>, path: unknown[], value: unknown): boolean {
  let node: unknown = root;
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    const own = Array.isArray(node)
      ? typeof step === 'number' && Number.isInteger(step) && step >= 0 && step < node.length
      : isObject(node) && typeof step === 'string' && step !== '__proto__' && Object.hasOwn(node, step);
    if (!own) return false;
    const at = node as Record<string | number, unknown>;
    if (i === path.length - 1) at[step as string | number] = value;
    else node = at[step as string | number];
  }
  return true;
}

/**
 * An overlay's canonical text, written directly: a path's steps are strings and integers, which
 * JSON.stringify writes as JCS does, and a commitment's keys are `by` then `erasable` (the
 * canonicalize library took a fifth of a row's write for the same bytes).
 */
const overlayText = (overlay: Overlay) =>
  `[${overlay.map(([path, c]) => `[${JSON.stringify(path)},{"by":${JSON.stringify(c.by)},"erasable":${JSON.stringify(c.erasable)}}]`).join(',')}]`;

/**
 * What a committed row stores for its chained text: the overlay, or the whole text where the
 * chained row differs from the plain one otherwise than by commitments, or a commitment lies deeper
 * than a reader follows. The overlay gives back exactly the whole text: JCS writes an object as its
 * members' texts in key order, so a value's text replaced by its commitment's leaves the rest as it
 * was (the property tests hold every reader to that, for any names, keys and nesting).
 */
export function storedChained(plain: Record<string, unknown>, committed: Record<string, unknown>, keys: readonly string[], chained: string): string {
  const overlay: Overlay = [];
  for (const k of keys) if (!overlayOf(plain[k] ?? null, committed[k] ?? null, [k], overlay)) return chained;
  if (!overlay.length || overlay.some(([path]) => path.length > MAX_DEPTH)) return chained;
  return overlayText(overlay);
}
