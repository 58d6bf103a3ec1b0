/**
 * The (fictional) operator of the portal: footer, imprint, terms and privacy notice quote it, and the
 * support e-mail equals the API's default support mailbox (SUPPORT_MAILBOX).
 */
export const portalOperator = {
  /** The wholesale cooperative that runs the portal. */
  name: 'Südwest Haustechnik Großhandel eG',
  street: 'Heilbronner Straße 150',
  postalCode: '70191',
  city: 'Stuttgart',
  country: 'Deutschland',
  register: 'Genossenschaftsregister beim Amtsgericht Stuttgart, GnR 730112',
  vatId: 'DE999999999',
  board: 'Dr. Martina Keller (Vorsitzende), Thomas Brandt',
  supervisoryBoardChair: 'Klaus Reinhardt',
  /** Responsible for content under § 18 Abs. 2 MStV. */
  contentResponsible: 'Dr. Martina Keller',
  website: 'https://www.suedwest-haustechnik.example',
} as const;

/** The one support e-mail address and phone number the footer and legal pages show. */
export const supportContact = {
  email: 'support@shk-bestellportal.example',
  phone: '+49 711 2580-400',
  /** For tel: links. */
  phoneHref: '+497112580400',
  hours: 'Montag bis Freitag, 8:00 bis 17:00 Uhr',
} as const;
