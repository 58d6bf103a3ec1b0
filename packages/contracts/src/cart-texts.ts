/* A module without zod: the SPA's shared code (add to cart, cart widget) shows these texts without the schemas. */

/** German texts of carts, addresses, projects and ordering (buyer-side.md §5 and §8), letter for letter. */
export const cartMessages = {
  cartNamePattern: 'Der Name darf nur Buchstaben, Zahlen, Bindestriche, Unterstriche und Klammern enthalten.',
  cartNameExists: 'Ein Warenkorb mit diesem Namen existiert bereits.',
  projectExists: 'Ein Projekt mit diesem Namen existiert bereits.',
  maxCartsReached: (n: number) => `Maximale Anzahl von ${n} Warenkörben erreicht.`,
  /** Under the cart list: how many carts the user has and the limit (not paging). */
  cartCount: (count: number, max: number) =>
    `${count === 1 ? '1 Warenkorb' : `${count} Warenkörbe`} angelegt (höchstens ${max} möglich)`,
  /** The cart's header and each supplier group on the cart page. */
  articleCount: (n: number) => `${n} Artikel`,
  addToCartSuccess: 'Der Artikel wurde erfolgreich zum Warenkorb hinzugefügt.',
  addToCartFailure: 'Leider konnte der Artikel nicht hinzugefügt werden. Bitte versuchen Sie es später erneut.',
  deleteCartFailure: 'Fehler beim Löschen des Warenkorbs',
  createCartFailure: 'Fehler beim Erstellen des Warenkorbs',
  orderSuccess: 'Ihre Bestellung wurde erfolgreich übermittelt.',
  changesSaved: 'Die vorgenommenen Änderungen wurden erfasst',
  uploadFailure: 'Beim Upload ist ein Fehler aufgetreten. Bitte versuchen Sie es nochmal zu einem anderen Zeitpunkt.',
  addressFailure: (verb: string) =>
    `Leider konnte die Adresse nicht ${verb} werden. Bitte versuchen Sie es später erneut.`,
  fileFormat: 'Bitte überprüfen Sie das Format Ihrer Datei.',
  maxFileCount: (n: number) => `Die erlaubte Anzahl an Dateien beträgt ${n}.`,
  maxFileSize: (mb: number) => `Bitte überprüfen Sie die Dateigröße. Maximal ${mb} MB sind erlaubt.`,
  notOrderable: 'Dieses Produkt ist aktuell nicht verfügbar.',
  emptyCart: 'Der Warenkorb ist leer.',
  deliveryDateTooEarly: 'Das Lieferdatum muss in der Zukunft liegen.',
  readOnlyAddress: 'Diese Adresse kann nicht geändert werden.',
  cartNotFound: 'Warenkorb nicht gefunden',
  zeroDeliveryCost: '0,00 € Lieferkosten',
  /** Delivery cost above 0 in the order summary and on the order detail ('zzgl.' amount). */
  deliveryCostExtra: (amount: string) => `zzgl. ${amount} Lieferkosten`,
  /** The same amount next to a 'Lieferkosten' label (order detail totals), so the word is not repeated. */
  deliveryCostExtraAmount: (amount: string) => `zzgl. ${amount}`,
  missingForFreeDelivery: (amount: string) => `Noch ${amount} bis zur lieferkostenfreien Lieferung`,
  emptyCartView: 'Ihr Warenkorb ist leer.',
  unavailableItems: (n: number) =>
    n === 1
      ? '1 Artikel ist nicht mehr verfügbar und wird nicht bestellt.'
      : `${n} Artikel sind nicht mehr verfügbar und werden nicht bestellt.`,
  removeUnavailable: 'Nicht verfügbare Artikel entfernen',
  acceptAndOrder: 'Akzeptieren und Bestellen',
  orderDialogTitle: 'Bestellung absenden',
  /** The platform only brokers (buyer-side.md §1): the dialog states what pressing the button means. */
  orderDialogText: [
    "Mit Klick auf 'Akzeptieren und Bestellen' akzeptieren Sie die Allgemeinen Geschäftsbedingungen der jeweiligen Lieferanten und senden Ihre Bestellung verbindlich ab.",
    'Die Bestellung geht an den Lieferanten und wird erst mit seiner Auftragsbestätigung zum Kaufvertrag. Bestellwert und Lieferkosten prüft der Lieferant; sie werden in der Auftragsbestätigung festgelegt.',
  ],
  thankYouTitle: 'Vielen Dank für Ihre Bestellung!',
  thankYouText: (orderNumber: string) =>
    `Ihre Bestellung ${orderNumber} wurde an die Lieferanten übermittelt. Sie erhalten eine Auftragsbestätigung, sobald der Lieferant die Bestellung bestätigt hat.`,
  /** The whole order's reference and note, asked for at checkout and shown wherever the order is shown. */
  orderReferenceLabel: 'Kommission / Ihre Bestellreferenz',
  orderNoteLabel: 'Hinweis zur Bestellung',
  /** 'Erneut bestellen': an old order's lines into a cart the user chooses. */
  reorder: 'Erneut bestellen',
  reorderTitle: 'Erneut bestellen',
  reorderTargetLabel: 'In welchen Warenkorb?',
  reorderNewCart: 'Neuer Warenkorb',
  reorderNewCartName: 'Name des neuen Warenkorbs',
  reorderSubmit: 'In den Warenkorb legen',
  reorderAdded: (n: number) =>
    n === 1 ? '1 Position wurde in den Warenkorb gelegt.' : `${n} Positionen wurden in den Warenkorb gelegt.`,
  reorderUnavailableTitle: 'Nicht mehr verfügbar',
  reorderUnavailable: (n: number) =>
    n === 1
      ? '1 Artikel ist nicht mehr verfügbar und wurde nicht in den Warenkorb gelegt:'
      : `${n} Artikel sind nicht mehr verfügbar und wurden nicht in den Warenkorb gelegt:`,
  reorderNothingAdded: 'Keine Position dieser Bestellung ist noch bestellbar.',
  reorderToCart: 'Zum Warenkorb',
  /** Why a line of an old order cannot go into the cart again (by the offer's orderability, 0: offer gone). */
  reorderReasons: {
    0: 'Artikel nicht mehr im Sortiment',
    2: 'Artikel derzeit nicht bestellbar',
    3: 'Keine Geschäftsbeziehung mit dem Lieferanten',
    4: 'Geschäftsbeziehung mit dem Lieferanten nicht aktiv',
    5: 'Mengeneinheit nicht mehr unterstützt',
  } as Readonly<Record<number, string>>,
  reorderQuantityRefused: 'Bestellmenge nicht mehr zulässig',
  /** The buyer's printable order (the supplier's order PDF). */
  orderPdf: 'Bestellung als PDF',
  /** Searching the order list besides the year. */
  orderSearchLabel: 'Bestellnummer, Artikel oder Projekt',
  /** Comment of an article added through the /add-to-cart route (kitchen configurator). */
  configuratorComment: 'Über den Küchenkonfigurator hinzugefügt',
} as const;
