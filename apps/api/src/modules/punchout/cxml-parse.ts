import { SaxesParser } from 'saxes';

/** Why an incoming cXML document is refused (each maps to a cXML Status, docs/punchout.md). */
export class CxmlRefused extends Error {
  constructor(readonly reason: 'malformed' | 'entities' | 'notSetupRequest') {
    super(reason);
  }
}

interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

const child = (el: El | undefined, name: string) => el?.children.find((c) => c.name === name);
const children = (el: El | undefined, name: string) => el?.children.filter((c) => c.name === name) ?? [];
const textOf = (el: El | undefined) => el?.text.trim() || null;

/**
 * The document as a small element tree, read with saxes (streaming, linear). cXML documents carry a DOCTYPE line
 * naming cXML's DTD; it is accepted but never fetched. An internal subset (ENTITY declarations) is refused, so
 * no entity is ever expanded.
 */
function readTree(xml: string): El {
  const parser = new SaxesParser({ xmlns: false });
  const root: El = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: El[] = [root];
  let refused: CxmlRefused | null = null;
  parser.on('doctype', (doctype) => {
    if (/[[<]|ENTITY/i.test(doctype)) refused ??= new CxmlRefused('entities');
  });
  parser.on('opentag', (tag) => {
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(tag.attributes)) attrs[k] = v;
    const el: El = { name: tag.name.replace(/^.*:/, ''), attrs, children: [], text: '' };
    stack[stack.length - 1].children.push(el);
    stack.push(el);
  });
  parser.on('text', (t) => {
    stack[stack.length - 1].text += t;
  });
  parser.on('cdata', (t) => {
    stack[stack.length - 1].text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  let failed = false;
  parser.on('error', () => {
    failed = true;
  });
  try {
    parser.write(xml.replace(/^\uFEFF/, '')).close();
  } catch {
    failed = true;
  }
  if (refused) throw refused;
  if (failed) throw new CxmlRefused('malformed');
  return root;
}

export interface CxmlCredential {
  domain: string;
  identity: string;
  sharedSecret: string | null;
}

export interface PunchOutSetupRequest {
  payloadId: string | null;
  from: CxmlCredential[];
  to: CxmlCredential[];
  sender: CxmlCredential[];
  operation: string;
  buyerCookie: string | null;
  browserFormPost: string | null;
  items: { quantity: number; supplierPartId: string | null; auxiliaryId: string | null }[];
}

function credentials(el: El | undefined): CxmlCredential[] {
  return children(el, 'Credential').map((c) => ({
    domain: c.attrs.domain ?? '',
    identity: textOf(child(c, 'Identity')) ?? '',
    sharedSecret: textOf(child(c, 'SharedSecret')),
  }));
}

/** A PunchOutSetupRequest's parts; throws CxmlRefused for anything else. */
export function parseSetupRequest(xml: string): PunchOutSetupRequest {
  const cxml = child(readTree(xml), 'cXML');
  const header = child(cxml, 'Header');
  const setup = child(child(cxml, 'Request'), 'PunchOutSetupRequest');
  if (!cxml || !setup) throw new CxmlRefused('notSetupRequest');
  return {
    payloadId: cxml.attrs.payloadID ?? null,
    from: credentials(child(header, 'From')),
    to: credentials(child(header, 'To')),
    sender: credentials(child(header, 'Sender')),
    operation: (setup.attrs.operation ?? 'create').trim(),
    buyerCookie: textOf(child(setup, 'BuyerCookie')),
    browserFormPost: textOf(child(child(setup, 'BrowserFormPost'), 'URL')),
    items: children(setup, 'ItemOut').map((item) => {
      const id = child(item, 'ItemID');
      return {
        quantity: Number(item.attrs.quantity ?? '1'),
        supplierPartId: textOf(child(id, 'SupplierPartID')),
        auxiliaryId: textOf(child(id, 'SupplierPartAuxiliaryID')),
      };
    }),
  };
}
