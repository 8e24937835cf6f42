/** The shape of a language's glossary (src/i18n/glossary.ts explains what it is for). */
export type Gender = 'm' | 'f' | 'n';

export type Term = {
  /** The one word (or phrase) for the concept, as it starts a sentence's noun phrase. */
  readonly word: string;
  readonly plural?: string;
  readonly gender?: Gender;
  /** Words a translator might reach for that mean the same: the test refuses them in every sentence. */
  readonly not?: readonly RegExp[];
  /** Phrases where the same letters mean another thing (a counter's side, a page): written out, not the concept. */
  readonly elsewhere?: readonly string[];
};

export type Glossary = {
  readonly terms: Readonly<Record<Concept, Term>>;
  /** English the players read as printed (rule terms, counter and marker names): left in on purpose. */
  readonly kept: readonly string[];
  /** Words spelled as in English that are this language's own words too ("Elite", "Server"). */
  readonly shared: readonly string[];
};

/** The concepts every translated glossary words: rule terms, and the bot's own words for its records. */
export const CONCEPTS = [
  'leader',
  'hero',
  'squad',
  'halfSquad',
  'reducedSquad',
  'unit',
  'turn',
  'roll',
  'original',
  'final',
  'moraleLevel',
  'fatigue',
  'restingPhase',
  'rallyRoll',
  'selfRally',
  'goodOrder',
  'fallBack',
  'armoredVehicle',
  'woods',
  'counter',
  'side',
  'roster',
  'failed',
  'pinned',
] as const;
export type Concept = (typeof CONCEPTS)[number];

/** English both languages' players read as printed: rule terms, counter and marker names, the games' own names. */
export const PRINTED: readonly string[] = [
  'Heat of Battle',
  'Battle Hardening',
  'Battle hardened',
  'battle hardened',
  'Berserk',
  'berserk',
  'Disrupted',
  'Good Order',
  'Self-Rally',
  'Casualty Reduction',
  'Casualty MC',
  'Step Reduction',
  'Step-Reduced',
  'Fanatic',
  'Human Wave',
  'Leader Creation',
  'Wound Severity',
  'Desperation Morale',
  'No Quarter',
  'Axis Minor',
  'Allied Minor',
  'Unlikely Hit',
  'Unlikely Kill',
  'Cower',
  'Conscript',
  'Green',
  'Original',
  'Final',
  'ADJACENT',
  'Location',
  'Extended Night Activity',
  'Maneuver Reserve',
  'Ground Assault',
  'Barrage',
  'Overkill',
  'Prepared Assault',
  'Combat Reserve',
  'Tactical',
  'Movement Phase',
  'Fatigue',
  'Resting',
  'Hearts of Tin',
  'Lightning War',
  'Wacht am Rhein',
  'Morale Officer',
  'US Marines',
  'Gurkha',
  'Gurkhas',
  'Morale Check',
  'MPh',
  'RtPh',
  'RPh',
  'NdS',
  'drand',
];
