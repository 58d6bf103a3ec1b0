import { UNIT_NAMES } from '@shk/contracts';

/**
 * The German name of a unit code: the shared Recommendation 20 table (the one the order PDF, supplier mails
 * and EDIFACT use), else the catalogue's unit list (codes an import brought), else the code itself.
 */
export const unitLabel = (unit: string, units?: Map<string, string>) => UNIT_NAMES[unit] ?? units?.get(unit) ?? unit;

/** Plain-text form of a unit for inputs and aria labels: superscript digits instead of the caret. */
export function unitPlainText(unit: string | null | undefined, units?: Map<string, string>): string {
  if (!unit) return '';
  if (unit === 'EUR') return '€';
  const superscripts: Record<string, string> = {
    '0': '⁰',
    '1': '¹',
    '2': '²',
    '3': '³',
    '4': '⁴',
    '5': '⁵',
    '6': '⁶',
    '7': '⁷',
    '8': '⁸',
    '9': '⁹',
  };
  return unitLabel(unit, units).replace(/\^(\d+)/g, (_, digits: string) =>
    [...digits].map((d) => superscripts[d] ?? d).join(''),
  );
}
