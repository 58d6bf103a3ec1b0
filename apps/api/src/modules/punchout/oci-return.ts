import { OCI_CUST_FIELD_MAX_LENGTHS, type OciCustFieldSource } from '@shk/contracts';
import { RETURN_SCRIPT, formTarget } from '../ids/index.ts';
import { decimal, ociUnit, type PunchoutLine } from './punchout-lines.ts';

/** OCI 5.0 customer fields as the buyer configured them: the source per field and the fixed texts. */
export interface CustFields {
  sources: readonly string[];
  values: readonly string[];
}

export const NO_CUST_FIELDS: CustFields = { sources: [], values: [] };

/** OCI 5.0 customer fields: which line value a configured CUST_FIELDn carries (docs/punchout.md). */
export const OCI_CUST_FIELD_SOURCES: Record<
  Exclude<OciCustFieldSource, 'fixed'>,
  (l: PunchoutLine) => string | null
> = {
  '': () => null,
  project: (l) => l.project,
  comment: (l) => l.comment,
  offerId: (l) => l.offerId,
  supplierName: (l) => l.supplierName,
  manufacturerName: (l) => l.manufacturerName,
  minOrderQuantity: (l) => decimal(l.minOrderQuantity),
  total: (l) => (l.total == null ? null : decimal(l.total, 2, 2)),
};

export const OCI_DESCRIPTION_MAX = 40;
export const OCI_LONGTEXT_LINE = 132;

export interface OciReturn {
  version: string;
  okCode: string | null;
  target: string | null;
  caller: string | null;
  custFields: CustFields;
}

/** The value of CUST_FIELD{k+1} for a line, cut to the field's OCI length. */
function custFieldValue(c: CustFields, k: number, l: PunchoutLine): string | null {
  const source = c.sources[k] ?? '';
  const value =
    source === 'fixed'
      ? (c.values[k] ?? '')
      : (OCI_CUST_FIELD_SOURCES[source as keyof typeof OCI_CUST_FIELD_SOURCES]?.(l) ?? null);
  return value == null ? null : [...value.replace(/\s+/g, ' ').trim()].slice(0, OCI_CUST_FIELD_MAX_LENGTHS[k]).join('');
}

/** The OCI fields of the lines, in order, as name/value pairs (index n from 1). */
export function ociFields(lines: PunchoutLine[], r: OciReturn): [string, string][] {
  const out: [string, string][] = [];
  const is50 = r.version.startsWith('5');
  lines.forEach((l, i) => {
    const n = i + 1;
    const put = (field: string, value: string | null) => {
      if (value != null && value !== '') out.push([`NEW_ITEM-${field}[${n}]`, value]);
    };
    put('DESCRIPTION', [...l.description].slice(0, OCI_DESCRIPTION_MAX).join(''));
    put('QUANTITY', decimal(l.quantity, 0, 3));
    put('UNIT', ociUnit(l.unit));
    // Price on request: no PRICE field; the procurement system asks for a price in its own workflow.
    put('PRICE', l.price == null ? null : decimal(l.price, 2));
    put('PRICEUNIT', decimal(l.priceBasis, 0, 3));
    put('CURRENCY', l.currency);
    put('LEADTIME', l.leadDays == null ? null : String(l.leadDays));
    put('VENDOR', l.supplierBpNumber);
    put('VENDORMAT', l.articleNumber);
    put('MANUFACTCODE', l.manufacturerId);
    put('MANUFACTMAT', l.manufacturerPid);
    put('MATGROUP', l.etimClass);
    put('EXT_PRODUCT_ID', l.gtin);
    if (is50) {
      for (let k = 0; k < OCI_CUST_FIELD_MAX_LENGTHS.length; k++)
        put(`CUST_FIELD${k + 1}`, custFieldValue(r.custFields, k, l));
    }
    // Long text: one field per line of at most 132 characters, all named NEW_ITEM-LONGTEXT_n:132[].
    if (l.longText) {
      const chars = [...l.longText.replace(/\r\n?/g, '\n')];
      for (let k = 0; k < chars.length; k += OCI_LONGTEXT_LINE) {
        out.push([`NEW_ITEM-LONGTEXT_${n}:132[]`, chars.slice(k, k + OCI_LONGTEXT_LINE).join('')]);
      }
    }
  });
  if (r.okCode) out.push(['~OkCode', r.okCode]);
  if (r.target) out.push(['~TARGET', r.target]);
  if (r.caller) out.push(['~CALLER', r.caller]);
  return out;
}

const escapeAttribute = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page that hands the cart over: a form posting the fields to the hook URL exactly as received
 * (urlencoded, in the caller's character set), submitted at once by the IDS return page's one script
 * (the return page's Content-Security-Policy allows exactly that script by hash).
 */
export function punchoutFormPage(p: {
  action: string;
  target: string | null;
  charset: string;
  fields: [string, string][];
}): string {
  const inputs = p.fields
    .map(([name, value]) => `<input type="hidden" name="${escapeAttribute(name)}" value="${escapeAttribute(value)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="de">
<head><meta charset="utf-8"><title>Warenkorb wird übertragen</title></head>
<body>
<form id="ids-return" method="post" action="${escapeAttribute(p.action)}" target="${escapeAttribute(formTarget(p.target))}" enctype="application/x-www-form-urlencoded" accept-charset="${escapeAttribute(p.charset)}">
${inputs}
<noscript><button type="submit">Warenkorb übertragen</button></noscript>
</form>
<script>${RETURN_SCRIPT}</script>
</body>
</html>
`;
}
