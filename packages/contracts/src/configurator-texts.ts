/**
 * Texts of the kitchen-manufacturer configurator (docs/configurator.md), apart from its zod schemas so that pages
 * showing the home slide do not load zod; `schemas/configurator.ts` re-exports them.
 */
export const configuratorMessages = {
  slideEyebrow: 'Küchenkonfigurator',
  slideTitle: (manufacturer: string) => `Küchen von ${manufacturer} konfigurieren`,
  slideText:
    'Stellen Sie Ihre Küche im Konfigurator des Herstellers zusammen – der fertige Artikel landet direkt in Ihrem Standard-Warenkorb.',
  slideCta: 'Zum Küchenkonfigurator',
  returnUnsigned: 'Die Rückgabe des Küchenkonfigurators ist nicht signiert. Es wurde nichts in den Warenkorb gelegt.',
  returnInvalid:
    'Die Signatur der Rückgabe des Küchenkonfigurators ist ungültig. Es wurde nichts in den Warenkorb gelegt.',
  returnExpired: 'Die Rückgabe des Küchenkonfigurators ist abgelaufen. Bitte konfigurieren Sie den Artikel erneut.',
  returnOtherPartner:
    'Die Rückgabe des Küchenkonfigurators gilt für einen anderen Geschäftspartner. Es wurde nichts in den Warenkorb gelegt.',
  returnNotConfigured: 'Der Küchenkonfigurator ist nicht eingerichtet. Es wurde nichts in den Warenkorb gelegt.',
  videoTitle: 'Einführungsvideo',
  videoClose: 'Schließen',
  videoHelpLabel: 'Video-Hilfe',
} as const;
