import { Fragment } from 'react';
import { unitLabel } from './unit-label';
// The units hook lives with the API reads; re-exported for the pages that show units.
export { useUnits } from '../../api/catalogue-queries';
export { unitPlainText } from './unit-label';

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
