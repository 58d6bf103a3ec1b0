import { portalOperator, PRODUCT_NAME } from '@shk/contracts';
import { Page } from '../../ui/Page';
import { LegalText } from './LegalText';

/** /agb – eight numbered clauses; German law, court at the cooperative's seat. */
export default function TermsPage() {
  const o = portalOperator;
  return (
    <Page title="Allgemeine Geschäftsbedingungen" documentTitle="AGB">
      <LegalText>
        <h2>§ 1 Geltungsbereich</h2>
        <p>
          Diese Allgemeinen Geschäftsbedingungen gelten für die Nutzung des {PRODUCT_NAME}s der {o.name} („Betreiberin“)
          durch Unternehmer im Sinne des § 14 BGB, insbesondere Fachbetriebe des Sanitär-, Heizungs- und Klimahandwerks,
          sowie durch Lieferanten.
        </p>

        <h2>§ 2 Zugang</h2>
        <p>
          Der Zugang steht Mitgliedern der Einkaufsgenossenschaft und freigeschalteten Lieferanten offen. Zugangsdaten
          sind vertraulich zu behandeln und dürfen nicht an Dritte weitergegeben werden.
        </p>

        <h2>§ 3 Leistungen der Betreiberin</h2>
        <p>
          Die Betreiberin stellt das Portal als Vermittlungsplattform bereit. Sie wird nicht Vertragspartei der über das
          Portal geschlossenen Kaufverträge zwischen Käufern und Lieferanten.
        </p>

        <h2>§ 4 Bestellungen und Vertragsschluss</h2>
        <p>
          Mit „Akzeptieren und Bestellen“ gibt der Käufer ein Angebot an den jeweiligen Lieferanten ab und akzeptiert
          dessen Geschäftsbedingungen. Der Kaufvertrag kommt erst mit der Auftragsbestätigung des Lieferanten zustande.
        </p>

        <h2>§ 5 Preise und Lieferkosten</h2>
        <p>
          Angezeigte Preise sind Nettopreise der Lieferanten. Bestellwert und Lieferkosten werden vom Lieferanten
          geprüft und in der Auftragsbestätigung verbindlich festgelegt.
        </p>

        <h2>§ 6 Pflichten der Nutzer</h2>
        <p>
          Nutzer halten ihre Firmendaten aktuell und nutzen das Portal nur für eigene geschäftliche Zwecke. Eine
          missbräuchliche Nutzung berechtigt die Betreiberin, den Zugang zu sperren.
        </p>

        <h2>§ 7 Haftung</h2>
        <p>
          Die Betreiberin haftet unbeschränkt bei Vorsatz und grober Fahrlässigkeit sowie bei Verletzung von Leben,
          Körper oder Gesundheit. Bei leichter Fahrlässigkeit haftet sie nur für die Verletzung wesentlicher
          Vertragspflichten und begrenzt auf den vorhersehbaren, typischen Schaden. Für Produktangaben der Lieferanten
          haftet die Betreiberin nicht.
        </p>

        <h2>§ 8 Schlussbestimmungen</h2>
        <p>
          Es gilt das Recht der Bundesrepublik Deutschland unter Ausschluss des UN-Kaufrechts. Gerichtsstand für alle
          Streitigkeiten ist {o.city}, der Sitz der Genossenschaft. Sollte eine Bestimmung unwirksam sein, bleibt die
          Wirksamkeit der übrigen Bestimmungen unberührt.
        </p>
      </LegalText>
    </Page>
  );
}
