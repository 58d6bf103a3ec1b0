import { portalOperator, PRODUCT_NAME, supportContact } from '@shk/contracts';
import { Page } from '../../ui/Page';
import { LegalText } from './LegalText';

/** Date of the notice (spec). */
export const PRIVACY_NOTICE_DATE = '21.04.2025';

/** /datenschutz */
export default function PrivacyPage() {
  const o = portalOperator;
  return (
    <Page title="Datenschutzerklärung" documentTitle="Datenschutz">
      <LegalText>
        <p>
          <strong>Stand: {PRIVACY_NOTICE_DATE}</strong>
        </p>

        <h2>1. Verantwortlicher</h2>
        <p>
          Verantwortlich für die Verarbeitung personenbezogener Daten im {PRODUCT_NAME} ist die {o.name}, {o.street},{' '}
          {o.postalCode} {o.city}, E-Mail: <a href={`mailto:${supportContact.email}`}>{supportContact.email}</a>,
          Telefon: {supportContact.phone}.
        </p>

        <h2>2. Zwecke und Rechtsgrundlagen</h2>
        <p>
          Wir verarbeiten Ihre Daten, um Ihnen das Portal bereitzustellen, Ihre Anmeldung zu ermöglichen und Ihre
          Bestellungen an die Lieferanten zu vermitteln (Art. 6 Abs. 1 lit. b DSGVO), um gesetzliche Pflichten zu
          erfüllen (Art. 6 Abs. 1 lit. c DSGVO), aufgrund unseres berechtigten Interesses an einem sicheren und stabilen
          Betrieb (Art. 6 Abs. 1 lit. f DSGVO) sowie – soweit Sie eingewilligt haben – auf Grundlage Ihrer Einwilligung
          (Art. 6 Abs. 1 lit. a DSGVO, § 25 Abs. 1 TDDDG).
        </p>

        <h2>3. Hosting</h2>
        <p>
          Das Portal wird bei einem Hosting-Dienstleister in Rechenzentren innerhalb der Europäischen Union betrieben.
          Beim Aufruf werden technisch notwendige Daten (IP-Adresse, Zeitpunkt, aufgerufene Seite, Browsertyp) in
          Server-Protokollen verarbeitet, um den Betrieb und die Sicherheit zu gewährleisten. Mit dem Dienstleister
          besteht ein Vertrag zur Auftragsverarbeitung.
        </p>

        <h2>4. Einwilligungsverwaltung (Consent-Tool)</h2>
        <p>
          Wir verwenden ein Consent-Tool, um Ihre Entscheidung über Präferenz- und Marketing-Speicher einzuholen und zu
          speichern. Ihre Auswahl wird im lokalen Speicher Ihres Browsers abgelegt. Sie können sie jederzeit über die
          Cookie-Einstellungen im Fußbereich oder auf der Seite Cookie-Erklärung ändern oder widerrufen.
        </p>

        <h2>5. Webanalyse</h2>
        <p>
          Mit Ihrer Einwilligung setzen wir einen Webanalyse-Dienst ein, um die Nutzung des Portals (z. B. Suchen,
          angesehene Produkte, Bestellvorgänge) in pseudonymisierter Form auszuwerten und das Angebot zu verbessern.
        </p>

        <h2>6. Tag-Manager</h2>
        <p>
          Ein Tag-Manager steuert, welche der eingewilligten Dienste geladen werden. Er selbst speichert keine
          Nutzungsprofile; er verarbeitet jedoch technisch Ihre IP-Adresse beim Laden.
        </p>

        <h2>7. Fehlerberichte</h2>
        <p>
          Um Fehler schnell zu beheben, übermitteln wir technische Fehlerberichte (Fehlermeldung, Browser, aufgerufene
          Seite, Zeitpunkt) an einen Dienst zur Fehleranalyse. Inhalte Ihrer Bestellungen werden dabei nicht
          übermittelt.
        </p>

        <h2>8. Videodienste</h2>
        <p>
          Hilfe- und Herstellervideos werden nur nach Ihrer Einwilligung in Marketing-Dienste geladen. Erst dann stellt
          Ihr Browser eine Verbindung zu den Servern des Videoanbieters her.
        </p>

        <h2>9. Supportanfragen</h2>
        <p>
          Wenn Sie uns kontaktieren oder eine Änderung Ihrer Firmendaten beantragen, verarbeiten wir Ihre Angaben
          (Nachricht, E-Mail-Adresse, Telefonnummer) zur Bearbeitung. Supportanfragen werden 6 Monate nach ihrem
          Abschluss gelöscht.
        </p>

        <h2>10. Speicherdauer</h2>
        <p>
          Wir speichern personenbezogene Daten nur so lange, wie es für den jeweiligen Zweck erforderlich ist. Bestell-
          und Abrechnungsdaten unterliegen gesetzlichen Aufbewahrungsfristen von bis zu 10 Jahren (§ 147 AO, § 257 HGB).
          Die Erforderlichkeit der Speicherung überprüfen wir alle drei Jahre.
        </p>

        <h2>11. Empfänger</h2>
        <p>
          Die Daten Ihrer Bestellungen erhalten die von Ihnen gewählten Lieferanten. Darüber hinaus setzen wir
          Dienstleister (Hosting, E-Mail-Versand, Fehleranalyse) als Auftragsverarbeiter ein.
        </p>

        <h2>12. Ihre Rechte</h2>
        <p>
          Sie haben das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung, Datenübertragbarkeit
          und Widerspruch sowie das Recht, eine Einwilligung jederzeit mit Wirkung für die Zukunft zu widerrufen. Sie
          können sich außerdem bei einer Datenschutz-Aufsichtsbehörde beschweren.
        </p>
      </LegalText>
    </Page>
  );
}
