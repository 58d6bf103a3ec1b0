import { Reader } from 'edifact';
import { SupplierOrderStatus, type ConfirmationBody } from '@shk/contracts';

type Segment = { name: string; elements: string[][] };

export class OrdrspError extends Error {}

export interface ParsedOrdrsp {
  orderNumber: string;
  statusId: number;
  body: ConfirmationBody;
  /** BGM 27 (not accepted): the supplier rejects the whole order; every ordered line is removed when applied. */
  rejectsOrder?: boolean;
}

/** CCYYMMDD (format 102) → ISO date; other formats are not used for delivery dates. */
function isoDate(value: string | undefined, format: string | undefined): string | undefined {
  if (!value) return undefined;
  if ((format ?? '102') !== '102' || !/^\d{8}$/.test(value)) throw new OrdrspError(`Ungültiges Datum: ${value}`);
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}

function decimal(value: string | undefined, what: string): number | undefined {
  if (value == null || value === '') return undefined;
  const n = Number(value.replace(',', '.'));
  if (!Number.isFinite(n) || n < 0) throw new OrdrspError(`Ungültiger Wert für ${what}: ${value}`);
  return n;
}

interface LineGroup {
  lineNo: number;
  action: string;
  articleNumber: string | undefined;
  name?: string;
  quantity?: number;
  unitPrice?: number;
  deliveryDate?: string;
}

/**
 * Reads an ORDRSP (D.96A / D.97A) into the portal's confirmation: the order is found by RFF+ON,
 * each LIN refers to the ordered line by its line number (1082) with action code 1229:
 * 5 accepted, 3/6 changed (a different item number in LIN/PIA means a replacement), 7 not accepted
 * (removed), 1 added. QTY 21/113, PRI AAA/AAB, DTM 2/69 (format 102) carry the confirmed values.
 * Tokenising is the npm `edifact` reader's; anything unexpected throws an OrdrspError (nothing applied).
 */
export function parseOrdrsp(text: string): ParsedOrdrsp {
  let segments: Segment[];
  try {
    segments = new Reader({ autoDetectEncoding: true }).parse(text) as Segment[];
  } catch (error) {
    throw new OrdrspError(`Die Datei ist keine gültige EDIFACT-Nachricht: ${(error as Error).message}`);
  }
  const unh = segments.find((s) => s.name === 'UNH');
  const type = unh?.elements[1];
  if (!type || type[0] !== 'ORDRSP' || type[1] !== 'D' || !['96A', '97A'].includes(type[2]))
    throw new OrdrspError('Keine ORDRSP-Nachricht (D.96A/D.97A).');
  const bgm = segments.find((s) => s.name === 'BGM');
  if (!bgm) throw new OrdrspError('BGM-Segment fehlt.');
  const orderNumber = segments.find((s) => s.name === 'RFF' && s.elements[0][0] === 'ON')?.elements[0][1];
  if (!orderNumber) throw new OrdrspError('Bestellnummer (RFF+ON) fehlt.');
  if (bgm.elements[2]?.[0] === '27')
    return {
      orderNumber,
      statusId: SupplierOrderStatus.ConfirmedWithChanges,
      body: { lines: [], addedLines: [] },
      rejectsOrder: true,
    };

  const groups: LineGroup[] = [];
  let current: LineGroup | null = null;
  for (const s of segments) {
    if (s.name === 'LIN') {
      const lineNo = Number(s.elements[0]?.[0]);
      if (!Number.isInteger(lineNo) || lineNo <= 0)
        throw new OrdrspError(`Ungültige Positionsnummer: ${s.elements[0]?.[0]}`);
      current = { lineNo, action: s.elements[1]?.[0] || '5', articleNumber: s.elements[2]?.[0] || undefined };
      groups.push(current);
    } else if (s.name === 'UNS') current = null;
    else if (!current) continue;
    else if (s.name === 'PIA' && ['1', '5'].includes(s.elements[0]?.[0]) && s.elements[1]?.[0])
      current.articleNumber = s.elements[1][0];
    else if (s.name === 'IMD') current.name = s.elements[2]?.[3] || current.name;
    else if (s.name === 'QTY' && ['21', '113'].includes(s.elements[0][0]))
      current.quantity = decimal(s.elements[0][1], 'Menge');
    else if (s.name === 'PRI' && ['AAA', 'AAB'].includes(s.elements[0][0]))
      current.unitPrice = decimal(s.elements[0][1], 'Preis');
    else if (s.name === 'DTM' && ['2', '69'].includes(s.elements[0][0]))
      current.deliveryDate = isoDate(s.elements[0][1], s.elements[0][2]);
  }

  const body: ConfirmationBody = { lines: [], addedLines: [] };
  for (const g of groups) {
    if (g.action === '5') continue;
    if (g.action === '7') body.lines.push({ lineNo: g.lineNo, removed: true });
    else if (g.action === '1') {
      if (!g.articleNumber || !g.quantity)
        throw new OrdrspError(`Hinzugefügte Position ${g.lineNo} ohne Artikel oder Menge.`);
      body.addedLines.push({
        articleNumber: g.articleNumber,
        name: g.name ?? g.articleNumber,
        quantity: g.quantity,
        unitPrice: g.unitPrice ?? null,
        deliveryDate: g.deliveryDate,
      });
    } else if (g.action === '3' || g.action === '6')
      body.lines.push({
        lineNo: g.lineNo,
        quantity: g.quantity || undefined,
        unitPrice: g.unitPrice,
        deliveryDate: g.deliveryDate,
        // The replacement is recognised against the ordered article when the line is applied.
        ...(g.articleNumber
          ? { replacement: { articleNumber: g.articleNumber, name: g.name ?? g.articleNumber } }
          : {}),
      });
    else throw new OrdrspError(`Unbekannter Aktionscode ${g.action} in Position ${g.lineNo}.`);
  }
  const statusId =
    body.lines.length || body.addedLines.length
      ? SupplierOrderStatus.ConfirmedWithChanges
      : SupplierOrderStatus.Confirmed;
  return { orderNumber, statusId, body };
}
