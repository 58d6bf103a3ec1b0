import { Role } from '@shk/contracts';
import type { Db } from '../db/pool.ts';
import { inTransaction } from '../db/pool.ts';
import { hashPassword } from '../modules/identity/password.ts';
import { pdfDocument } from '../lib/pdf.ts';
import { reference } from './catalogue/reference.ts';
import { checkLogo } from '../modules/suppliers/supplier-files.ts';
import { demoLogoSvg } from './demo-logos.ts';

/** Fixed ids keep the demo world identical on every machine (tests rely on it). */
export const demoPartners = {
  buyerMueller: '100001',
  buyerSchmidt: '100002',
  buyerBecker: '100003',
  supplierNordbad: '200001',
  supplierWaermeKontor: '200002',
  supplierAquaTherm: '200003',
  supplierRohrwerk: '200004',
  supplierKlimaSued: '200005',
  supplierHydroline: '200006',
  supplierWestfalenSanitaer: '200007',
  supplierKuechenwerk: '200008',
  supplierWerkzeugHaus: '200009',
  /** A business partner that is not a supplier yet (the /admin add flow). */
  newcomerSanitaerkontor: '200010',
} as const;

interface DemoAccount {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  partners: string[];
  label: string;
}

export const demoAccounts: DemoAccount[] = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'einkauf@example.com',
    firstName: 'Erika',
    lastName: 'Einkauf',
    role: Role.Buyer,
    partners: ['100001', '100002'],
    label: 'Einkäufer (zwei Geschäftspartner)',
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    email: 'einkauf2@example.com',
    firstName: 'Bernd',
    lastName: 'Becker',
    role: Role.Buyer,
    partners: ['100003'],
    label: 'Einkäufer (anderer Geschäftspartner)',
  },
  {
    id: '00000000-0000-4000-8000-000000000003',
    email: 'verkauf@example.com',
    firstName: 'Volker',
    lastName: 'Verkauf',
    role: Role.Seller,
    partners: ['200001'],
    label: 'Verkäufer (Lieferant Nordbad)',
  },
  {
    id: '00000000-0000-4000-8000-000000000004',
    email: 'admin@example.com',
    firstName: 'Anna',
    lastName: 'Admin',
    role: Role.Administrator,
    partners: [],
    label: 'Administrator',
  },
  {
    id: '00000000-0000-4000-8000-000000000005',
    email: 'support@example.com',
    firstName: 'Sven',
    lastName: 'Support',
    role: Role.Support,
    partners: [],
    label: 'Support',
  },
  {
    id: '00000000-0000-4000-8000-000000000006',
    email: 'betrieb@example.com',
    firstName: 'Petra',
    lastName: 'Betrieb',
    role: Role.PlatformOperator,
    partners: [],
    label: 'Plattformbetreiber',
  },
  {
    id: '00000000-0000-4000-8000-000000000007',
    email: 'gast@example.com',
    firstName: 'Gerd',
    lastName: 'Gast',
    role: Role.None,
    partners: [],
    label: 'Ohne Rolle',
  },
];

export const DEMO_PASSWORD = 'demo';

type PartnerSeed = [
  bp: string,
  name: string,
  official: string,
  street: string,
  no: string,
  zip: string,
  city: string,
  email: string,
  phone: string,
  fax: string,
  web: string,
  tax: string,
  orgType: number,
  supplier: boolean,
];

