import type { PRIVACY_EN } from './en-privacy.js';

/** German for en-privacy.ts: the same identifiers and parameters. */
export const dePrivacy: Record<keyof typeof PRIVACY_EN, string> = {
  'privacy.showTitle': 'Was dieser Bot über dich speichert',
  'privacy.showBody':
    'Auf {servers, plural, one {# Server} other {# Servern}}:\n{list}\n\n{legacy, plural, =0 {Die Hashes des Protokolls decken deinen Namen, deine ID und deine Eingaben nur über Prüfwerte ab, die Werte selbst liegen daneben: Löschen nimmt die Werte, deine Einträge behalten ihre Würfel.} one {Dein Name und deine Discord-ID bleiben in # Eintrag, den du gemacht hast, bevor dieser Bot Namen neben seinem Protokoll führte: Sein Hash deckt sie ab. Neuere Einträge führen sie daneben, und Löschen nimmt sie.} other {Dein Name und deine Discord-ID bleiben in # Einträgen, die du gemacht hast, bevor dieser Bot Namen neben seinem Protokoll führte: Ihre Hashes decken sie ab. Neuere Einträge führen sie daneben, und Löschen nimmt sie.}} {export} gibt dir alles als Datei; {erase} löscht es.',
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
  'privacy.rowsErased': 'dein Name, deine ID und deine Eingaben in {n, plural, one {# Eintrag} other {# Einträgen}} des Protokolls',
  'privacy.exportTitle': 'Deine Daten',
  'privacy.exportBody':
    'Alles, was dieser Bot über dich speichert, als eine JSON-Datei: {rows, plural, one {# Eintrag} other {# Einträge}} von dir und {side, plural, one {# Datensatz} other {# Datensätze}} neben dem Protokoll.',
  'privacy.eraseTitle': 'Deine Daten löschen?',
  'privacy.eraseBody':
    'Gelöscht wird auf {servers, plural, one {# Server} other {# Servern}}:\n{list}\n\nDeine Einträge bleiben in ihren Spielen, mit ihren Würfeln, in jedem Bericht und jeder Zählung; dein Name, deine ID und deine Eingaben verschwinden aus ihnen. {legacy, plural, =0 {} one {# Eintrag von vor der Zeit, als dieser Bot Namen neben seinem Protokoll führte, behält sie: Sein Hash deckt sie ab. } other {# Einträge von vor der Zeit, als dieser Bot Namen neben seinem Protokoll führte, behalten sie: Ihre Hashes decken sie ab. }}Das Protokoll jedes Servers vermerkt, dass die Daten einer Person gelöscht wurden, ohne sie zu nennen. Das lässt sich nicht rückgängig machen.',
  'privacy.eraseOnlyRows':
    'nichts neben dem Protokoll außer dem, was von anderen Mitgliedern signierte Anfragen über dich enthalten; gesucht wird beim Drücken',
  'privacy.eraseButton': 'Meine Daten löschen',
  'privacy.erasedTitle': 'Deine Daten sind gelöscht',
  'privacy.erasedBody':
    'Gelöscht auf {servers, plural, one {# Server} other {# Servern}}: {list}. {legacy, plural, =0 {Deine Einträge bleiben mit ihren Würfeln, ohne jemanden zu nennen.} one {Dein Name und deine ID bleiben in # Eintrag von vor der Zeit, als dieser Bot Namen neben seinem Protokoll führte: Sein Hash deckt sie ab.} other {Dein Name und deine ID bleiben in # Einträgen von vor der Zeit, als dieser Bot Namen neben seinem Protokoll führte: Ihre Hashes decken sie ab.}}',
  privacyBindingWaits:
    '[Ein roll] von dir wartet auf die Beacon-Runde {round}: Jetzt zu löschen nähme die Anfrage, aus der gewürfelt wird. Lösche, sobald gewürfelt ist.',
  privacyNotYours: 'Dieser Knopf löscht die Daten des Mitglieds, dem er gezeigt wurde, nicht deine: Nimm {erase}.',
  privacyExportTooBig:
    'Deine Daten umfassen mehr als die {max} MB, die diese Antwort tragen kann (überschritten nach {rows} deiner Einträge): Bitte den Betreiber dieses Bots um die Datei.',
  privacySeedWaits:
    'Das Spiel {game} wartet auf deinen Seed: Enthülle ihn zuerst mit {seed}, oder ein SL streicht ihn; ein Seed, den niemand mehr enthüllen kann, hielte das Spiel für alle an.',
  privacyGameRuns:
    'Das Spiel {game} läuft noch und enthält [roll:pl] von dir: Die Würfel jedes Spielers folgen dort der Zahl seiner [roll:pl], die eine Löschung neu beginnen ließe. Lösche, sobald ein SL es mit {end} beendet.',
};
