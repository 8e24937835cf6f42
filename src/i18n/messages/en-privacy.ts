/**
 * What the bot says about a person's own data (/privacy show, export, erase), in English;
 * de-privacy.ts and fr-privacy.ts translate it.
 */
export const PRIVACY_EN = {
  'privacy.showTitle': 'What this bot keeps about you',
  'privacy.showBody':
    'In {servers, plural, one {# server} other {# servers}}:\n{list}\n\n{legacy, plural, =0 {The record’s hashes cover your name, id and what you typed only as commitments beside them: erasing takes the values, and your rows keep their dice.} one {Your name and Discord id stay in # row you made before this bot kept names beside its record: its hash covers them. Newer rows keep them beside the record, and erasing takes them.} other {Your name and Discord id stay in # rows you made before this bot kept names beside its record: their hashes cover them. Newer rows keep them beside the record, and erasing takes them.}} {export} gives you all of it as a file; {erase} erases it.',
  'privacy.nothingKept': 'This bot keeps nothing about you: no row, unit, request or setting names you.',
  'privacy.nothingBeside': 'nothing beside the record (only your rows were kept)',
  'privacy.rows': '{n, plural, one {# row} other {# rows}} you made in the record ({here} in this server)',
  'privacy.units': '{n, plural, one {# roster unit} other {# roster units}} you own',
  'privacy.requests': '{n, plural, one {# requested roll} other {# requested rolls}} you asked for or were asked',
  'privacy.clockTurns': '{n, plural, one {# game clock} other {# game clocks}} showing your turn',
  'privacy.reminders': '{n, plural, one {# reminder} other {# reminders}} for you',
  'privacy.savedQueries': '{n, plural, one {# saved history search} other {# saved history searches}}',
  'privacy.evidence': '{n, plural, one {# Discord-signed request} other {# Discord-signed requests}} of your rows (a tournament’s evidence)',
  'privacy.beaconBindings': '{n, plural, one {# roll} other {# rolls}} bound to a beacon round',
  'privacy.games': '{n, plural, one {# game} other {# games}} you started or gave a seed to',
  'privacy.rowsErased': 'your name, id and typed text in {n, plural, one {# row} other {# rows}} of the record',
  'privacy.exportTitle': 'Your data',
  'privacy.exportBody':
    'Everything this bot keeps about you, as one JSON file: {rows, plural, one {# row} other {# rows}} you made, and {side, plural, one {# entry} other {# entries}} beside the record.',
  'privacy.eraseTitle': 'Erase your data?',
  'privacy.eraseBody':
    'This erases, in {servers, plural, one {# server} other {# servers}}:\n{list}\n\nYour rows stay in their games, with their dice, in every report and count; your name, id and what you typed leave them. {legacy, plural, =0 {} one {# row you made before this bot kept names beside its record keeps them: its hash covers them. } other {# rows you made before this bot kept names beside its record keep them: their hashes cover them. }}Each server’s record notes that a person’s data was erased, naming no one. This cannot be undone.',
  'privacy.eraseOnlyRows': 'nothing beside the record but what other members’ signed requests hold of you, looked for when you press',
  'privacy.eraseButton': 'Erase my data',
  'privacy.erasedTitle': 'Your data is erased',
  'privacy.erasedBody':
    'Erased in {servers, plural, one {# server} other {# servers}}: {list}. {legacy, plural, =0 {Your rows stay, with their dice, naming no one.} one {Your name and id stay in # row you made before this bot kept names beside its record: its hash covers them.} other {Your name and id stay in # rows you made before this bot kept names beside its record: their hashes cover them.}}',
  privacyBindingWaits: 'A roll of yours waits for beacon round {round}: erasing now would take the request it is rolled from. Erase once it is rolled.',
  privacyNotYours: 'This button erases the data of the member it was shown to, not yours: use {erase}.',
  privacyExportTooBig:
    'Your data is more than the {max} MB this reply may carry (it passed that after {rows} of your rows): ask the host of this bot for the file.',
  privacySeedWaits:
    'Game {game} waits for your seed: reveal it with {seed} first, or a GM drops it; a seed nobody can reveal would stop the game for everyone.',
  privacyGameRuns:
    'Game {game} is still running with your rolls in it: each player’s dice there follow their count of rolls, which an erasure would start again. Erase once a GM ends it with {end}.',
} as const;