const partners: PartnerSeed[] = [
  [
    '100001',
    'Sanitär Müller GmbH',
    'Sanitär Müller GmbH',
    'Lindenstraße',
    '12',
    '50667',
    'Köln',
    'info@sanitaer-mueller.example',
    '+49 221 4711-0',
    '+49 221 4711-99',
    'https://sanitaer-mueller.example',
    '214/5720/1234',
    0,
    false,
  ],
  [
    '100002',
    'Heizungsbau Schmidt & Söhne KG',
    'Heizungsbau Schmidt & Söhne KG',
    'Am Mühlbach',
    '3a',
    '80331',
    'München',
    'kontakt@schmidt-heizung.example',
    '+49 89 123456-0',
    '+49 89 123456-9',
    'https://schmidt-heizung.example',
    '143/210/98765',
    0,
    false,
  ],
  [
    '100003',
    'Wärme & Wasser Becker e.K.',
    'Wärme & Wasser Becker e.K.',
    'Hafenweg',
    '7',
    '20457',
    'Hamburg',
    'post@becker-ww.example',
    '+49 40 998877-0',
    '+49 40 998877-1',
    'https://becker-ww.example',
    '46/123/45678',
    0,
    false,
  ],
  [
    '200001',
    'Nordbad Großhandel',
    'Nordbad Sanitär- und Heizungsgroßhandel GmbH & Co. KG',
    'Industriestraße',
    '40',
    '28199',
    'Bremen',
    'vertrieb@nordbad.example',
    '+49 421 5550-0',
    '+49 421 5550-100',
    'https://nordbad.example',
    '60/145/11223',
    1,
    true,
  ],
  [
    '200002',
    'Wärmekontor Rhein-Main',
    'Wärmekontor Rhein-Main Haustechnik GmbH',
    'Hanauer Landstraße',
    '211',
    '60314',
    'Frankfurt am Main',
    'bestellung@waermekontor.example',
    '+49 69 87650-0',
    '+49 69 87650-50',
    'https://waermekontor.example',
    '045/228/33445',
    1,
    true,
  ],
  [
    '200003',
    'AquaTherm Armaturen',
    'AquaTherm Armaturenwerke AG',
    'Quellenweg',
    '5',
    '58636',
    'Iserlohn',
    'service@aquatherm.example',
    '+49 2371 9090-0',
    '+49 2371 9090-19',
    'https://aquatherm.example',
    '328/5710/0815',
    2,
    true,
  ],
  [
    '200004',
    'Rohrwerk Sauerland',
    'Rohrwerk Sauerland GmbH',
    'Hüttenstraße',
    '18',
    '57439',
    'Attendorn',
    'info@rohrwerk-sauerland.example',
    '+49 2722 6060-0',
    '+49 2722 6060-60',
    'https://rohrwerk-sauerland.example',
    '338/5801/4455',
    3,
    true,
  ],
  [
    '200005',
    'KlimaSüd Lüftungstechnik',
    'KlimaSüd Lüftungstechnik GmbH',
    'Gewerbering',
    '9',
    '70565',
    'Stuttgart',
    'auftrag@klimasued.example',
    '+49 711 72020-0',
    '+49 711 72020-20',
    'https://klimasued.example',
    '99012/34567',
    4,
    true,
  ],
  [
    '200006',
    'Hydroline Heiztechnik',
    'Hydroline Heiztechnik GmbH',
    'Kesselweg',
    '1',
    '35576',
    'Wetzlar',
    'kundenservice@hydroline.example',
    '+49 6441 3030-0',
    '+49 6441 3030-33',
    'https://hydroline.example',
    '039/241/77889',
    2,
    true,
  ],
  [
    '200007',
    'Westfalen Sanitär',
    'Westfalen Sanitär Fachgroßhandel GmbH',
    'Bahnhofstraße',
    '101',
    '44137',
    'Dortmund',
    'einkauf@westfalen-sanitaer.example',
    '+49 231 44440-0',
    '+49 231 44440-44',
    'https://westfalen-sanitaer.example',
    '314/5703/2211',
    1,
    true,
  ],
  [
    '200008',
    'Küchenwerk Ostwestfalen',
    'Küchenwerk Ostwestfalen GmbH',
    'Möbelstraße',
    '25',
    '32051',
    'Herford',
    'partner@kuechenwerk.example',
    '+49 5221 1010-0',
    '+49 5221 1010-10',
    'https://kuechenwerk.example',
    '335/5720/9876',
    3,
    true,
  ],
  [
    '200009',
    'Werkzeughaus Franken',
    'Werkzeughaus Franken OHG',
    'Schraubenweg',
    '4',
    '90429',
    'Nürnberg',
    'verkauf@werkzeughaus-franken.example',
    '+49 911 26260-0',
    '+49 911 26260-26',
    'https://werkzeughaus-franken.example',
    '241/153/60708',
    1,
    true,
  ],
  // In the master data, not yet a supplier: administrators add it on /admin (its offers are in the catalogue).
  [
    '200010',
    'Sanitärkontor Elbe',
    'Sanitärkontor Elbe GmbH',
    'Am Elbufer',
    '12',
    '01067',
    'Dresden',
    'vertrieb@sanitaerkontor-elbe.example',
    '+49 351 44000-0',
    '+49 351 44000-99',
    'https://sanitaerkontor-elbe.example',
    '202/118/40010',
    1,
    false,
  ],
];

/** Supplier settings: delivery cost and free-delivery threshold in EUR, status, onboarding addresses. */
const supplierSettings: Record<
  string,
  { deliveryCost: number; threshold: number; status: number; onboarding?: boolean }
> = {
  '200001': { deliveryCost: 9.9, threshold: 250, status: 1 },
  '200002': { deliveryCost: 12.5, threshold: 400, status: 1 },
  '200003': { deliveryCost: 0, threshold: 0, status: 1 },
  '200004': { deliveryCost: 19.9, threshold: 500, status: 1 },
  '200005': { deliveryCost: 14.9, threshold: 300, status: 1, onboarding: true },
  '200006': { deliveryCost: 7.5, threshold: 150, status: 1 },
  '200007': { deliveryCost: 8.9, threshold: 200, status: 1 },
  '200008': { deliveryCost: 29, threshold: 1000, status: 3 },
  '200009': { deliveryCost: 5.9, threshold: 100, status: 1 },
};

