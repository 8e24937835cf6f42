/**
 * verify.html's own words in the reader's language (the browser's first of English, German and
 * French). The report's lines stay as `npm run verify` prints them, in English: the page and the
 * command line must agree byte for byte, and a player quoting a line quotes what the other reads.
 */
import { frenchTypography } from '../../i18n/typography.js';

export const PAGE_LANGUAGES = ['en', 'de', 'fr'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

const en = {
  title: 'Morale Officer · verify a game',
  heading: 'Morale Officer · check a game you were sent',
  intro:
    "Drop the export (<code>.jsonl</code>) a GM made with <code>/export</code>. This page checks every server's hash chain, every game's seed and dice, each player's sequence and every reveal, as <code>npm run verify</code> does. It runs only here: it makes no network request.",
  dropHere: 'Drop the export here, or',
  fileLabel: 'the export file',
  noneChosen: 'no export chosen',
  head: 'Pinned head hash (optional: from a /verify publish message)',
  receipt: 'A receipt (optional: from /roll receipt)',
  key: "The bot's public key (optional when the export lists it: /verify key:true)",
  discordKey:
    "Discord's key for the bot's application (optional: verify_key at discord.com/api/v10/applications/ID/rpc, ID as the report names it). Without it, the key a game names is the host's word.",
  discordKeyBad: "The Discord key is 64 hex digits (verify_key, or Public Key on the Developer Portal's General Information page): check what you pasted.",
  check: 'Check',
  reading: 'Reading {pct}%',
  heads: 'Head hash: {heads} — compare it with the one pinned in the channel.',
  verified: 'Verified: all holds.',
  notVerified: 'NOT verified: see the report.',
  done: 'Done in {ms} ms.',
  chooseFirst: 'Choose an export, or paste a receipt, first.',
  reportNote: '',
};
type Words = typeof en;

const de: Words = {
  title: 'Morale Officer · ein Spiel prüfen',
  heading: 'Morale Officer · prüfe ein Spiel, das du erhalten hast',
  intro:
    'Ziehe den Export (<code>.jsonl</code>) hierher, den ein GM mit <code>/export</code> erstellt hat. Diese Seite prüft die Hash-Kette jedes Servers, Seed und Würfel jedes Spiels, die Folge jedes Spielers und jedes Aufdecken, wie <code>npm run verify</code>. Sie läuft nur hier: sie stellt keine Netzwerkanfrage.',
  dropHere: 'Export hier ablegen, oder',
  fileLabel: 'die Exportdatei',
  noneChosen: 'kein Export gewählt',
  head: 'Angehefteter Kopf-Hash (optional: aus einer /verify-publish-Nachricht)',
  receipt: 'Eine Quittung (optional: von /roll receipt)',
  key: 'Der öffentliche Schlüssel des Bots (optional, wenn der Export ihn enthält: /verify key:true)',
  discordKey:
    'Discords Schlüssel der Bot-Anwendung (optional: verify_key unter discord.com/api/v10/applications/ID/rpc, ID wie der Bericht sie nennt). Ohne ihn ist der Schlüssel, den ein Spiel nennt, nur das Wort des Hosts.',
  discordKeyBad:
    'Der Discord-Schlüssel hat 64 Hex-Ziffern (verify_key, oder Public Key auf der Seite General Information im Developer Portal): prüfe, was du eingefügt hast.',
  check: 'Prüfen',
  reading: 'Lese {pct} %',
  heads: 'Kopf-Hash: {heads} — vergleiche ihn mit dem im Kanal angehefteten.',
  verified: 'Geprüft: alles hält.',
  notVerified: 'NICHT bestätigt: siehe den Bericht.',
  done: 'Fertig in {ms} ms.',
  chooseFirst: 'Wähle zuerst einen Export oder füge eine Quittung ein.',
  reportNote: 'Die Zeilen des Berichts sind auf Englisch, wie npm run verify sie ausgibt.',
};

// French spacing before : ; ! ? and % by the replies' own formatter, not by hand.
const fr: Words = typeset({
  title: 'Morale Officer · vérifier une partie',
  heading: 'Morale Officer · vérifie une partie qu’on t’a envoyée',
  intro:
    'Dépose l’export (<code>.jsonl</code>) qu’un MJ a fait avec <code>/export</code>. Cette page vérifie la chaîne de hachage de chaque serveur, la graine et les dés de chaque partie, la séquence de chaque joueur et chaque révélation, comme <code>npm run verify</code>. Elle ne tourne qu’ici : elle ne fait aucune requête réseau.',
  dropHere: 'Dépose l’export ici, ou',
  fileLabel: 'le fichier d’export',
  noneChosen: 'aucun export choisi',
  head: 'Hash de tête épinglé (facultatif : d’un message /verify publish)',
  receipt: 'Un reçu (facultatif : de /roll receipt)',
  key: 'La clé publique du bot (facultative quand l’export la liste : /verify key:true)',
  discordKey:
    'La clé Discord de l’application du bot (facultative : verify_key à discord.com/api/v10/applications/ID/rpc, ID tel que le rapport le nomme). Sans elle, la clé que nomme une partie n’est que la parole de l’hôte.',
  discordKeyBad:
    'La clé Discord fait 64 chiffres hexadécimaux (verify_key, ou Public Key sur la page General Information du Developer Portal) : vérifie ce que tu as collé.',
  check: 'Vérifier',
  reading: 'Lecture {pct} %',
  heads: 'Hash de tête : {heads} — compare-le à celui épinglé dans le salon.',
  verified: 'Vérifié : tout tient.',
  notVerified: 'NON vérifié : vois le rapport.',
  done: 'Terminé en {ms} ms.',
  chooseFirst: 'Choisis d’abord un export, ou colle un reçu.',
  reportNote: 'Les lignes du rapport sont en anglais, comme npm run verify les écrit.',
});

function typeset(words: Words): Words {
  return Object.fromEntries(Object.entries(words).map(([k, v]) => [k, frenchTypography(v)])) as Words;
}

export const PAGE_WORDS: Record<PageLanguage, Words> = { en, de, fr };

/** The page's language: the first of the browser's languages it has (`de-AT` reads German), else English. */
export function pageLanguage(languages: readonly string[]): PageLanguage {
  for (const l of languages) {
    const base = l.toLowerCase().split('-')[0] as PageLanguage;
    if (PAGE_LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

/** The browser's own tag for the page's language (`de-AT` when it reads German): its numbers are written as that reader writes them. */
export function pageLocale(languages: readonly string[], lang: PageLanguage): string {
  return languages.find((l) => l.toLowerCase().split('-')[0] === lang) ?? lang;
}

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/**
 * A file's size in the unit that fits, in the reader's words and digits ("49 kB", "1,5 Mo"). Units
 * of 1000, as the names kB and MB mean and as phones' file lists count. A unit up as soon as the
 * number would round to 1000 ("1 MB", never "1,000 kB"); one decimal below 10, none above.
 */
export function sizeText(bytes: number, locale: string): string {
  let unit = 0;
  let n = bytes;
  while (Math.round(n) >= 1000 && unit < SIZE_UNITS.length - 1) {
    n /= 1000;
    unit++;
  }
  // Bytes spelled out: the short forms read oddly ("512 byte", "512 o").
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: SIZE_UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: n < 10 ? 1 : 0,
  }).format(n);
}

/** A sentence of the page's words with its values filled in. */
export const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
