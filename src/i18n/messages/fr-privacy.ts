import type { PRIVACY_EN } from './en-privacy.js';

/** French for en-privacy.ts: the same identifiers and parameters. */
export const frPrivacy: Record<keyof typeof PRIVACY_EN, string> = {
  'privacy.showTitle': 'Ce que ce bot garde sur toi',
  'privacy.showBody':
    'Sur {servers, plural, one {# serveur} other {# serveurs}} :\n{list}\n\nTon nom et ton identifiant Discord restent dans {rows, plural, one {la # ligne} other {les # lignes}} que tu as écrites : les hachages du registre les couvrent. {export} te donne tout en un fichier ; {erase} efface tout ce qui est à côté du registre.',
  'privacy.nothingKept': 'Ce bot ne garde rien sur toi : ni ligne, ni [unit], ni demande, ni réglage ne te nomme.',
  'privacy.nothingBeside': 'rien à côté du registre (seules tes lignes étaient gardées)',
  'privacy.rows': '{n, plural, one {# ligne} other {# lignes}} de toi dans le registre ({here} sur ce serveur)',
  'privacy.units': '{n, plural, one {# [unit]} other {# [unit:pl]}} de l’ordre de bataille à toi',
  'privacy.requests': '{n, plural, one {# [roll] demandé} other {# [roll:pl] demandés}}, par toi ou à toi',
  'privacy.clockTurns': '{n, plural, one {# horloge de partie indique} other {# horloges de partie indiquent}} ton [turn]',
  'privacy.reminders': '{n, plural, one {# rappel} other {# rappels}} pour toi',
  'privacy.savedQueries': '{n, plural, one {# recherche d’historique enregistrée} other {# recherches d’historique enregistrées}}',
  'privacy.evidence': '{n, plural, one {# requête signée par Discord} other {# requêtes signées par Discord}} de tes lignes (les preuves d’un tournoi)',
  'privacy.beaconBindings': '{n, plural, one {# [roll] lié} other {# [roll:pl] liés}} à un tour de balise',
  'privacy.games': '{n, plural, one {# partie} other {# parties}} que tu as lancées ou dotées d’une graine',
  'privacy.exportTitle': 'Tes données',
  'privacy.exportBody':
    'Tout ce que ce bot garde sur toi, en un fichier JSON : {rows, plural, one {# ligne} other {# lignes}} de toi, et {side, plural, one {# entrée} other {# entrées}} à côté du registre.',
  'privacy.eraseTitle': 'Effacer tes données ?',
  'privacy.eraseBody':
    'Ceci efface, sur {servers, plural, one {# serveur} other {# serveurs}} :\n{list}\n\nTes lignes restent dans leurs parties, avec leurs dés, dans chaque rapport et chaque décompte. Ton nom et ton identifiant restent dans {rows, plural, one {la # ligne} other {les # lignes}} que tu as écrites : les hachages du registre les couvrent. Le registre de chaque serveur note que les données d’une personne ont été effacées, sans la nommer. C’est irréversible.',
  'privacy.eraseOnlyRows': 'rien à côté du registre, sauf ce que les requêtes signées d’autres membres contiennent de toi, cherché quand tu appuies',
  'privacy.eraseButton': 'Effacer mes données',
  'privacy.erasedTitle': 'Tes données sont effacées',
  'privacy.erasedBody':
    'Effacé sur {servers, plural, one {# serveur} other {# serveurs}} : {list}. Ton nom et ton identifiant restent dans {rows, plural, one {la # ligne} other {les # lignes}} que tu as écrites dans le registre.',
  privacyBindingWaits:
    '[Un roll] à toi attend le tour de balise {round} : effacer maintenant retirerait la requête dont il est tiré. Efface une fois qu’il est lancé.',
  privacyNotYours: 'Ce bouton efface les données du membre à qui il a été montré, pas les tiennes : utilise {erase}.',
  privacyExportTooBig:
    'Tes données dépassent les {max} Mo que cette réponse peut porter (dépassés après {rows} de tes lignes) : demande le fichier à l’hébergeur de ce bot.',
  privacySeedWaits:
    'La partie {game} attend ta graine : révèle-la d’abord avec {seed}, ou un MJ la retire ; une graine que personne ne peut plus révéler arrêterait la partie pour tous.',
};