/**
 * Demo values of the kitchen-manufacturer settings (docs/configurator.md): Küchenwerk (200008) is both
 * kitchen manufacturer of the demo world – configurator and search banner – and the manufacturer of the
 * introductory video. The configurator URL is a placeholder (e2e/configurator.spec.ts points it at a local
 * test configurator); the secret is the demo secret the test configurator signs with.
 */
export const demoKitchenConfiguratorSecret = 'demo-kuechenwerk-konfigurator-secret';
export function demoKitchenSettings(): Record<string, string> {
  const kuechenwerk = reference().brands.find((b) => b.def.supplier === demoPartners.supplierKuechenwerk);
  return {
    KitchenConfiguratorSupplier: demoPartners.supplierKuechenwerk,
    ManufacturerBannerSupplier: demoPartners.supplierKuechenwerk,
    KitchenConfiguratorUrl: 'https://konfigurator.kuechenwerk.example/start',
    KitchenConfiguratorClientSecret: demoKitchenConfiguratorSecret,
    IntroductoryVideoManufacturer: kuechenwerk?.manufacturerId ?? '',
    IntroductoryVideoUrl: '/video-help/kuechenwerk-einfuehrung.html',
    VideoHelpWidgetScriptUrl: '/video-help/widget.js',
  };
}

