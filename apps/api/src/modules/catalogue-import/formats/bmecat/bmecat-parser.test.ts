import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBmecat } from './bmecat-parser.ts';
import type { ImportEvent } from '../../import.types.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bmecat-parser-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function parse(xml: string, encoding: BufferEncoding = 'latin1') {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.xml`);
  fs.writeFileSync(file, Buffer.from(xml, encoding));
  const events: ImportEvent[] = [];
  for await (const e of readBmecat(file)) events.push(e);
  return events;
}

const price = (from: string | null, to: string | null, amount: string) =>
  `<ARTICLE_PRICE_DETAILS>${from ? `<DATETIME type="valid_start_date"><DATE>${from}</DATE></DATETIME>` : ''}${
    to ? `<DATETIME type="valid_end_date"><DATE>${to}</DATE></DATETIME>` : ''
  }<ARTICLE_PRICE price_type="net_list"><PRICE_AMOUNT>${amount}</PRICE_AMOUNT></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>`;

describe('BMEcat reader', () => {
  it('reads the class names of a BMEcat 1.2 FEATURE_SYSTEM (ISO-8859-1), not the feature templates inside a group', async () => {
    const events = await parse(`<?xml version="1.0" encoding="ISO-8859-1"?>
<BMECAT version="1.2"><HEADER/><T_NEW_CATALOG>
  <FEATURE_SYSTEM><FEATURE_SYSTEM_NAME>ETIM-4.0</FEATURE_SYSTEM_NAME>
    <FEATURE_GROUP><FEATURE_GROUP_ID>EC000010</FEATURE_GROUP_ID><FEATURE_GROUP_NAME>Kugelhähne für Trinkwasser</FEATURE_GROUP_NAME>
      <FEATURE_TEMPLATE><FT_NAME>EF000007</FT_NAME></FEATURE_TEMPLATE></FEATURE_GROUP>
  </FEATURE_SYSTEM>
  <ARTICLE><SUPPLIER_AID>K-1</SUPPLIER_AID><ARTICLE_DETAILS><DESCRIPTION_SHORT>Kugelhahn ½"</DESCRIPTION_SHORT></ARTICLE_DETAILS></ARTICLE>
</T_NEW_CATALOG></BMECAT>`);
    expect(events.filter((e) => e.kind === 'names')).toEqual([
      { kind: 'names', names: [{ kind: 'class', id: 'EC000010', name: 'Kugelhähne für Trinkwasser' }] },
    ]);
    const article = events.find((e) => e.kind === 'article');
    expect(article?.kind === 'article' && article.article.shortDescription).toBe('Kugelhahn ½"');
  });

  it('takes the price block valid today; ended blocks give way, later ones are kept apart', async () => {
    const events = await parse(`<?xml version="1.0" encoding="ISO-8859-1"?>
<BMECAT version="1.2"><HEADER/><T_UPDATE_PRICES>
  <ARTICLE mode="update"><SUPPLIER_AID>P-1</SUPPLIER_AID>
    ${price('2020-01-01', '2020-12-31', '9,00')}${price('2021-01-01', null, '10,00')}${price('2098-01-01', null, '12,00')}${price('2097-01-01', null, '11,00')}
  </ARTICLE>
  <ARTICLE mode="update"><SUPPLIER_AID>P-2</SUPPLIER_AID>${price('2019-01-01', '2019-12-31', '7,50')}${price('2020-01-01', '2020-06-30', '8,00')}</ARTICLE>
  <ARTICLE mode="update"><SUPPLIER_AID>P-3</SUPPLIER_AID>${price('2099-01-01', null, '5,00')}</ARTICLE>
</T_UPDATE_PRICES></BMECAT>`);
    const articles = events.flatMap((e) => (e.kind === 'article' ? [e.article] : []));
    expect(
      articles.map((a) => [a.supplierPid, a.price?.net ?? null, a.futurePrices.map((p) => [p.validFrom, p.net])]),
    ).toEqual([
      [
        'P-1',
        10,
        [
          ['2097-01-01', 11],
          ['2098-01-01', 12],
        ],
      ],
      // All ended: the first block, as suppliers list the current one first.
      ['P-2', 7.5, []],
      // Only a later block: no price today.
      ['P-3', null, [['2099-01-01', 5]]],
    ]);
  });
});
