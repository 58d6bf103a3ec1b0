import { Alert, Anchor, Button, Card, Group, SimpleGrid, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Role, roleLabels } from '@shk/contracts';
import { useUserProfile } from '../../api/session';
import type { BusinessPartner, UserProfile } from '../../api/types';
import { FieldList, type Field } from '../../ui/FieldList';
import { formatCountry } from '../../ui/format';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { Page } from '../../ui/Page';
import { ChangePasswordCard } from './ChangePasswordCard';
import { DataChangeRequestDialog } from './DataChangeRequestDialog';
import { IdsCredentialsCard } from './IdsCredentialsCard';
import { MailSettingsCard } from './MailSettingsCard';
import { PunchoutCredentialsCard } from './PunchoutCredentialsCard';
import { SupplierPanels } from './SupplierPanels';
import { useCurrentBusinessPartner } from './use-current-business-partner';

const userFields = (profile: UserProfile): Field[] => [
  { label: 'Vorname', value: profile.firstName },
  { label: 'Nachname', value: profile.lastName },
  { label: 'Geschäftspartnernummer', value: profile.currentBpNumber },
  { label: 'Rolle', value: roleLabels[profile.role] },
  { label: 'E-Mail', value: profile.email },
];

const link = (href: string | null, text: string | null) =>
  href && text ? (
    <Anchor href={href} inherit>
      {text}
    </Anchor>
  ) : null;

const companyFields = (partner: BusinessPartner): Field[] => [
  { label: 'Name', value: partner.name },
  { label: 'Offizieller Firmenname', value: partner.officialCompanyName },
  { label: 'Straße', value: partner.street },
  { label: 'Hausnummer', value: partner.houseNumber },
  { label: 'Postleitzahl', value: partner.postalCode },
  { label: 'Ort', value: partner.city },
  { label: 'Land', value: formatCountry(partner.country) },
  { label: 'Telefon', value: partner.contact.phoneNumber },
  { label: 'Fax', value: partner.faxNumber },
  { label: 'E-Mail', value: link(partner.contact.eMail && `mailto:${partner.contact.eMail}`, partner.contact.eMail) },
  { label: 'Website', value: link(partner.website, partner.website) },
  { label: 'Steuernummer', value: partner.taxNumber },
];

/** /profil – 'Mein Profil': the user, the current business partner's company data and the change request. */
export default function ProfilePage() {
  const profile = useUserProfile();
  const hasPartner = Boolean(profile.data?.currentBpNumber);
  const company = useCurrentBusinessPartner(hasPartner);
  const [dialogOpened, dialog] = useDisclosure(false);

  if (!profile.data) return <FullPageLoader />;

  return (
    <Page title="Mein Profil">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-user">
          <Title order={2} id="profile-user" mb="md">
            Benutzerdaten
          </Title>
          <FieldList fields={userFields(profile.data)} />
        </Card>
        {hasPartner && (
          <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-company">
            <Group justify="space-between" mb="md">
              <Title order={2} id="profile-company">
                Firmendaten
              </Title>
              <Button variant="light" onClick={dialog.open}>
                Änderung beantragen
              </Button>
            </Group>
            {company.isPending && <FullPageLoader />}
            {company.isError && (
              <Alert color="red" variant="light">
                Die Firmendaten konnten nicht geladen werden.
              </Alert>
            )}
            {company.data && <FieldList fields={companyFields(company.data)} />}
          </Card>
        )}
      </SimpleGrid>
      <MailSettingsCard email={profile.data.email} />
      {/* Not in an IDS session: it may not change credentials (the API refuses it, too). */}
      {!profile.data.idsContextId && <ChangePasswordCard email={profile.data.email} />}
      {profile.data.role === Role.Buyer && profile.data.currentBpNumber && (
        <>
          <IdsCredentialsCard bpNumber={profile.data.currentBpNumber} />
          <PunchoutCredentialsCard bpNumber={profile.data.currentBpNumber} />
        </>
      )}
      {profile.data.role === Role.Seller && profile.data.currentBpNumber && (
        <SupplierPanels bp={profile.data.currentBpNumber} />
      )}
      <DataChangeRequestDialog opened={dialogOpened} onClose={dialog.close} defaultEmail={profile.data.email} />
    </Page>
  );
}
