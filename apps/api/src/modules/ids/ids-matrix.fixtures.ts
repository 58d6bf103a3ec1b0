import type { TestApp } from '../../../test/support/test-app.ts';

const cart = `<?xml version="1.0" encoding="UTF-8"?>
<Warenkorb xmlns="http://www.itek.de/Shop-Anbindung/Warenkorb/">
  <WarenkorbInfo><Date>2026-11-20</Date><Time>09:00:00</Time><Version>2.5</Version></WarenkorbInfo>
  <Order><OrderItem><ArtNo>TEST-NB-1</ArtNo><Qty>1</Qty><QU>PCE</QU></OrderItem></Order>
</Warenkorb>`;

/** An IDS context of the demo buyer (kndnr 100001) with one matched position, for the role matrix. */
export async function idsMatrixContext(t: TestApp): Promise<{ contextId: string; code: string; itemId: number }> {
  const form = new FormData();
  for (const [k, v] of Object.entries({
    action: 'wks',
    version: '2.5',
    kndnr: '100001',
    name_kunde: 'einkauf@example.com',
    pw_kunde: 'demo',
    hookurl: 'http://127.0.0.1:9/hook',
    warenkorb: cart,
  }))
    form.append(k, v);
  const res = await fetch(`${t.baseUrl}/ids`, { method: 'POST', body: form, redirect: 'manual' });
  const url = new URL(res.headers.get('location') ?? '', t.baseUrl);
  const contextId = url.searchParams.get('contextId');
  if (!contextId) throw new Error(`IDS entry failed: ${res.status} ${url}`);
  const { rows } = await t.pool.query<{ id: string }>('SELECT id FROM ids_cart_items WHERE context_id = $1', [
    contextId,
  ]);
  return { contextId, code: url.searchParams.get('code')!, itemId: Number(rows[0].id) };
}
