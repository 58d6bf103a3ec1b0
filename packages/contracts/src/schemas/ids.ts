import { z } from 'zod';

/** IDS-Connect versions the portal speaks (the norm's `version` field). */
export const idsSupportedVersions = ['2.0', '2.5', '2.5.1'] as const;
export type IdsVersion = (typeof idsSupportedVersions)[number];

/** Actions of the norm (section 5.8), lower case; the entry accepts any case. */
export const idsActions = ['wks', 'wke', 'as', 'adl', 'li', 'sv'] as const;
export type IdsAction = (typeof idsActions)[number];

/** Codes of /ids-bad-request (seller-staff-side.md). */
export const IdsBadRequestCode = {
  NotEmpty: 'VE002_NotEmpty',
  ValueNotInRange: 'VE007_ValueNotInRange',
  /** Ours (docs/ids.md): the cart declares a DOCTYPE or entities. */
  DoctypeNotAllowed: 'VE040_DoctypeNotAllowed',
  /** Ours: the cart could not be read within the time budget. */
  CartTooComplex: 'VE041_CartTooComplex',
  /** Ours: the hook URL is not an http(s) URL. */
  UrlSchemeNotAllowed: 'VE042_UrlSchemeNotAllowed',
} as const;

/** German explanations of the codes of our own (the norm's codes are explained by the page itself). */
export const idsBadRequestTexts = {
  [IdsBadRequestCode.DoctypeNotAllowed]:
    'Der Warenkorb enthält eine DOCTYPE- oder ENTITY-Deklaration. Aus Sicherheitsgründen werden nur Warenkörbe ohne DTD angenommen.',
  [IdsBadRequestCode.CartTooComplex]:
    'Der Warenkorb ist zu umfangreich, um ihn in angemessener Zeit zu lesen. Bitte teilen Sie ihn auf mehrere Vorgänge auf.',
  [IdsBadRequestCode.UrlSchemeNotAllowed]: 'Die Rücksprungadresse (hookurl) muss eine http- oder https-Adresse sein.',
} as const;

/** The page for a form field above the entry's limit (413). */
export const idsFieldTooLargeText = (megabytes: number) =>
  `Ein Feld der Anfrage ist größer als ${megabytes} MB. Bitte senden Sie einen kleineren Warenkorb.`;

export const idsMessages = {
  success: 'Aktion erfolgreich.',
  sendFailed: 'Fehler - Bitte versuchen Sie es erneut.',
  versionRequired: 'Die Version ist ein Pflichtfeld. Die Plattform unterstützt die Versionen 2.0 und 2.5.',
  versionNotInRange: 'Die Plattform unterstützt die Versionen 2.0 und 2.5.',
  codeInvalid: 'Der IDS-Code ist ungültig, abgelaufen oder wurde bereits verwendet.',
  contextNotFound: 'IDS-Kontext nicht gefunden',
  itemNotFound: 'IDS-Warenkorbposition nicht gefunden',
  notReady: 'Es gibt noch Positionen ohne Lieferant oder mit ungültiger Menge.',
  alreadyCompleted: 'Der IDS-Vorgang ist bereits abgeschlossen.',
  noHookUrl: 'Die Handwerkersoftware hat keine Rücksprungadresse (hookurl) übermittelt.',
  offerNotOrderable: 'Dieser Artikel kann bei diesem Lieferanten nicht bestellt werden.',
  credentialsSaved: 'IDS-Zugangsdaten gespeichert.',
  notInIdsSession: 'Diese Funktion ist in einer IDS-Sitzung nicht verfügbar.',
  onlyIdsCart: 'In einer IDS-Sitzung wird nur der Warenkorb dieser Sitzung verwendet.',
  otherIdsContext: 'Diese IDS-Sitzung gehört zu einem anderen IDS-Vorgang.',
  punchoutSession:
    'In einer Punchout-Sitzung wird der Warenkorb in die Bestellanforderung übernommen, nicht an eine Handwerkersoftware übergeben.',
  sessionEnded:
    'Die IDS-Sitzung ist abgelaufen oder wurde beendet. Bitte starten Sie den Vorgang in Ihrer Handwerkersoftware neu.',
} as const;

/** An IDS session lasts at most two hours and ends after 30 minutes without a request (docs/ids.md). */
export const IDS_SESSION_LIFETIME_SECONDS = 2 * 60 * 60;
export const IDS_SESSION_IDLE_SECONDS = 30 * 60;