/** Creates the demo world when the database has no users yet; returns whether it did. */
export async function seedDemoWorldIfEmpty(db: Db, log: (m: string) => void = () => {}): Promise<boolean> {
  const { rows } = await db.$client.query('SELECT 1 FROM users LIMIT 1');
  if (rows.length) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await inTransaction(db, async (tx) => {
    const c = tx.$client;
    for (const p of partners) {
      await c.query(
        `INSERT INTO business_partners (bp_number, name, official_company_name, street, house_number, postal_code, city, country,
           email, phone_number, fax_number, website, tax_number, vat_id, organisation_type, is_supplier)
         VALUES ($1,$2,$3,$4,$5,$6,$7,'DE',$8,$9,$10,$11,$12,$13,$14,$15) ON CONFLICT (bp_number) DO NOTHING`,
        [
          p[0],
          p[1],
          p[2],
          p[3],
          p[4],
          p[5],
          p[6],
          p[7],
          p[8],
          p[9],
          p[10],
          p[11],
          `DE${(123456789 + Number(p[0])).toString().slice(0, 9)}`,
          p[12],
          p[13],
        ],
      );
      const s = supplierSettings[p[0]];
      if (s) {
        const domain = p[7].split('@')[1];
        await c.query(
          `INSERT INTO suppliers (bp_number, supplier_status_id, delivery_cost, free_delivery_threshold, contact_person_name, contact_person_phone,
             contact_person_email, customer_onboarding_email, new_customer_onboarding_email, orders_summary_email, out_email_address,
             required_onboarding_form, product_data_source, integration_status, gln)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,1,$14) ON CONFLICT (bp_number) DO NOTHING`,
          [
            p[0],
            s.status,
            s.deliveryCost,
            s.threshold,
            'Kundenbetreuung',
            p[8],
            p[7],
            `kunden@${domain}`,
            `neukunden@${domain}`,
            `auftraege@${domain}`,
            `auftraege@${domain}`,
            s.onboarding ?? false,
            p[12],
            `40${p[0]}0000${p[0].slice(-1)}`.slice(0, 13),
          ],
        );
      }
    }
    // Every demo supplier gets a logo (a fresh seed only: a logo an administrator replaced stays).
    const suppliersWithSettings = partners.filter((p) => supplierSettings[p[0]]);
    for (const [index, p] of suppliersWithSettings.entries()) {
      const file = await checkLogo(`${p[0]}-logo.svg`, demoLogoSvg(p[1], index));
      await c.query(
        `UPDATE suppliers SET logo = $2, logo_file_name = $3, logo_content_type = $4, logo_version = logo_version + 1
          WHERE bp_number = $1 AND logo IS NULL AND logo_storage_key IS NULL`,
        [p[0], file.content, file.fileName, file.contentType],
      );
    }
    for (const a of demoAccounts) {
      await c.query(
        `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number)
         VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING`,
        [a.id, a.email, a.firstName, a.lastName, a.role, passwordHash, a.partners[0] ?? null],
      );
      for (const bp of a.partners) {
        await c.query('INSERT INTO user_business_partners (user_id, bp_number) VALUES ($1,$2) ON CONFLICT DO NOTHING', [
          a.id,
          bp,
        ]);
      }
    }
    // IDS-Connect login of the demo buyer for craftsman software (README): kndnr 100001, name_kunde
    // einkauf@example.com, pw_kunde demo.
    await c.query(
      `INSERT INTO ids_credentials (bp_number, user_id, login_name, password_hash) VALUES ('100001', $1, 'einkauf@example.com', $2)
       ON CONFLICT DO NOTHING`,
      [demoAccounts[0].id, passwordHash],
    );
    // Punchout logins of the demo buyer for procurement systems (README, docs/punchout.md): OCI USERNAME
    // einkauf@example.com / PASSWORD demo, cXML From identity 100001 (domain NetworkId) with shared secret demo;
    // OCI 5.0 customer fields: CUST_FIELD1 carries the line's project, CUST_FIELD5 (CHAR 50) the offer id.
    await c.query(
      `INSERT INTO punchout_credentials (bp_number, user_id, oci_enabled, oci_username, oci_password_hash, cxml_enabled,
              cxml_domain, cxml_identity, cxml_secret_hash, oci_cust_fields)
       VALUES ('100001', $1, true, 'einkauf@example.com', $2, true, 'NetworkId', '100001', $2, '{project,"","","",offerId}')
       ON CONFLICT DO NOTHING`,
      [demoAccounts[0].id, passwordHash],
    );
    // KlimaSüd requires its new-customer form before it approves a relation.
    await c.query(
      // A template an administrator uploaded (in the file storage) stays.
      `UPDATE suppliers SET onboarding_form_template = $2, onboarding_form_template_file_name = $3
        WHERE bp_number = $1 AND required_onboarding_form AND onboarding_form_template_storage_key IS NULL`,
      [
        '200005',
        pdfDocument({
          title: 'Neukundenformular KlimaSüd Lüftungstechnik GmbH',
          lines: [
            'Firma: ______________________________',
            'Geschäftspartnernummer: ______________',
            'Ansprechpartner: ____________________',
            'Umsatzsteuer-ID: ____________________',
            'Bitte unterschrieben an neukunden@klimasued.example senden.',
          ],
        }),
        'Neukundenformular_KlimaSued.pdf',
      ],
    );
    // Demo relations: Sanitär Müller may order from Nordbad and AquaTherm; a request to Wärmekontor waits;
    // Heizungsbau Schmidt was rejected by Rohrwerk. Becker (einkauf2) orders from Nordbad.
    const relations: [string, string, number, string | null, string | null][] = [
      ['200001', '100001', 1, 'K-10001', null],
      ['200003', '100001', 1, 'AT-55501', null],
      ['200002', '100001', 2, 'WK-7781', null],
      ['200004', '100002', 3, 'RS-3003', 'Kundennummer unbekannt – bitte prüfen Sie Ihre Angabe.'],
      ['200001', '100003', 1, 'K-10077', null],
    ];
    for (const [supplier, buyer, status, number, comments] of relations) {
      const { rows } = await c.query<{ id: number }>(
        `INSERT INTO supplier_customers (supplier_bp_number, buyer_bp_number, relation_status_id, supplier_customer_number, comments)
         VALUES ($1,$2,$3,$4,$5) ON CONFLICT DO NOTHING RETURNING id`,
        [supplier, buyer, status, number, comments],
      );
      if (rows[0]) {
        await c.query(
          'INSERT INTO supplier_customer_status_changes (supplier_customer_id, old_status_id, new_status_id, comments) VALUES ($1, NULL, $2, $3)',
          [rows[0].id, status, comments],
        );
      }
    }
    // Kitchen-manufacturer settings: only where the parameter exists and has no value yet.
    for (const [key, value] of Object.entries(demoKitchenSettings())) {
      if (!value) continue;
      await c.query(
        `INSERT INTO custom_parameter_values (key, value)
         SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM custom_parameters WHERE key = $1)
           AND NOT EXISTS (SELECT 1 FROM custom_parameter_values WHERE key = $1)`,
        [key, value],
      );
    }
    // Demo-Workflows: connection profiles for SFTP, FTP, HTTP and API transmission, without secrets (an
    // administrator adds password or key); the demo suppliers keep e-mail until one is chosen for them.
    await c.query(
      `INSERT INTO workflows (name, communication_protocol_id, host, port, username, base_url) VALUES
         ('Demo SFTP Lieferantenserver', 2, 'sftp.nordbad.example', 22, 'shk-portal', NULL),
         ('Demo FTP Lieferantenserver', 5, 'ftp.aquatherm.example', 21, 'shk-portal', NULL),
         ('Demo HTTP-Bestellannahme', 4, NULL, NULL, NULL, 'https://edi.waermekontor.example/orders'),
         ('Demo API-Bestellannahme', 6, NULL, NULL, NULL, 'https://api.rohrwerk.example/v1/orders')
       ON CONFLICT (name) DO NOTHING`,
    );
  });
  log(`demo world: ${partners.length} business partners, ${demoAccounts.length} users`);
  return true;
}
