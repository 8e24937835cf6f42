import { capitalized } from '../util/text.js';
import { escapeMarkdown, type APIEmbed, type APIEmbedField } from 'discord.js';
import { fractionValue, memo } from '../rules/odds.js';
import type { Finding, Modifier, Says, Step, Tone } from '../rules/types.js';
import { number, signed } from '../util/numbers.js';
import { percentIn, say, shown } from '../i18n/reader.js';

/** A message button as the bot offers it: the transports draw it (Discord components, the console's text). */
export type Button = { custom_id: string; label: string; style: 'primary' | 'secondary' | 'danger' };

/** Discord's embed limits. */
export const EMBED_LIMITS = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, total: 6000 } as const;

export const TONE_COLOUR: Record<Tone, number> = {
  good: 0x2e9d57,
  mixed: 0xe0a526,
  bad: 0xc8372d,
  neutral: 0x8a8f98,
};

/** Typed text quoted in a sentence (a refusal naming what was given): in quotes, its markdown shown as typed. */
export const quoted = (v: unknown) => (typeof v === 'string' ? userText(JSON.stringify(v)) : String(v));

/**
 * Text a user typed (unit, game and player names, notes, reasons), escaped so that it shows as
 * typed: no masked links, no fake bold results, no headings. Mentions cannot ping: every message
 * goes out with allowed_mentions { parse: [] }.
 */
export const userText = (s: string) => escaped(s, () => escapeMarkdown(s, { heading: true, bulletedList: true, numberedList: true, maskedLink: true }));

// The same few names come back on every roll, and escaping one took a twentieth of a roll's work.
const escaped = memo<string>(1024);

/** A stored time as a Discord timestamp: each reader sees it in their own time zone. */
export const discordTime = (iso: string) => `<t:${Math.floor(Date.parse(iso) / 1000)}:f>`;

const D6_FACES = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/** A die as a face where one exists (d6), else as its number. */
export const face = (n: number, sides = 6) => (sides === 6 && D6_FACES[n - 1]) || `[${n}]`;

/** A die as its face and its number (the faces render small in an embed, the number reads at a glance); a die other than a d6 as its number alone. */
export const dieText = (n: number, label?: string, sides = 6) => `${label ? `${label} ` : ''}${sides === 6 ? `${face(n)} ` : ''}**${n}**`;

export { number, signed };

/** A rule's words in the reader's language where the rule gave them by identifier; as recorded before it did. */
export const labelOf = (f: Pick<Finding, 'label' | 'says'>) => (f.says ? shown(f.says.label) : f.label);
export const effectOf = (f: Pick<Finding, 'effect' | 'says'>) => (f.says ? shown(f.says.effect) : f.effect);
export const reasonOf = (m: Modifier) => (m.says ? shown(m.says) : m.reason);

export const modifierLine = (m: Modifier) => `\`${signed(m.value)}\` ${reasonOf(m)}`;

/** Text cut to `max` characters, an ellipsis marking the cut. */
export const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

type Show = { heading?: string; notes?: string[] /** Names for the dice in order (ASL's coloured and white). */; diceLabels?: string[] };
const prefix = (show: Show) => (show.heading ? `${show.heading} · ` : '');

/** A ruling as a field: the result in bold, what the unit must do now, notes, and the rule. */
export function findingField(f: Finding, show: Show = {}): APIEmbedField {
  const value = [`**${labelOf(f)}** — ${effectOf(f)}`, ...(show.notes ?? []), `*${f.ref}*`].join('\n');
  return { name: `${prefix(show)}${say('fieldResult')}`, value, inline: false };
}

/** One rolled step as embed fields: dice, modifiers, Final, then the result; a heading names the step once, on its dice. */
export function stepFields(step: Step, show: Show = {}): APIEmbedField[] {
  const p = prefix(show);
  const { heading: _once, ...rest } = show;
  // A step that records its dice's sizes (a rule pack's) shows each by its type: no d6 face on a d10.
  const sides = (step as { sides?: readonly number[] }).sides;
  const dice = say('diceToOriginal', {
    dice: step.dice.map((d, i) => dieText(d, show.diceLabels?.[i], sides?.[i])).join(' · '),
    original: number(step.original),
  });
  const mods = step.modifiers.length ? step.modifiers.map(modifierLine).join('\n') : say('noModifiers');
  return [
    { name: `${p}${say('fieldDice')}`, value: dice, inline: true },
    // Full width: a modifier's reason is a phrase, too long for a third of a phone.
    { name: say('fieldModifiers'), value: mods, inline: false },
    { name: say('fieldFinal'), value: `**${number(step.final)}**`, inline: true },
    findingField(step, rest),
  ];
}

