import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { XMLBuilder } from 'fast-xml-parser';
import { cefactUnit, decimal, type PunchoutLine } from './punchout-lines.ts';

/** The DOCTYPE line every cXML document carries (cXML 1.2, the DTD version our documents follow). */
export const CXML_DOCTYPE = '<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">';

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', format: true });

/** payloadID: unique worldwide, `<time>.<process>.<random>@<host>` as the cXML guide recommends. */
export const payloadId = (now = new Date()) =>
  `${now.getTime()}.${process.pid}.${randomBytes(8).toString('hex')}@${hostname() || 'shk-portal'}`;

/** timestamp: ISO 8601 with seconds and a time zone. */
export const timestamp = (now = new Date()) => now.toISOString().replace(/\.\d{3}Z$/, '+00:00');

function documentOf(body: Record<string, unknown>): string {
  const now = new Date();
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    CXML_DOCTYPE +
    '\n' +
    builder.build({ cXML: { '@payloadID': payloadId(now), '@timestamp': timestamp(now), '@xml:lang': 'de', ...body } })
  );
}

/** Response with a Status only (errors; the German text is the Status content). */
export function statusResponse(code: number, text: string, detail: string): string {
  return documentOf({ Response: { Status: { '@code': String(code), '@text': text, '#text': detail } } });
}

export function setupResponse(startPageUrl: string): string {
  return documentOf({
    Response: {
      Status: { '@code': '200', '@text': 'OK' },
      PunchOutSetupResponse: { StartPage: { URL: startPageUrl } },
    },
  });
}

const credential = (domain: string | null, identity: string | null) => ({
  Credential: { '@domain': domain ?? 'NetworkId', Identity: identity ?? '' },
});

export interface OrderMessageParams {
  buyerCookie: string;
  operation: string | null;
  /** The setup request's From (the buyer) becomes the To of the answer, and its To (us) the From. */
  buyer: { domain: string | null; identity: string | null };
  supplier: { domain: string | null; identity: string | null };
  lines: PunchoutLine[];
}

/** Price of one unit (cXML UnitPrice) from our price per price basis. */
const unitPrice = (l: PunchoutLine) => (l.price == null ? 0 : l.price / l.priceBasis);

export function orderMessage(p: OrderMessageParams): string {
  const total = p.lines.reduce((sum, l) => sum + (l.total ?? 0), 0);
  return documentOf({
    Header: {
      From: credential(p.supplier.domain, p.supplier.identity),
      To: credential(p.buyer.domain, p.buyer.identity),
      Sender: { ...credential(p.supplier.domain, p.supplier.identity), UserAgent: 'SHK-Bestellportal' },
    },
    Message: {
      PunchOutOrderMessage: {
        BuyerCookie: p.buyerCookie,
        PunchOutOrderMessageHeader: {
          '@operationAllowed': p.operation === 'inspect' ? 'inspect' : 'edit',
          Total: { Money: { '@currency': 'EUR', '#text': decimal(total, 2, 2) } },
        },
        ItemIn: p.lines.map((l, i) => ({
          '@quantity': decimal(l.quantity, 0, 3),
          '@lineNumber': String(i + 1),
          ItemID: { SupplierPartID: l.articleNumber, SupplierPartAuxiliaryID: l.offerId },
          ItemDetail: {
            UnitPrice: { Money: { '@currency': l.currency, '#text': decimal(unitPrice(l), 2, 4) } },
            Description: { '@xml:lang': 'de', '#text': l.description },
            UnitOfMeasure: cefactUnit(l.unit),
            Classification: { '@domain': 'ETIM', '#text': l.etimClass ?? '' },
            ManufacturerPartID: l.manufacturerPid ?? '',
            ManufacturerName: l.manufacturerName ?? l.manufacturerId ?? '',
            ...(l.leadDays != null ? { LeadTime: String(l.leadDays) } : {}),
          },
        })),
      },
    },
  });
}
