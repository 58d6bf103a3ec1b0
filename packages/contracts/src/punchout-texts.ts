// Apart from the punchout schemas (zod): the SPA's cart page shows two of these texts, and importing them from the
// schema module made the page load the schemas and zod before its first render.

/** German texts of the punchout entries (error pages, cXML Status texts, the SPA). */
export const punchoutTexts = {
  returnButton: 'In die Bestellanforderung übernehmen',
  returnHint: 'Dieser Warenkorb wird in die Bestellanforderung Ihres Einkaufssystems übernommen.',
  returnFailed: 'Die Übernahme in die Bestellanforderung ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  returned: 'Der Warenkorb wurde an Ihr Einkaufssystem übergeben.',
  unknownUser: 'Anmeldung fehlgeschlagen: Benutzername oder Passwort ist falsch.',
  loginFailedTitle: 'Anmeldung fehlgeschlagen',
  badRequestTitle: 'Ungültige Anfrage',
  hookUrlMissing: 'Die Rücksprungadresse (HOOK_URL) fehlt.',
  hookUrlScheme: 'Die Rücksprungadresse (HOOK_URL) muss eine http- oder https-Adresse sein.',
  unknownFunction: (fn: string) =>
    `Die Funktion „${fn}“ wird nicht unterstützt. Möglich sind: leer, DETAIL, VALIDATE, BACKGROUND_SEARCH.`,
  productIdMissing: 'Für diese Funktion fehlt PRODUCTID.',
  searchStringMissing: 'Für BACKGROUND_SEARCH fehlt SEARCHSTRING.',
  bodyTooLarge: 'Die Anfrage ist größer als 1 MB.',
  mediaTypeOci: 'Das OCI-Formular muss als application/x-www-form-urlencoded oder multipart/form-data gesendet werden.',
  mediaTypeCxml: 'Das cXML-Dokument muss als text/xml oder application/xml gesendet werden.',
  multipartBroken: 'Das Formular (multipart/form-data) ist beschädigt und kann nicht gelesen werden.',
  protocolDisabled: 'Dieser Punchout-Zugang ist abgeschaltet.',
  xmlMalformed: 'Das cXML-Dokument ist nicht wohlgeformt.',
  xmlDoctypeEntities: 'Das cXML-Dokument enthält ENTITY-Deklarationen; diese werden aus Sicherheitsgründen abgelehnt.',
  xmlNotSetupRequest: 'Das cXML-Dokument enthält keine PunchOutSetupRequest.',
  cxmlAuthFailed: 'Anmeldung fehlgeschlagen: Absender oder Shared Secret ist unbekannt oder falsch.',
  browserFormPostMissing: 'Die Rücksprungadresse (BrowserFormPost) fehlt oder ist keine http- oder https-Adresse.',
  buyerCookieMissing: 'Das BuyerCookie fehlt.',
  operationUnknown: 'Die Operation muss create, edit oder inspect sein.',
  startPageInvalid: 'Die Startseite ist ungültig, abgelaufen oder wurde bereits geöffnet.',
  ociOnly: 'Diese Funktion ist nur in einer Punchout-Sitzung verfügbar.',
  alreadyReturned: 'Der Warenkorb wurde bereits an das Einkaufssystem übergeben.',
  inspectOnly:
    'Ihr Einkaufssystem hat den Warenkorb nur zur Ansicht geöffnet (inspect); er wird nicht in die Bestellanforderung übernommen.',
  credentialsSaved: 'Punchout-Zugangsdaten gespeichert.',
  custFieldValueMissing: (n: number) => `Für Kundenfeld ${n} (CUST_FIELD${n}) fehlt der feste Wert.`,
  custFieldValueTooLong: (n: number, max: number) =>
    `Der feste Wert für Kundenfeld ${n} (CUST_FIELD${n}) darf höchstens ${max} Zeichen lang sein.`,
  custFieldValueUnused: (n: number) =>
    `Kundenfeld ${n} (CUST_FIELD${n}) hat einen festen Wert, sendet aber nicht „Fester Wert“.`,
  readOnlyCart:
    'Ihr Einkaufssystem hat den Warenkorb nur zur Ansicht geöffnet (inspect); er kann nicht geändert werden.',
  readOnlyHint: 'Nur zur Ansicht: Ihr Einkaufssystem hat diesen Warenkorb zur Ansicht geöffnet.',
} as const;