/**
 * The chances line every rolled result carries. "This or better" needs results in an order; the
 * worst result (every result is it or better) says so instead of "this or better 100%".
 */
export function oddsField(odds: { exactly: string; or_better: string }, heading?: string): APIEmbedField {
  const pct = (f: string) => percentIn(fractionValue(f));
  const better = odds.or_better === '1' ? say('oddsWorst') : say('oddsBetter', { fraction: odds.or_better, pct: pct(odds.or_better) });
  const value = say('oddsLine', { exactly: odds.exactly, pct: pct(odds.exactly), better });
  return { name: heading ? `${heading} · ${say('fieldOdds')}` : say('fieldOdds'), value, inline: false };
}

/** A rolled step in one line: its dice, its Final, its result (a first roll a re-roll replaced). */
export const stepLine = (step: Step) =>
  say('stepLine', { dice: step.dice.map((d) => dieText(d)).join(' · '), final: number(step.final), label: labelOf(step) });

export type ResultEmbed = {
  title: string;
  /** What happened, in the title after the roll's name: the first line a phone shows is the answer. */
  headline?: string;
  userName: string;
  tone: Tone;
  fields: APIEmbedField[];
  description?: string;
  rollId: string;
  hash: string;
  footerExtra?: string;
};

/** A result code as players read it: its table's name, else the code in words (`rout_commander_lost` never reaches a reply). */
export const resultName = (code: string, labels: Readonly<Record<string, string>> = {}) =>
  code
    .split(' → ')
    .map((c) => labels[c] ?? capitalized(c.replaceAll('_', ' ')))
    .join(' → ');

/** The name of the result a recorded outcome stands on, as plain text (an autocomplete choice): its step's own label, else the code in words. */
export function plainOutcomeName(outcome: unknown, code: string): string {
  const steps = (outcome as { steps?: { result?: string; label?: string; says?: Says }[] } | null)?.steps ?? [];
  const own = [...steps].reverse().find((s) => s.result === code && typeof s.label === 'string');
  return own ? labelOf(own as { label: string; says?: Says }) : resultName(code);
}

/** The same in a reply: a pack author's label is never markdown. */
export const outcomeName = (outcome: unknown, code: string): string => userText(plainOutcomeName(outcome, code));

/** Every step's result name, once each, in order: `Passed · Hero and Battle Hardening`. */
export const headlineOf = (steps: readonly Pick<Finding, 'label' | 'says'>[]) => [...new Set(steps.map(labelOf))].join(' · ');

const TONE_WEIGHT: Record<Tone, number> = { neutral: 0, good: 1, mixed: 2, bad: 3 };

/** The colour of a result follows its worst consequence (a pass that chains a berserk is not good news). */
export const worstTone = (tones: readonly Tone[]): Tone => tones.reduce((w, t) => (TONE_WEIGHT[t] > TONE_WEIGHT[w] ? t : w), 'neutral');

/** The frame every result shares: title, who rolled, colour, and the ledger footer. */
export function resultEmbed(r: ResultEmbed): APIEmbed {
  const footer = [say('footerRoll', { id: r.rollId }), say('footerHash', { hash: r.hash.slice(0, 8) }), r.footerExtra].filter(Boolean).join(' · ');
  return limitEmbed({
    title: r.headline ? `${r.title} — ${r.headline}` : r.title,
    author: { name: r.userName },
    color: TONE_COLOUR[r.tone],
    ...(r.description ? { description: r.description } : {}),
    fields: r.fields,
    footer: { text: footer },
  });
}

/** Plain notices (help, errors). */
export function noticeEmbed(title: string, description: string, tone: Tone = 'neutral'): APIEmbed {
  return limitEmbed({ title, description, color: TONE_COLOUR[tone] });
}

/** Clips every part to Discord's limits so a long unit name can never make the reply fail. */
export function limitEmbed(e: APIEmbed): APIEmbed {
  const L = EMBED_LIMITS;
  const out: APIEmbed = { ...e };
  if (out.title) out.title = clip(out.title, L.title);
  if (out.description) out.description = clip(out.description, L.description);
  if (out.author) out.author = { ...out.author, name: clip(out.author.name, L.fieldName) };
  if (out.footer) out.footer = { ...out.footer, text: clip(out.footer.text, L.footer) };
  if (out.fields) {
    out.fields = out.fields.slice(0, L.fields).map((f) => ({
      ...f,
      name: clip(f.name, L.fieldName),
      value: clip(f.value, L.fieldValue),
    }));
  }
  return out;
}
