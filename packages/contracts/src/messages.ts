/** German texts quoted letter for letter from the spec; used by api and web alike. */
export const messages = {
  required: 'Pflichtfeld',
  maxChars: (n: number) => `Maximal ${n} Zeichen`,
  checkInput: 'Bitte überprüfen Sie Ihre Eingabe.',
  genericRetry: 'Fehler - Bitte versuchen Sie es erneut.',
  missingPayload: 'Es ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut.',
  feedbackCommentMax: 'Kommentar darf maximal 512 Zeichen enthalten',
  dataChangeSuccess: 'Ihre Anfrage wurde erfolgreich gesendet.',
  dataChangeFailure: 'Leider konnte Ihre Anfrage nicht gesendet werden. Bitte versuchen Sie es später erneut.',
  sellerAddToCart: 'Diese Aktion ist für Verkäufer nicht verfügbar.',
  /** Shown once when the guard sends a role away from a page it may not open (the spec only says 'redirect'). */
  routeNotAllowed: 'Diese Seite steht Ihnen nicht zur Verfügung. Sie wurden zur Startseite weitergeleitet.',
  /** /add-to-cart opened without an article: the address is the kitchen configurator's return, not a page. */
  addToCartWithoutArticle:
    'Über diese Adresse legt der Küchenkonfigurator Artikel in Ihren Warenkorb. Es wurde kein Artikel übergeben.',
  welcome: 'Willkommen',
  login: 'Anmelden',
  logout: 'Abmelden',
  unauthorizedTitle: 'Fehler 401 - Nicht autorisiert',
  idsMultiCartDisabled: 'Multiple Warenkörbe sind im IDS-Kontext nicht verfügbar.',
  wholeNumbers: 'Bitte ganze Zahlen größer 0 angeben.',
  minOrderQuantity: (n: number | string) => `Bitte beachten Sie die minimale Bestellmenge von ${n}`,
  maxCarts: (n: number) => `Maximale Anzahl von ${n} Warenkörben erreicht.`,
  sliderOutOfRange: 'Eingabe außerhalb des gültigen Bereichs',
  sliderMinAboveMax: 'Min-Wert darf nicht größer als Max-Wert sein',
  noResults: (term: string) => `Keine Ergebnisse für ${term}`,
  noCategories: 'Keine Kategorien verfügbar',
  noFilters: 'Keine Filter verfügbar',
  cartItemAdded: 'Der Artikel wurde erfolgreich zum Warenkorb hinzugefügt.',
  cartItemAddFailed: 'Leider konnte der Artikel nicht hinzugefügt werden. Bitte versuchen Sie es später erneut.',
  productUnavailable: 'Dieses Produkt ist aktuell nicht verfügbar.',
  /** The spec quotes only '… bei Ihren aktuellen Lieferanten nicht verfügbar.'; the beginning is ours. */
  productUnavailableAtSuppliers: 'Dieses Produkt ist bei Ihren aktuellen Lieferanten nicht verfügbar.',
  /** The spec quotes only the beginning ('Der Preis für dieses Produkt ist vorübergehend nicht verfügbar...'). */
  priceUnavailable:
    'Der Preis für dieses Produkt ist vorübergehend nicht verfügbar. Bitte versuchen Sie es später erneut.',
  /** The spec quotes only the beginning ('Die Verkaufseinheit ist ungültig...'). */
  unitInvalid: 'Die Verkaufseinheit ist ungültig. Bitte wenden Sie sich an den Lieferanten.',
  articleNotFound: (articleNumber: string) => `Artikelnummer ${articleNumber} nicht gefunden.`,
  productNotFound: 'Produkt nicht gefunden',
  startNewSearch: 'Neue Suche starten',
} as const;

/** Titles of problem details the API returns (users see them in toasts and on fields). */
export const problemTitles = {
  badRequest: 'Ungültige Anfrage',
  validation: 'Die Eingaben sind ungültig.',
  malformedJson: 'Der Anfrageinhalt ist kein gültiges JSON.',
  unauthorized: 'Nicht angemeldet',
  forbidden: 'Keine Berechtigung',
  notFound: 'Nicht gefunden',
  routeNotFound: 'Die angeforderte Ressource existiert nicht.',
  conflict: 'Konflikt',
  payloadTooLarge: 'Die Anfrage ist zu groß.',
  unsupportedMediaType: 'Nicht unterstütztes Format',
  internal: 'Es ist ein interner Fehler aufgetreten.',
  notPartnerMember: 'Sie gehören diesem Geschäftspartner nicht an.',
} as const;
