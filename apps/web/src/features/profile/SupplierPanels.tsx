import { Alert, Card, SimpleGrid, Title } from '@mantine/core';
import { communicationDataFormatLabels, communicationProtocolLabels, supplierStatusLabels } from '@shk/contracts';
import { useSupplierCompanyInfo, useSupplierInterfaces } from '../../api/suppliers';
import { formatCurrency } from '../../ui/format';
import { FieldList } from '../../ui/FieldList';

const formats = (ids: number[]) => ids.map((id) => communicationDataFormatLabels[id] ?? id).join(', ');
const yesNo = (v: boolean) => (v ? 'Ja' : 'Nein');

/** /profil, seller part: the own supplier's details and its interfaces (read-only; §2, §6). */
export function SupplierPanels({ bp }: { bp: string }) {
  const details = useSupplierCompanyInfo(bp);
  const interfaces = useSupplierInterfaces(bp);
  const failed = details.isError || interfaces.isError;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-supplier">
        <Title order={2} id="profile-supplier" mb="md">
          Lieferantendaten
        </Title>
        {failed && <Alert color="red">Die Lieferantendaten konnten nicht geladen werden.</Alert>}
        {details.data && (
          <FieldList
            fields={[
              { label: 'Status', value: supplierStatusLabels[details.data.supplierStatusId] },
              { label: 'Lieferkosten', value: formatCurrency(details.data.deliveryCost) },
              { label: 'Lieferkostenfrei ab', value: formatCurrency(details.data.freeDeliveryThreshold) },
              { label: 'Neukundenformular erforderlich', value: yesNo(details.data.requiredOnboardingForm) },
              { label: 'Bruttopreis ausgeblendet', value: yesNo(details.data.hideGrossPrice) },
              { label: 'Zusatzinformationen ausgeblendet', value: yesNo(details.data.hideAdditionalInfo) },
              { label: 'Hinweis', value: details.data.supplierNote },
            ]}
          />
        )}
      </Card>
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-interfaces">
        <Title order={2} id="profile-interfaces" mb="md">
          Schnittstellen
        </Title>
        {interfaces.data && (
          <FieldList
            fields={[
              { label: 'GLN', value: interfaces.data.gln },
              { label: 'Status', value: supplierStatusLabels[interfaces.data.supplierStatusId] },
              {
                label: 'Protokoll (eingehend)',
                value: communicationProtocolLabels[interfaces.data.inboundInterface.communicationProtocolId],
              },
              { label: 'Datenformate (eingehend)', value: formats(interfaces.data.inboundInterface.dataFormats) },
              {
                label: 'Protokoll (ausgehend)',
                value: communicationProtocolLabels[interfaces.data.outboundInterface.communicationProtocolId],
              },
              { label: 'Datenformate (ausgehend)', value: formats(interfaces.data.outboundInterface.dataFormats) },
            ]}
          />
        )}
      </Card>
    </SimpleGrid>
  );
}
