import { idsBadRequestTexts } from '@shk/contracts';

/** Validation codes a procurement system (IDS) can receive at the portal entry, with their German explanation. */
const idsErrorTexts: Readonly<Record<string, string>> = {
  VE002_NotEmpty: 'Die Version ist ein Pflichtfeld. Die Plattform unterstützt die Versionen 2.0 und 2.5.',
  VE007_ValueNotInRange:
    'Der Wert liegt außerhalb des gültigen Bereichs. Die Plattform unterstützt die Versionen 2.0 und 2.5.',
  ...idsBadRequestTexts,
};

export const idsErrorText = (code: string | null) =>
  (code && idsErrorTexts[code]) || 'Die Anfrage Ihres Warenwirtschaftssystems ist ungültig.';
