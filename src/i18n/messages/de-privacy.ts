import type { PRIVACY_EN } from './en-privacy.js';

/** German for en-privacy.ts: the same identifiers and parameters. */
export const dePrivacy: Record<keyof typeof PRIVACY_EN, string> = {
  'privacy.showTitle': 'Was dieser Bot über dich speichert',
  'privacy.showBody':
    'Auf {servers, plural, one {# Server} other {# Servern}}:\n{list}\n\nDein Name und deine Discord-ID bleiben in {rows, plural, one {dem # Eintrag} other {den # Einträgen}}, die du gemacht hast: Die Hashes des Protokolls decken sie ab. {export} gibt dir alles als Datei; {erase} löscht alles neben dem Protokoll.',
  'privacy.nothingKept': 'Dieser Bot speichert nichts über dich: Kein Eintrag, [kein unit], keine Anforderung und keine Einstellung nennt dich.',
  'privacy.nothingBeside': 'nichts neben dem Protokoll (gespeichert waren nur deine Einträge)',
  'privacy.rows': '{n, plural, one {# Eintrag} other {# Einträge}} von dir im Protokoll ({here} auf diesem Server)',
  'privacy.units': '{n, plural, one {# [unit]} other {# [unit:pl]}} [dem roster] in deinem Besitz',
  'privacy.requests': '{n, plural, one {# angeforderter [roll]} other {# angeforderte [roll:pl]}}, von dir oder an dich',
  'privacy.clockTurns': '{n, plural, one {# Spieluhr zeigt} other {# Spieluhren zeigen}} deinen Zug',
  'privacy.reminders': '{n, plural, one {# Erinnerung} other {# Erinnerungen}} an dich',
  'privacy.savedQueries': '{n, plural, one {# gespeicherte Verlaufssuche} other {# gespeicherte Verlaufssuchen}}',
  'privacy.evidence': '{n, plural, one {# von Discord signierte Anfrage} other {# von Discord signierte Anfragen}} deiner Einträge (Belege eines Turniers)',
  'privacy.beaconBindings': '{n, plural, one {# [roll]} other {# [roll:pl]}} an eine Beacon-Runde gebunden',
  'privacy.games': '{n, plural, one {# Spiel} other {# Spiele}}, die du gestartet oder mit einem Seed versehen hast',
  'privacy.exportTitle': 'Deine Daten',
  'privacy.exportBody':
    'Alles, was dieser Bot über dich speichert, als eine JSON-Datei: {rows, plural, one {# Eintrag} other {# Einträge}} von dir und {side, plural, one {# Datensatz} other {# Datensätze}} neben dem Protokoll.',
  'privacy.eraseTitle': 'Deine Daten löschen?',
  'privacy.eraseBody':
    'Gelöscht wird auf {servers, plural, one {# Server} other {# Servern}}:\n{list}\n\nDeine Einträge bleiben in ihren Spielen, mit ihren Würfeln, in jedem Bericht und jeder Zählung. Dein Name und deine ID bleiben in {rows, plural, one {dem # Eintrag} other {den # Einträgen}}, die du gemacht hast: Die Hashes des Protokolls decken sie ab. Das Protokoll jedes Servers vermerkt, dass die Daten einer Person gelöscht wurden, ohne sie zu nennen. Das lässt sich nicht rückgängig machen.',
  'privacy.eraseOnlyRows':
    'nichts neben dem Protokoll außer dem, was von anderen Mitgliedern signierte Anfragen über dich enthalten; gesucht wird beim Drücken',
  'privacy.eraseButton': 'Meine Daten löschen',
  'privacy.erasedTitle': 'Deine Daten sind gelöscht',
  'privacy.erasedBody':
    'Gelöscht auf {servers, plural, one {# Server} other {# Servern}}: {list}. Dein Name und deine ID bleiben in {rows, plural, one {dem # Eintrag} other {den # Einträgen}}, die du im Protokoll gemacht hast.',
  privacyBindingWaits:
    '[Ein roll] von dir wartet auf die Beacon-Runde {round}: Jetzt zu löschen nähme die Anfrage, aus der gewürfelt wird. Lösche, sobald gewürfelt ist.',
  privacyNotYours: 'Dieser Knopf löscht die Daten des Mitglieds, dem er gezeigt wurde, nicht deine: Nimm {erase}.',
  privacyExportTooBig:
    'Deine Daten umfassen mehr als die {max} MB, die diese Antwort tragen kann (überschritten nach {rows} deiner Einträge): Bitte den Betreiber dieses Bots um die Datei.',
  privacySeedWaits:
    'Das Spiel {game} wartet auf deinen Seed: Enthülle ihn zuerst mit {seed}, oder ein SL streicht ihn; ein Seed, den niemand mehr enthüllen kann, hielte das Spiel für alle an.',
};
