/** Feature-setting keys the front end reads by key, with the defaults the spec states. */
export const FeatureSettingKey = {
  AttachmentsAllowedFileFormats: 'AttachmentsAllowedFileFormats',
  AttachmentsMaxFilesCount: 'AttachmentsMaxFilesCount',
  AttachmentsMaxFileSize: 'AttachmentsMaxFileSize',
  NoteOfUseAllowedSuppliers: 'NoteOfUseAllowedSuppliers',
  MaxCartCount: 'MaxCartCount',
  ManufacturerBannerSupplier: 'ManufacturerBannerSupplier',
  NonProductPromotionSlide: 'NonProductPromotionSlide',
  KitchenConfiguratorClientSecret: 'KitchenConfiguratorClientSecret',
  KitchenConfiguratorSupplier: 'KitchenConfiguratorSupplier',
  KitchenConfiguratorUrl: 'KitchenConfiguratorUrl',
  IntroductoryVideoManufacturer: 'IntroductoryVideoManufacturer',
  IntroductoryVideoUrl: 'IntroductoryVideoUrl',
  VideoHelpWidgetScriptUrl: 'VideoHelpWidgetScriptUrl',
  SupplierOrderConfirmationWindowHours: 'SupplierOrderConfirmationWindowHours',
  ReportRetentionDays: 'ReportRetentionDays',
  SupplierOrderDocumentsMaxFilesCount: 'SupplierOrderDocumentsMaxFilesCount',
  SupplierOrderDocumentsMaxFileSize: 'SupplierOrderDocumentsMaxFileSize',
} as const;
export type FeatureSettingKey = (typeof FeatureSettingKey)[keyof typeof FeatureSettingKey];

export interface FeatureSettingDefault {
  key: FeatureSettingKey;
  description: string;
  value: string;
  /** Secret values are never returned to the browser. */
  isPublic: boolean;
  /** The parameter's value type (CustomParameterType); Varchar (3) unless given. */
  typeId?: number;
}

export const featureSettingDefaults: readonly FeatureSettingDefault[] = [
  {
    key: 'AttachmentsAllowedFileFormats',
    description: 'Erlaubte Dateiformate für Anhänge (kommagetrennt)',
    value: 'pdf,png,jpg,jpeg,xls,xlsx,csv',
    isPublic: true,
  },
  {
    key: 'AttachmentsMaxFilesCount',
    description: 'Maximale Anzahl Anhänge je Warenkorbposition',
    value: '1',
    isPublic: true,
  },
  { key: 'AttachmentsMaxFileSize', description: 'Maximale Größe eines Anhangs in MB', value: '25', isPublic: true },
  {
    key: 'NoteOfUseAllowedSuppliers',
    description: 'Lieferanten (Geschäftspartnernummern, kommagetrennt), deren Verwendungshinweise angezeigt werden',
    value: '',
    isPublic: true,
  },
  { key: 'MaxCartCount', description: 'Maximale Anzahl Warenkörbe je Geschäftspartner', value: '10', isPublic: true },
  {
    key: 'ManufacturerBannerSupplier',
    description: 'Geschäftspartnernummer des Küchenherstellers, für den ein Banner in der Suche erscheint',
    value: '',
    isPublic: true,
  },
  {
    key: 'NonProductPromotionSlide',
    description: 'Aktionsfolie ohne Produktbezug auf der Startseite anzeigen (true/false)',
    value: 'true',
    isPublic: true,
  },
  {
    key: 'KitchenConfiguratorClientSecret',
    description: 'Client-Secret der Küchenkonfigurator-Integration',
    value: '',
    isPublic: false,
    // Geheimnis (CustomParameterType.Secret): write-only, shown masked.
    typeId: 6,
  },
  // The two kitchen manufacturers (spec: two fixed supplier ids): the one with the configurator
  // (KitchenConfiguratorSupplier) and the one with the search banner (ManufacturerBannerSupplier); see
  // docs/configurator.md. Values are configuration, the demo world sets demo values.
  {
    key: 'KitchenConfiguratorSupplier',
    description: 'Geschäftspartnernummer des Küchenherstellers mit Küchenkonfigurator (Konfigurator-Folie)',
    value: '',
    isPublic: true,
  },
  {
    key: 'KitchenConfiguratorUrl',
    description: 'Adresse des Küchenkonfigurators (https://…), an die die signierte Übergabe geht',
    value: '',
    isPublic: false,
  },
  {
    key: 'IntroductoryVideoManufacturer',
    description: 'Hersteller-ID (wie in Produkt-IDs vor „~“), auf dessen Produktseiten das Einführungsvideo erscheint',
    value: '',
    isPublic: true,
  },
  {
    key: 'IntroductoryVideoUrl',
    description: 'Adresse des Einführungsvideos (https://… oder /…; MP4/WebM als Video, sonst eingebettet)',
    value: '',
    isPublic: true,
  },
  {
    key: 'VideoHelpWidgetScriptUrl',
    description: 'Skript des Video-Hilfe-Widgets (https://… oder /…), geladen erst nach Marketing-Einwilligung',
    value: '',
    isPublic: true,
  },
  {
    key: 'SupplierOrderConfirmationWindowHours',
    description: 'Zeitfenster (Stunden ab Versand, 1–168) für die SLA-Kennzahl des Dashboards',
    value: '48',
    isPublic: true,
  },
  {
    key: 'ReportRetentionDays',
    description: 'Aufbewahrungsdauer erzeugter Berichte in Tagen',
    value: '30',
    isPublic: false,
  },
  {
    key: 'SupplierOrderDocumentsMaxFilesCount',
    description: 'Maximale Anzahl Dokumente je Lieferantenbestellung',
    value: '10',
    isPublic: true,
  },
  {
    key: 'SupplierOrderDocumentsMaxFileSize',
    description: 'Maximale Größe eines Bestelldokuments in MB',
    value: '25',
    isPublic: true,
  },
];
