import { useState } from 'react';
import { Alert, Anchor, Button, Center, Loader, Modal, Stack, Text } from '@mantine/core';
import { downloadOnboardingFormTemplate, useSupplierCompanyInfo, type SupplierCompanyInfo } from '../../api/relations';
import { problemTitle } from '../../api/problem';
import { FieldList, type Field } from '../../ui/FieldList';
import { formatCountry, formatCurrency } from '../../ui/format';
import { toast } from '../../ui/toast';

const externalLink = (href: string | null, text?: string | null) =>
  href ? (
    <Anchor
      href={/^https?:\/\//i.test(href) ? href : `https://${href}`}
      target="_blank"
      rel="noopener noreferrer"
      inherit
    >
      {text ?? href}
    </Anchor>
  ) : null;

function address(info: SupplierCompanyInfo) {
  const street = [info.street, info.houseNumber].filter(Boolean).join(' ');
  const city = [info.postalCode, info.city].filter(Boolean).join(' ');
  return [street, city, formatCountry(info.country)].filter(Boolean).join(', ');
}

const infoFields = (info: SupplierCompanyInfo): Field[] => [
  { label: 'Name', value: info.name },
  { label: 'Offizieller Firmenname', value: info.officialCompanyName },
  { label: 'Lieferantennummer', value: info.businessPartnerNo },
  { label: 'Adresse', value: address(info) },
  { label: 'Telefon', value: info.contact.phoneNumber },
  { label: 'Fax', value: info.faxNumber },
  {
    label: 'E-Mail',
    value: info.contact.eMail ? (
      <Anchor href={`mailto:${info.contact.eMail}`} inherit>
        {info.contact.eMail}
      </Anchor>
    ) : null,
  },
  { label: 'Website', value: externalLink(info.website) },
  { label: 'Lieferkosten', value: formatCurrency(info.deliveryCost) },
  {
    label: 'Lieferkostenfrei ab',
    value: info.freeDeliveryThreshold > 0 ? formatCurrency(info.freeDeliveryThreshold) : null,
  },
];

/** Button that downloads the supplier's new-customer form (file name from the server). */
export function OnboardingFormButton({ bpNumber }: { bpNumber: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadOnboardingFormTemplate(bpNumber);
    } catch (error) {
      toast.error(problemTitle(error, 'Das Neukundenformular konnte nicht heruntergeladen werden.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="light" size="xs" loading={busy} onClick={() => void download()}>
      Neukundenformular herunterladen
    </Button>
  );
}

/** Company data, delivery terms, note and new-customer form of a supplier. */
export function SupplierInfoContent({ bpNumber }: { bpNumber: string }) {
  const info = useSupplierCompanyInfo(bpNumber);
  if (info.isPending) {
    return (
      <Center py="lg">
        <Loader size="sm" aria-label="Wird geladen" />
      </Center>
    );
  }
  if (info.isError) {
    return (
      <Alert color="red" variant="light">
        {problemTitle(info.error, 'Die Lieferanteninformationen konnten nicht geladen werden.')}
      </Alert>
    );
  }
  const data = info.data;
  return (
    <Stack gap="md">
      <FieldList fields={infoFields(data)} labelWidth={170} />
      {data.showSupplierNote && data.supplierNote && (
        <Alert variant="light" color="brand" title="Hinweis des Lieferanten">
          {data.supplierNote}
        </Alert>
      )}
      {data.requiredOnboardingForm && (
        <Stack gap="xs">
          <Text size="sm">Dieser Lieferant benötigt vor der Freigabe ein ausgefülltes Neukundenformular.</Text>
          {data.hasOnboardingFormTemplate && <OnboardingFormButton bpNumber={data.businessPartnerNo} />}
        </Stack>
      )}
    </Stack>
  );
}

interface SupplierInfoDialogProps {
  supplier: { bpNumber: string; name: string } | null;
  onClose: () => void;
}

/** 'Lieferanteninformationen' of one supplier (from the table of 'Meine Lieferanten'). */
export function SupplierInfoDialog({ supplier, onClose }: SupplierInfoDialogProps) {
  return (
    <Modal
      opened={supplier !== null}
      onClose={onClose}
      title={supplier ? `Lieferanteninformationen – ${supplier.name}` : ''}
      size="lg"
      centered
    >
      {supplier && <SupplierInfoContent bpNumber={supplier.bpNumber} />}
    </Modal>
  );
}
