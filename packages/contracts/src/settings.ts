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
} as const;
export type FeatureSettingKey = (typeof FeatureSettingKey)[keyof typeof FeatureSettingKey];

export interface FeatureSettingDefault {
  key: FeatureSettingKey;
  description: string;
  value: string;
  /** Secret values are never returned to the browser. */
  isPublic: boolean;
}

export const featureSettingDefaults: readonly FeatureSettingDefault[] = [
  { key: 'AttachmentsAllowedFileFormats', description: 'Erlaubte Dateiformate für Anhänge (kommagetrennt)', value: 'pdf,png,jpg,jpeg,xls,xlsx,csv', isPublic: true },
  { key: 'AttachmentsMaxFilesCount', description: 'Maximale Anzahl Anhänge je Warenkorbposition', value: '1', isPublic: true },
  { key: 'AttachmentsMaxFileSize', description: 'Maximale Größe eines Anhangs in MB', value: '25', isPublic: true },
  { key: 'NoteOfUseAllowedSuppliers', description: 'Lieferanten (Geschäftspartnernummern, kommagetrennt), deren Verwendungshinweise angezeigt werden', value: '', isPublic: true },
  { key: 'MaxCartCount', description: 'Maximale Anzahl Warenkörbe je Geschäftspartner', value: '10', isPublic: true },
  { key: 'ManufacturerBannerSupplier', description: 'Geschäftspartnernummer des Küchenherstellers, für den ein Banner in der Suche erscheint', value: '', isPublic: true },
  { key: 'NonProductPromotionSlide', description: 'Aktionsfolie ohne Produktbezug auf der Startseite anzeigen (true/false)', value: 'true', isPublic: true },
  { key: 'KitchenConfiguratorClientSecret', description: 'Client-Secret der Küchenkonfigurator-Integration', value: '', isPublic: false },
];
