import type { PRIVACY_EN } from './en-privacy.js';

/** French for en-privacy.ts: the same identifiers and parameters. */
export const frPrivacy: Record<keyof typeof PRIVACY_EN, string> = {
  'privacy.showTitle': 'Ce que ce bot garde sur toi',
  'privacy.showBody':
    'Sur {servers, plural, one {# serveur} other {# serveurs}} :\n{list}\n\n{legacy, plural, =0 {Les hachages du registre ne couvrent ton nom, ton identifiant et ce que tu as tapé que par des engagements, les valeurs étant gardées à côté : effacer retire les valeurs, et tes lignes gardent leurs dés.} one {Ton nom et ton identifiant Discord restent dans # ligne écrite avant que ce bot garde les noms à côté de son registre : son hachage les couvre. Les lignes plus récentes les gardent à côté, et effacer les retire.} other {Ton nom et ton identifiant Discord restent dans # lignes écrites avant que ce bot garde les noms à côté de son registre : leurs hachages les couvrent. Les lignes plus récentes les gardent à côté, et effacer les retire.}} {export} te donne tout en un fichier ; {erase} l’efface.',
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
  'privacy.rowsErased': 'ton nom, ton identifiant et ce que tu as tapé dans {n, plural, one {# ligne} other {# lignes}} du registre',
  'privacy.exportTitle': 'Tes données',
  'privacy.exportBody':
    'Tout ce que ce bot garde sur toi, en un fichier JSON : {rows, plural, one {# ligne} other {# lignes}} de toi, et {side, plural, one {# entrée} other {# entrées}} à côté du registre.',
  'privacy.eraseTitle': 'Effacer tes données ?',
  'privacy.eraseBody':
    'Ceci efface, sur {servers, plural, one {# serveur} other {# serveurs}} :\n{list}\n\nTes lignes restent dans leurs parties, avec leurs dés, dans chaque rapport et chaque décompte ; ton nom, ton identifiant et ce que tu as tapé en sortent. {legacy, plural, =0 {} one {# ligne écrite avant que ce bot garde les noms à côté de son registre les garde : son hachage les couvre. } other {# lignes écrites avant que ce bot garde les noms à côté de son registre les gardent : leurs hachages les couvrent. }}Le registre de chaque serveur note que les données d’une personne ont été effacées, sans la nommer. C’est irréversible.',
  'privacy.eraseOnlyRows': 'rien à côté du registre, sauf ce que les requêtes signées d’autres membres contiennent de toi, cherché quand tu appuies',
  'privacy.eraseButton': 'Effacer mes données',
  'privacy.erasedTitle': 'Tes données sont effacées',
  'privacy.erasedBody':
    'Effacé sur {servers, plural, one {# serveur} other {# serveurs}} : {list}. {legacy, plural, =0 {Tes lignes restent, avec leurs dés, sans nommer personne.} one {Ton nom et ton identifiant restent dans # ligne écrite avant que ce bot garde les noms à côté de son registre : son hachage les couvre.} other {Ton nom et ton identifiant restent dans # lignes écrites avant que ce bot garde les noms à côté de son registre : leurs hachages les couvrent.}}',
  privacyBindingWaits:
    '[Un roll] à toi attend le tour de balise {round} : effacer maintenant retirerait la requête dont il est tiré. Efface une fois qu’il est lancé.',
  privacyNotYours: 'Ce bouton efface les données du membre à qui il a été montré, pas les tiennes : utilise {erase}.',
  privacyExportTooBig:
    'Tes données dépassent les {max} Mo que cette réponse peut porter (dépassés après {rows} de tes lignes) : demande le fichier à l’hébergeur de ce bot.',
  privacySeedWaits:
    'La partie {game} attend ta graine : révèle-la d’abord avec {seed}, ou un MJ la retire ; une graine que personne ne peut plus révéler arrêterait la partie pour tous.',
  privacyGameRuns:
    'La partie {game} est toujours en cours avec tes [roll:pl] : les dés de chaque joueur y suivent le nombre de ses [roll:pl], qu’un effacement ferait repartir de zéro. Efface une fois qu’un MJ l’a terminée avec {end}.',
};
