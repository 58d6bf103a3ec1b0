import { portalOperator, PRODUCT_NAME, supportContact } from '@shk/contracts';
import { Page } from '../../ui/Page';
import { LegalText } from './LegalText';

/** /impressum */
export default function ImprintPage() {
  const o = portalOperator;
  return (
    <Page title="Impressum">
      <LegalText>
        <h2>Angaben gemäß § 5 DDG</h2>
        <p>
          {o.name}
          <br />
          {o.street}
          <br />
          {o.postalCode} {o.city}
          <br />
          {o.country}
        </p>
        <p>Betreiberin des {PRODUCT_NAME}s.</p>

        <h2>Vertreten durch den Vorstand</h2>
        <p>{o.board}</p>
        <p>Vorsitzender des Aufsichtsrats: {o.supervisoryBoardChair}</p>

        <h2>Kontakt</h2>
        <p>
          Telefon: <a href={`tel:${supportContact.phoneHref}`}>{supportContact.phone}</a>
          <br />
          E-Mail: <a href={`mailto:${supportContact.email}`}>{supportContact.email}</a>
          <br />
          Erreichbarkeit: {supportContact.hours}
        </p>

        <h2>Registereintrag</h2>
        <p>{o.register}</p>

        <h2>Umsatzsteuer-Identifikationsnummer</h2>
        <p>Umsatzsteuer-Identifikationsnummer gemäß § 27a Umsatzsteuergesetz: {o.vatId}</p>

        <h2>Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV</h2>
        <p>
          {o.contentResponsible}, {o.street}, {o.postalCode} {o.city}
        </p>

        <h2>Streitbeilegung</h2>
        <p>
          Das Portal richtet sich ausschließlich an Unternehmer im Sinne des § 14 BGB. Wir sind nicht bereit und nicht
          verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen.
        </p>

        <h2>Haftung für Inhalte und Links</h2>
        <p>
          Produktdaten, Preise und Lieferbedingungen stellen die jeweiligen Lieferanten bereit; für deren Richtigkeit
          sind die Lieferanten verantwortlich. Für Inhalte verlinkter externer Seiten sind ausschließlich deren
          Betreiber verantwortlich.
        </p>
      </LegalText>
    </Page>
  );
}
