import { RESULTS_EN } from './en-results.js';
import { catalogOf } from './catalog.js';
import { REQUESTS_EN } from './en-requests.js';
import { PRIVACY_EN } from './en-privacy.js';

/**
 * What the bot says, in English, by identifier (ICU MessageFormat: `{name}` is a parameter, plural
 * forms as `{n, plural, one {…} other {…}}`). German and French translate every key with the same
 * parameters (tests/unit/messages.test.ts). Parameters are given already escaped where they are a
 * player's text; options and commands are passed by English name and shown as the reader's client
 * names them.
 */
const GENERAL_EN = {
  // The router's own answers.
  failed: 'Something went wrong (ref {ref}). Nothing was recorded for this request.',
  ledger: 'The roll could not be recorded, so no result is shown. Please try again (ref {ref}).',
  duplicate: 'This interaction was already handled (Discord delivered it twice, or it was sent again): nothing more was done.',
  rateLimited: 'Slow down: you are sending commands faster than this server allows. Try again in {s} s.',
  unknownButton: 'That button is not one of ours, or it has expired.',
  alreadyDone: 'That was already done.',

  // Options: what is allowed, and what is wrong.
  allowedInteger: 'a whole number from {min} to {max}',
  allowedBoolean: 'true or false',
  allowedChoice: 'one of {choices}',
  allowedText: 'text of 1 to {max} characters',
  allowedMember: 'a member of this server',
  allowedRole: 'a role of this server',
  allowedChannel: 'a text channel of this server',
  allowedFile: 'an attached file',
  casualtiesFormat: 'write it as lost/original, like 2/5',
  casualtiesOriginal: 'the original strength must be at least 1',
  casualtiesNegative: 'losses cannot be negative',
  casualtiesOverOriginal: 'more lost than the original strength',
  allowedCasualties: 'lost/original with 0 ≤ lost ≤ original and original ≥ 1, like 2/5',
  tooLong: 'that is {length} characters, over the limit of {max}',
  notAnOption: '`{name}` is not an option of {command}: its options are {names}.',
  notAnOptionQuote:
    '`{name}` is not an option of {command}: its options are {names}. If `{typed}` is part of `{text}`, put the whole value of `{text}` in quotes: `{text}:"{value}"`.',
  noOptions: '`{name}` is not an option of {command}: it takes no options.',
  optionRequired: '`{name}` is required: {allowed}.',
  optionWrong: '`{name}` must be {allowed} (you gave {given}).',
  optionWrongWhy: '`{name}` must be {allowed} (you gave {given}): {why}.',

  noSubcommand: 'there is no {given}; {command} takes one of: {names} (e.g. {example}).',
  takesOneOf: '{command} takes one of: {names} (e.g. {example}).',
  quoteNotClosed: 'a {quote} quote is not closed',
  expectedNameValue: 'expected name:value, got {given}',
  givenTwice: '`{name}` is given twice',

  // Who may do what.
  gmOnly: 'Only a GM (Manage Server, or the GM role set with {config}) can {what}.',
  gmSeeServerHistory: "see the whole server's history",
  gmSeeServerStats: "see the whole server's statistics",
  gmChangeSettings: 'change the settings',
  gmVoid: 'void a roll',
  gmAnnotate: 'annotate a roll',
  gmExport: 'export the ledger',
  gmGiveUnit: 'give a unit to another player',
  gmGiveUnitOnly: 'Only a GM can give a unit to another player.',
  gmInstallPack: 'install a rule pack',
  gmRemovePack: 'remove a rule pack',
  onlyOwnerOrGm: 'Only {owner}, who owns {unit}, or a GM can {what}.',
  onlyOwnerOrGmHint: 'Only {owner}, who owns {unit}, or a GM can {what}. {hint}',
  markShaken: 'mark {unit} shaken',
  changeIt: 'change it',
  removeIt: 'remove it',
  rollWithoutRoster: 'To roll without changing the roster, leave the unit out.',
  onlyStarterOrGm: 'Only the player who started {game}, or a GM, can change it.',
  onlyRollerRefuses: 'Only {user}, who rolled it, or a GM can refuse the battle hardening.',
  onlyRollerReveals: 'Only {user}, who rolled it, or a GM can reveal roll {id}.',
  onlyRollerCommander: 'Only {user}, who rolled this rally, or a GM can call the commander in.',

  // Games, filters, rolls on record.
  noGameHere: 'No game is running in this channel: start one with {start} system:<system> name:<name>.',
  noRollHere: 'There is no roll {id} in this server.',
  badWhen: '`{name}` {given}: use a date (2026-11-29), a time (2026-11-29T18:00Z) or a span back from now (30m, 2h, 3d, 1w).',
  gamesNamed: '{n} games of this server are named {name}: {games}. Give `{game}` the id of the one you mean.',
  gameNamedItem: '{name} (`{id}`, started {date})',
  noGameNamed: 'There is no game {name} in this server, by id or by name: pick one from the list `{game}` offers as you type.',
  leftRoster:
    '{unit} left the roster of {game} ({at} UTC): nothing was rolled. To roll for it anyway, leave `{unitOption}` out; to bring it back, {add} it again.',
  beaconUnreadable:
    '{game} takes its dice from the public beacon chain {chain}…, which this bot is not set up to read (BEACON_CHAIN): nothing was rolled. Its host must set the beacon back, or end the game.',
  tournamentSignedOnly:
    '{game} is a tournament game: its rolls are taken only as requests Discord signed (a slash command or button in Discord, with the bot in HTTP mode), so nothing was rolled.',
  seedsWaiting: "{game}'s dice wait for committed seeds to be revealed: {players} ({reveal}:<seed>).",
  alreadySettled: 'This roll was already settled: its beacon round came in once, and it was rolled or expired then.',
  boundGameGone:
    'This roll was bound to beacon round {round} in a game that has ended since: nothing was rolled (the bot never rolls a bound roll with dice of its own). Roll again.',
  boundRollsWaiting:
    '{game} cannot end while {n, plural, one {a roll waits} other {# rolls wait}} for {n, plural, one {its} other {their}} beacon round: {rolls}. The bot never rolls them itself: end the game once they are rolled or expired.',
  sealedBeforeCommitments: 'Roll {id} was sealed before sealed rolls carried a commitment: a GM can read it with {show}.',
  revealTampered:
    "Roll {id} cannot be revealed: its stored payload does not open the commitment in its chained row, so it was changed after the roll. Nothing was published; run {verify} and tell the server's operator.",
  alreadyRevealed: 'Roll {id} was already revealed.',
  notSealed: 'Roll {id} is not sealed: its result is already public.',
  cannotShowHere: 'Roll {id} cannot be shown here.',
  alreadyVoid: 'Roll {id} is already void.',
  notARollToVoid: '{id} is {article}{kind} row, not a roll: only rolls and rulings can be voided.',

  // Attached files.
  fileMissing: 'The file did not come with the command: attach it again.',
  fileTooBig: '{file} is {size, number} bytes; at most {max, number} are read.',
  fileNotDiscords: "{file} is not on Discord's file server: it was not read.",
  fileUnreadable: '{file} could not be read from Discord (HTTP {status}): attach it again.',
  fileNotText: '{file} is not UTF-8 text.',

  // Rule packs.
  packNotInstalled: 'The pack was not installed:\n{problems}',
  packMoreProblems: '…and {n} more.',
  packNeedsHigherVersion: '/{pack} is installed at version {installed}: a changed pack needs a higher version (you gave {given}).',
  noSuchPack: 'No pack "{pack}" is installed here. {list} shows the installed ones.',
  packGone: "The rule pack {pack} is no longer installed here: its roster's units cannot be added or changed.",
  packRefused: '/{pack}: {why}.',
  // Why a pack roll is refused: the option and field names are the pack author's, shown as written.
  packNeedsOption: '{option} is needed',
  packNeedsOptionOrUnit: '{option} is needed: give it, or name a unit that has {field}',
  packNeedsField: '{field} is needed: name a unit that has it',
  packValueNotAllowed: '{option}: {value} is not allowed ({allowed})',
  packRerollTaken: 'This roll was re-rolled already (re-roll {id}): once only.',
  packRerollOwner: 'Only {user}, who made this roll, may take its re-roll.',
  packRerollNotOffered: 'This roll offers no re-roll.',
  packRerollLapsed: 'The offer of {label} on roll {id} has lapsed: {why}.',
  packFileOrExample: 'Give one of file: (a pack file you attach) or example: (a pack the bot ships).',

  // Units and their fields.
  noFields: '`{fields}`: {article}{system} unit keeps no fields: leave `{fields}` out.',
  fieldsNotNameValue: '`{fields}`: {given} is not name:value; write them like {example}.',
  fieldsUnreadable: '`{fields}`: {why}.',
  notAField: '`{fields}`: {name} is not a field of {article}{system} unit (its fields: {names}).',
  fieldWrong: '`{fields}`: {name} must be {allowed} (you gave {given}).',
  fieldWrongWhy: '`{fields}`: {name} must be {allowed} (you gave {given}): {why}.',
  fieldsMissing: '{Article}{system} unit needs {missing} in `{fields}`, like {fields}:{example}.',
  noUnitNamed: 'There is no unit named {name} in {game}. {list} shows the roster.',
  unitExists: 'There is already a unit named {name} in {game}.',
  unitExistsAnyCase: 'There is already a unit named {name} in {game} (names ignore case).',
  rosterFull: "{game} already has {max} units, the most a game's roster holds: remove one with {remove} first.",
  nothingToChange: 'Nothing to change: give the fields to set.',
  rosterElsewhere: 'That roster is not in this channel.',
  moreThanOriginal: '`{fields}`: {what} ({n}) cannot be more than original ({original}).',

  // Games.
  sealedUnrevealed:
    '{game} has {n, plural, one {# sealed roll} other {# sealed rolls}} not yet revealed ({ids}): ending it would publish the seed their dice come from. Reveal them with {reveal}, or a GM can end it with reveal_sealed:true.',
  tournamentNeedsHttp:
    'fair:tournament needs the bot in HTTP interactions mode (INTERACTIONS_MODE=http), where Discord signs every request and the bot keeps the signed bytes as evidence: this bot does not receive signed requests here. Start the game without it, or ask the host to switch modes.',
  tournamentNeedsBeacon:
    'fair:tournament needs dice from the public beacon (BEACON_CHAIN), which this bot has turned off: nobody could prove the host did not know the dice. Start the game without it, or ask the host to set the beacon.',
  notASystem: '`{system}` {given} is not a rule system here: one of {names}.',
  notASystemNoPacks: '`{system}` {given} is not a rule system here: one of {names} (or a rule pack, once a GM installs one with {install}).',
  gameRunning: 'A game is already running in this channel: {game} ({system}). End it with {end} first.',
  seedsAfterRoll: '{game} has rolled already: seeds are taken only before the first roll.',
  notAsl: "{game} is not an ASL game: SANs and booby traps are ASL's (A14, B28.9).",
  gmPutsOnSide: 'Only a GM can put another player on a side.',
  alreadyJoined: 'You already joined {game} as {side}: a GM can move you ({join} side:… user:…).',
  oneSeedAction: 'Give exactly one of `{commit}` (the hash), `{reveal}` (the seed) or `{drop}` (a player whose commitment to drop).',
  beaconNoSeeds: '{game} takes its dice from the public beacon, which nobody can foresee or steer: it takes no player seeds.',
  badCommitment: '`{commit}` must be a SHA-256 as 64 hex digits (you gave {given}).',
  commitNeedsSide: 'Only a player on a side of {game} can commit to a seed: join one first ({join} side:axis or side:allied).',
  alreadyCommitted: 'You already committed to a seed in {game}: reveal it with {seed} reveal:<your seed>.',
  commitmentsClosed: 'A seed of {game} is already revealed: commitments are closed.',
  tooManySeeds: '{game} already has {max} seed commitments, the most a game takes.',
  noCommitment: 'You have no commitment in {game}: commit first with {seed} commit:<SHA-256 of your seed>.',
  seedRevealed: 'Your seed is already revealed.',
  seedMismatch: "That seed's SHA-256 is {hash}, not the {committed} you committed to.",
  dropSeedOwner: 'Only the player who started {game}, or a GM, can drop a seed commitment.',
  noCommitmentOf: '<@{user}> has no seed commitment in {game}: {status} lists them.',
  revealedSeedStays: "{player}'s seed is already revealed: a revealed seed stays.",

  // Review: history, receipts, config, export, acknowledgements.
  pageNotHere: 'That history page is not on record in this server.',
  pageExpired: 'That history page has expired (pages last a day): run {history} again.',
  pageNotYours: 'Only the player who asked for this history can page it: run {history} yourself.',
  noReceiptKey: 'This bot has no receipt key, so it cannot sign receipts: the operator must start it with its key file.',
  receiptNotARoll: '{id} is {article}{kind} row, not a roll or a ruling: ask for the receipt of the roll it marks.',
  receiptSealed: 'Roll {id} is sealed: its receipt exists only after its reveal ({reveal} id:{id}).',
  notTextChannel: '<#{id}> is not a text channel: {need}.',
  botCannotPost:
    "The bot cannot post in <#{id}>: it lacks {missing} there. Grant those to the bot (or its role) in the channel's settings, then run this again.",
  sealedNeedText: 'sealed results need a text or announcement channel',
  logNeedText: 'the roll log needs a text or announcement channel',
  everyoneNotGm: '@everyone cannot be the GM role: every member would be a GM. Pick a role only referees hold.',
  exportTooBig:
    'The export passes {mb} MB, the most Discord takes in this reply, after {rows} rows. Narrow it with since:, until:, game:, system: or user: (e.g. {export} since:30d) and export it in parts.',
  ackOwnRoll: 'Acknowledge is for your opponent: your own roll needs no acknowledgement.',
  ackNeedsHttp: 'An acknowledgement keeps the request Discord signed, which this bot receives only in HTTP mode: nothing was recorded.',
  ackTwice: 'You acknowledged roll {id} already.',

  // ASL.
  drIsOneDie: '`{category}` {given} is a dr (one die): leave `{dice}` out or give dr.',
  numberIsMc: '`{number}` is the #MC: a rally takes none.',
  rallyOnly: '`{self_rally}`, `{desperation}` and `{terrain}` apply to a rally: add {check}:rally.',
  selfRallyNoLeader: 'A Self-Rally has no rallying leader: leave out `{leader_drm}`.',
  notOnRecord: 'That roll is not on record in this server.',
  notADr: 'Roll {id} is a /{command} roll, not a /dr: it has nothing to roll again.',
  onlyRollerRerolls: 'Only {user}, who made roll {id}, can roll it again.',
  unitUnreadable: '`{unit}` {given}: {why}.',
  sentence: '{what}.',
  sentenceNothingRolled: '{what}. Nothing was rolled or recorded.',
  tooManyCompanions: '`{companions}`: at most {max} units (you gave {n}).',
  companionMl: '`{companions}` {given}: ml must be a whole number from 1 to 10.',
  companionUnreadable: '`{companions}` {given}: {why}.',
  companionNoMl: '`{companions}` {given}: the unit data gives it no Morale Level; add it, e.g. "{text} ml:8" (nothing was rolled).',
  disruptedSelfRally: '{unit} is Disrupted: a Disrupted unit may not Self-Rally (A19.12).',
  noMorale: '{unit} has no Morale Level in the data: give its counter or `{ml}`.',
  hobExempt: '{unit}: no Heat of Battle DR — {why} (A15.1). Nothing was rolled or recorded.',
  hobNotOnRecord: 'That Heat of Battle roll is not on record in this server.',
  nothingToRefuse: 'That Heat of Battle result has no battle hardening to refuse.',
  voidedNoChoice: 'A GM voided roll {id}: a voided roll offers no choice.',
  voidedNoChoiceWhy: 'A GM voided roll {id} ({why}): a voided roll offers no choice.',
  hardeningRefused: 'That battle hardening was already refused.',
  counterUnreadable: '`{fields}`: counter {given}: {why}.',
  heroicForLeader: '`{fields}`: heroic is for a leader.',
  woundedForLeader: '`{fields}`: wounded is for a leader or hero (A17).',

  // ASL units as players write them.
  counterNoNationality: '{counter} names no nationality: did you mean {list}? Put the nationality in the unit or give `{nationality}`',
  notANationality: '{word} is not a nationality the bot knows ({known})',
  twoNationalities: 'the unit names two nationalities ({a}, {b})',
  aHalfSquad: 'a half-squad',
  aFullSquad: 'a full squad',
  fullSideFlips: '{unit} is {size}; its reduced side is {flips}',
  fullSideOnly: '{unit} is {size} with no reduced side in the data',
  classInData: '{unit} is {classes} in the data, not {given}',
  severalInData: '{unit} is more than one unit in the data ({units}): add {classes}',
  notInData: '{unit} is not in the unit data. Closest known: {closest}. To roll it anyway, give its `{class}`',
  nameTheNationality: 'name the nationality, in the unit ("German 4-6-7") or with `{nationality}`',
  notACounter: '{text} is not a counter the bot can read: write the unit as its counter, e.g. "{nat} 4-6-7" for a squad or "{nat} 8-1" for a leader',
  notACounterGiven:
    '{text} is not a counter the bot can read: write the unit as its counter, e.g. "{nat} 4-6-7" for a squad or "{nat} 8-1" for a leader (with `{nationality}` given, "4-6-7" is enough)',
  twoCounters: '"{text}" names more than one counter ({counters}): give one',
  badCounter: '"{counter}" is not a counter: write a squad as 4-6-7 and a leader as 8-1 or 6+1',
  unitSaysOther: 'the unit says {word} but `{option}` is {given}',
  giveTheCounter: 'give the counter, e.g. "{nat} 4-6-7" for a squad or "{nat} 8-1" for a leader',

  japaneseSquadUnbroken: '{unit}: Japanese squads have no broken side (G1.1); only their half-squads break and rally',
  heroNeverBroken: '{unit}: heroes are never broken (A15.2, A17.1), so there is nothing to rally',
  berserkNeverBroken: '{unit}: a berserk unit is never broken (A15.42); a roster unit stops being berserk through {edit}',
  commissarLeadsRally: '`{commissar}:leads_rally` is for a rally (A25.222); on an MC give `{commissar}:in_location`',
  selfRallyNoCommissar: 'a Self-Rally has no rallying leader, so no Commissar leads it',
  commissarsRussian: '`{commissar}:{given}`: Commissars are Russian (A25.22), and {unit} is not',
  isTheCommissar: '{unit} is the Commissar: his +1 ML is for the other units in his Location (A25.221)',
  whoRallies:
    '{unit}: say who rallies it — `{leader_drm}` for the rallying leader (0 for an 8-0) or `{self_rally}:first`/`{self_rally}:later` for a Self-Rally (A10.6)',
  woundedIsSmc: '`{wounded}` is for a leader or hero (A17)',
  subTypeNationality: '`{sub_type}` {given} is {nat}, but the unit is {unit}',
  commissarIsLeader: '`{sub_type}` commissar is a leader: give a leader counter such as "Russian 9-1"',
  japaneseSituation: '`{situation}` {given} is for Japanese units ({text}, A15.1)',

  // Hearts of Tin.
  rallyNotOnRecord: 'That rally is not on record in this server.',
  voidedNoReroll: 'A GM voided rally {id}: a voided rally offers no re-roll.',
  voidedNoRerollWhy: 'A GM voided rally {id} ({why}): a voided rally offers no re-roll.',
  rerollInvalid: 'That rally cannot be re-rolled: its recorded options no longer validate.',
  noReroll: 'The rules give no commander re-roll for that rally.',
  commanderJoined: 'The commander has already joined this unit (re-roll {id}): one re-roll per rally.',
  commanderJoinedOnce: 'The commander has already joined this unit: one re-roll per rally.',
  rerollLapsed: 'The commander re-roll offer of rally {id} has lapsed: {why}.',
  lapsedGameEnded: 'the game has ended, so the rout stands',
  lapsedTurnOver: 'turn {turn} is over (the game is at turn {now})',
  lapsedGameOver: 'the game has ended',
  lapsedGameStarted: 'a game has started in this channel since',
  lapsedUnitLeft: 'the rout already stood: the unit has left the field',
  lostOverOriginal: '`{lost}` ({n}) cannot be more than `{original}` ({of}).',
  noDisorderMarkers: '{unit} has no disorder markers: {why}.',
  theUnitNoDisorder: 'The unit has no disorder markers: {why}.',
  noDisorderNeedsNoRally: 'a unit with no disorder does not need to rally',
  noStrengthLeft: '{unit} has no strength left: it is gone, not disordered.',
  strengthOverOriginal: "`{strength}` ({n}) cannot be more than {unit}'s original strength ({of}).",
  lostOverLeft: '`{lost}` ({n}) is more than {unit} has left ({of}).',
  lostOverStrength: '`{lost}` ({n}) cannot be more than `{strength}` ({of}).',

  // Lightning War.
  forInfantry: 'infantry',
  forVehicles: 'vehicles',
  rallyNotReason: '`{rally}` and `{reason}` do not go together: a rally attempt is not a morale check caused by an event.',
  casualtiesOverRoster: "`{casualties}` {lost}/{original}: {unit}'s original strength on the roster is {of}.",
  onlyInfantryRallies:
    'Only infantry rallies: {article}{type, select, armored_vehicle {armored vehicle} soft_vehicle {soft vehicle} other {{type}}} cannot (Lightning War, Rallying).',
  steadyNoRally: '{unit} is steady on the roster: only a retreating or routing unit rallies.',
  reasonDoesNotFit:
    '`{reason}` {given} is for {what}, and the unit is {article}{type, select, armored_vehicle {armored vehicle} soft_vehicle {soft vehicle} other {{type}}}: nothing was rolled or recorded.',

  // Wacht am Rhein.
  statusForUntracked: '`{status}` describes an untracked unit; {unit} is on the roster as {fatigue}, which only events and recoveries change (or {edit}).',
  noWarUnit: "There is no Wacht am Rhein unit named {name} in this channel's game. For an untracked unit give `{status}` too.",
  noWarUnitStrengths:
    "There is no Wacht am Rhein unit named {name} in this channel's game. For an untracked unit give `{status}`, `{attack}`, `{defense}` and `{movement}` too.",
  nameAUnit: "Name a roster `{unit}`, or give an untracked unit's `{status}`.",
  untrackedStrengths: 'An untracked unit needs `{attack}`, `{defense}` and `{movement}`.',
  byOverkillOnly: '`{by}` says whose attack an Overkill came from: it goes with event:overkill only.',
  notInMr: '{unit} is in {mode} mode, not Maneuver Reserve: only a unit in MR mode can leave it (13.1.3).',
  mrExempt:
    '{unit} is covered by its Maneuver Reserve exemption in this ENA, which spares only fatigue from its own actions (13.1.3): give `{by}:own_attack` (a GA it made) or `{by}:enemy_attack` (an enemy GA or Barrage). Nothing was recorded.',
  theUnit: 'The unit',
  tacticalRequired: '`{tactical}` is required for an untracked unit: is it in Tactical mode?',
  recoveryNotResting: 'Recovery is taken in the Resting Phase (13.1.2), and {game} is at {when}: set it with {turn} number:<n> phase:resting.',
  noTurnYet: 'no turn yet',
  atTurn: 'turn {turn}',
  atTurnPhase: 'turn {turn}, {phase}',
  recoveredThisPhase: '{unit} already recovered a step in the Resting Phase of turn {turn}: one step per Resting Phase (13.1.2).',
  fatiguedNoMode: '{Article}{fatigue} unit may not enter {mode} mode (13.1.1).',
  preparedAssault: 'Prepared Assault',
  combatReserve: 'Combat Reserve',

  // /odds and /roll dice.
  oddsUnknown: "`{roll}` starts with {given}, which {odds} does not know: it starts with one of {names}. (A rule pack's command takes odds_only:true.)",
  oddsNotOptionValue: '`{roll}`: {given} is not option:value, like {odds} roll:"rally disorder:2".',
  oddsUnreadable: '`{roll}`: {why}.',
  badExpression:
    '`{expression}` {given}: {why}. Allowed: NdS (N 1–100, S 2–1000, d% for d100), constants 0–1000, + and -, one of kh/kl/dh/dl per term; at most 20 terms and 200 dice. Example: {example}.',
} as const;

/** Every sentence, in English. */
export const EN = catalogOf(GENERAL_EN, RESULTS_EN, REQUESTS_EN, PRIVACY_EN);

export type MessageKey = keyof typeof EN;
