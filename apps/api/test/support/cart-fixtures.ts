import type pg from 'pg';

/**
 * A handful of offers with known prices for cart and order tests, independent of the generated
 * demo catalogue (ids from 900001 on, element ids with prefix TEST_).
 *   TEST~NB-1   Nordbad (200001)    19,99 € / 1 Stk, min 1     – orderable for 100001 and 100003
 *   TEST~NB-2   Nordbad (200001)   100,00 € / 1 Stk, min 1     – orderable
 *   TEST~NB-X   Nordbad (200001)    unit XYZ                   – UnitNotSupported
 *   TEST~AT-1   AquaTherm (200003) 125,00 € / 100 m, min 10 m  – orderable for 100001 only
 *   TEST~WK-1   Wärmekontor (200002) 50,00 €                   – relation awaiting → not orderable
 */
export const offers = {
  nordbad: '200001~TEST-NB-1',
  nordbadExpensive: '200001~TEST-NB-2',
  nordbadBadUnit: '200001~TEST-NB-X',
  aquatherm: '200003~TEST-AT-1',
  waermekontor: '200002~TEST-WK-1',
} as const;

export async function insertTestOffers(pool: pg.Pool) {
  await pool.query(`
    INSERT INTO manufacturers (manufacturer_id, name) VALUES ('TESTM', 'Testwerk Armaturen') ON CONFLICT DO NOTHING;
    INSERT INTO brands (brand_no, name, manufacturer_id) VALUES (900001, 'Testmarke', 'TESTM') ON CONFLICT DO NOTHING;
    INSERT INTO product_tree (node_no, element_id, parent_no, type, name) VALUES (900001, 'TEST_ROOT', NULL, 'node', 'Testknoten') ON CONFLICT DO NOTHING;
    INSERT INTO product_tree (node_no, element_id, parent_no, type, name) VALUES (900002, 'TEST_LEAF', 900001, 'leaf', 'Testblatt') ON CONFLICT DO NOTHING;
  `);
  const products: [number, string, string, string][] = [
    [900001, 'TM-100', 'Thermostatventil Testserie DN15', '4000000000017'],
    [900002, 'TM-200', 'Heizkörperverschraubung Test', '4000000000024'],
    [900003, 'TM-300', 'Pressfitting Test 22 mm', '4000000000031'],
    [900004, 'TM-400', 'Kupferrohr Test 15 mm', '4000000000048'],
    [900005, 'TM-500', 'Wärmepumpe Test', '4000000000055'],
  ];
  for (const [id, pid, name, gtin] of products) {
    await pool.query(
      `INSERT INTO products (id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, product_name, product_descr, leaf_no, media)
       VALUES ($1, 'TESTM~' || $2, 'TESTM', $2, replace($2, '-', ''), $3, 900001, $4, 'Testartikel für Warenkorb-Tests', 900002, '[{"type":"picture","file":"test.svg","description":"Bild"}]')
       ON CONFLICT DO NOTHING`,
      [id, pid, gtin, name],
    );
  }
  const offerRows: [string, number, string, string, string, number | null, number, number][] = [
    [offers.nordbad, 900001, '200001', 'TEST-NB-1', 'C62', 19.99, 1, 1],
    [offers.nordbadExpensive, 900005, '200001', 'TEST-NB-2', 'C62', 100, 1, 1],
    [offers.nordbadBadUnit, 900002, '200001', 'TEST-NB-X', 'XYZ', 5, 1, 1],
    [offers.aquatherm, 900004, '200003', 'TEST-AT-1', 'MTR', 125, 100, 10],
    [offers.waermekontor, 900003, '200002', 'TEST-WK-1', 'C62', 50, 1, 1],
  ];
  for (const [id, productNo, supplier, pid, unit, price, basis, min] of offerRows) {
    await pool.query(
      `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source, unit_code, net_price, price_basis, min_order_quantity)
       VALUES ($1,$2,$3,$4,replace($4,'-',''),1,$5,$6,$7,$8) ON CONFLICT DO NOTHING`,
      [id, productNo, supplier, pid, unit, price, basis, min],
    );
  }
}
