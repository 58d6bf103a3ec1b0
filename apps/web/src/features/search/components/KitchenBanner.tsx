import { Alert, Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { FeatureSettingKey } from '@shk/contracts';
import type { SearchHit } from '../../../api/catalogue';
import { useConfigurationValue } from '../../../api/configuration';

/**
 * Banner for the kitchen manufacturer (setting ManufacturerBannerSupplier): shown when the results
 * contain that supplier's offers.
 */
export function KitchenBanner({ hits }: { hits: SearchHit[] }) {
  const supplier = (useConfigurationValue(FeatureSettingKey.ManufacturerBannerSupplier).data?.value ?? '').trim();
  if (!supplier) return null;
  const hit = hits.find(
    (h) => h.rows.supplierID === supplier || h.rows.wholesalers.some((w) => w.supplierID === supplier),
  );
  if (!hit) return null;
  const name =
    hit.rows.supplierID === supplier
      ? hit.rows.supplierName
      : hit.rows.wholesalers.find((w) => w.supplierID === supplier)?.supplierName;
  return (
    <Alert
      variant="light"
      color="brand"
      title={`Küchen von ${name ?? 'unserem Partner'} bestellen`}
      data-testid="kitchen-banner"
    >
      Für Bestellungen benötigen Sie eine freigegebene Geschäftsbeziehung. Registrieren Sie sie unter{' '}
      <Anchor component={Link} to="/meine-lieferanten">
        Meine Lieferanten
      </Anchor>
      .
    </Alert>
  );
}
