/** Texts and limits of the hardening measures: problems users and API clients see. */
export const securityProblemTypes = {
  serviceUnavailable: 'service-unavailable',
  tooManyRequests: 'too-many-requests',
  invalidCharacters: 'invalid-characters',
  uploadRejected: 'upload-rejected',
  quotaExceeded: 'storage-quota-exceeded',
} as const;

export const securityTexts = {
  serviceUnavailableTitle: 'Der Dienst ist vorübergehend nicht verfügbar.',
  serviceUnavailableDetail:
    'Die Datenbank ist im Moment nicht erreichbar. Bitte versuchen Sie es in wenigen Sekunden erneut.',
  tooManyRequestsTitle: 'Zu viele Anfragen',
  tooManyRequestsDetail: (seconds: number) =>
    `Sie haben zu viele Anfragen gesendet. Bitte versuchen Sie es in ${seconds} Sekunden erneut.`,
  tooManyInFlightDetail:
    'Sie haben bereits zu viele Anfragen gleichzeitig in Bearbeitung. Bitte warten Sie einen Moment, bis diese abgeschlossen sind, und versuchen Sie es dann erneut.',
  loginLocked: (minutes: number) =>
    `Zu viele fehlgeschlagene Anmeldeversuche. Die Anmeldung ist vorübergehend gesperrt – bitte versuchen Sie es in ${minutes} Minuten erneut.`,
  /** A sign-in delayed after failed attempts (seconds to wait). */
  loginDelayed: (seconds: number) =>
    `Zu viele fehlgeschlagene Anmeldeversuche. Bitte warten Sie ${
      seconds < 60
        ? `${Math.max(1, Math.ceil(seconds))} Sekunden`
        : seconds <= 60
          ? 'eine Minute'
          : `${Math.ceil(seconds / 60)} Minuten`
    } und versuchen Sie es dann erneut.`,
  invalidCharactersTitle: 'Die Anfrage enthält unzulässige Zeichen.',
  invalidCharactersDetail: 'Steuerzeichen wie das Nullzeichen (NUL) sind in Eingaben nicht erlaubt.',
  uploadRejectedTitle: 'Die Datei wurde abgelehnt.',
  uploadContentMismatch: (extension: string) => `Der Inhalt der Datei passt nicht zur Dateiendung ".${extension}".`,
  uploadTypeNotAllowed: (extension: string) => `Dateien vom Typ ".${extension}" sind nicht erlaubt.`,
  uploadTooLarge: (megabytes: number) => `Die Datei ist größer als ${megabytes} MB.`,
  quotaExceededTitle: 'Der Speicherplatz ist aufgebraucht.',
  quotaExceededDetail: (megabytes: number) =>
    `Der Speicherplatz Ihres Unternehmens (${megabytes} MB) reicht für diese Datei nicht aus. Bitte löschen Sie nicht mehr benötigte Anhänge.`,
} as const;