/** Hints per match result on /ids-warenkorb (the spec names the states; the wording is ours, docs/ids.md). */
export const idsMatchHints = {
  SupplierNotMatched: 'Der Artikel wird von mehreren Lieferanten angeboten. Bitte wählen Sie einen Lieferanten.',
  QuantityNotMatched:
    'Die Menge passt nicht zur Mindestbestellmenge bzw. Verpackungseinheit. Bitte korrigieren Sie die Menge.',
  SupplierRelationshipNotMatched:
    'Der Artikel ist nur bei Lieferanten erhältlich, mit denen noch keine Geschäftsbeziehung besteht.',
  NotMatched: 'Der Artikel wurde im Katalog nicht gefunden. Er wird mit Fehlerhinweis an Ihre Software zurückgegeben.',
  Matched: 'Der Artikel wurde eindeutig zugeordnet.',
} as const;

export const IdsMatchResultSchema = z.enum([
  'Matched',
  'SupplierNotMatched',
  'SupplierRelationshipNotMatched',
  'QuantityNotMatched',
  'NotMatched',
]);

export const IdsSupplierOption = z
  .object({
    supplierBpNumber: z.string(),
    supplierName: z.string(),
    productInstanceId: z.string(),
    articleNumber: z.string(),
    minOrderQuantity: z.number(),
    orderable: z.boolean(),
  })
  .meta({ id: 'IdsSupplierOption' });

export const IdsCartItem = z
  .object({
    id: z.number().int(),
    positionNo: z.number().int(),
    isDeleted: z.boolean(),
    matchResult: IdsMatchResultSchema.nullable(),
    matchedProductInstanceId: z.string().nullable(),
    matchedSupplierBpNumber: z.string().nullable(),
    matchedArticleNumber: z.string().nullable(),
    matchedQuantity: z.number().nullable(),
    shortName: z.string().nullable(),
    articleNumber: z.string().nullable(),
    gtin: z.string().nullable(),
    manufacturerId: z.string().nullable(),
    manufacturerPid: z.string().nullable(),
    quantity: z.number().nullable(),
    unit: z.string().nullable(),
    rawText: z.string().nullable(),
    /** Suppliers offering the article: to choose from, or (without an active relation) to request one. */
    supplierRelations: z.array(IdsSupplierOption),
  })
  .meta({ id: 'IdsCartItem' });
export type IdsCartItem = z.infer<typeof IdsCartItem>;

export const IdsCart = z
  .object({
    idsContextId: z.string(),
    action: z.string(),
    version: z.string(),
    movedToCart: z.boolean(),
    completed: z.boolean(),
    /** A punchout session whose cart may only be looked at (cXML inspect): the cart's change controls are hidden. */
    readOnly: z.boolean(),
    items: z.array(IdsCartItem),
  })
  .meta({ id: 'IdsCart' });
export type IdsCart = z.infer<typeof IdsCart>;

export const UpdateIdsCartItem = z
  .object({
    matchedProductInstanceId: z.string().trim().min(1).max(200),
    matchedSupplierBpNumber: z.string().trim().max(20).nullish(),
    matchedArticleNumber: z.string().trim().max(100).nullish(),
    matchedQuantity: z.number().positive().max(1_000_000),
  })
  .meta({ id: 'UpdateIdsCartItem' });

export const IdsSendPayload = z
  .object({
    manufacturerId: z.string().max(100).nullish(),
    manufacturerPid: z.string().max(100).nullish(),
    productInstanceId: z.string().trim().min(1).max(200),
    quantity: z.number().positive().max(1_000_000),
  })
  .meta({ id: 'IdsSendPayload' });

export const IdsTokenResponse = z
  .object({
    accessToken: z.string(),
    identityToken: z.string(),
    refreshToken: z.string().nullable(),
    tokenType: z.string(),
    scope: z.string(),
    sessionState: z.string().nullable(),
    expiresIn: z.number().int(),
    idsContextId: z.string(),
    action: z.string(),
  })
  .meta({ id: 'IdsTokenResponse' });
export type IdsTokenResponse = z.infer<typeof IdsTokenResponse>;

export const IdsCredentials = z
  .object({ bpNumber: z.string(), loginName: z.string().nullable(), configured: z.boolean() })
  .meta({ id: 'IdsCredentials' });

export const UpdateIdsCredentials = z
  .object({
    loginName: z.string().trim().min(1, 'Bitte geben Sie einen Benutzernamen ein.').max(50),
    password: z.string().min(4, 'Das Passwort muss mindestens 4 Zeichen lang sein.').max(50),
  })
  .meta({ id: 'UpdateIdsCredentials' });
