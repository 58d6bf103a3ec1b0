import { Fragment } from 'react';
import { UNIT_NAMES } from '@shk/contracts';
// The units hook lives with the API reads; re-exported for the pages that show units.
export { useUnits } from '../../api/catalogue-queries';

/**
 * The German name of a unit code: the shared Recommendation 20 table (the one the order PDF, supplier mails
 * and EDIFACT use), else the catalogue's unit list (codes an import brought), else the code itself.
 */
const unitLabel = (unit: string, units?: Map<string, string>) => UNIT_NAMES[unit] ?? units?.get(unit) ?? unit;

/**
 * A unit text; a caret marks superscript ('m^2' → m², 'm^3/h' → m³/h). Codes are shown by their German
 * name ('C62' → Stk, 'MTK' → m²).
 */
export function UnitText({ unit, units }: { unit: string | null | undefined; units?: Map<string, string> }) {
  if (!unit) return null;
  const text = unitLabel(unit, units);
  const parts = text.split(/\^(\d+|[a-zA-Z]+)/);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? <sup key={index}>{part}</sup> : <Fragment key={index}>{part}</Fragment>,
      )}
    </>
  );
}

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
