import { Alert, Anchor, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { Role, supportContact } from '@shk/contracts';
import { useUserProfile } from '../../api/session';
import type { UserProfile } from '../../api/types';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { Page } from '../../ui/Page';
import { SearchBar } from '../../ui/SearchBar';
import { searchUrl, sellerCatalogueUrl } from '../../ui/search-url';

interface Shortcut { to: string; title: string; text: string }

const buyerShortcuts: Shortcut[] = [
  { to: '/my-carts', title: 'Meine Warenkörbe', text: 'Warenkörbe anlegen, füllen und bestellen.' },
  { to: '/bestellungen', title: 'Meine Bestellungen', text: 'Bestellungen und ihren Status verfolgen.' },
  { to: '/meine-lieferanten', title: 'Meine Lieferanten', text: 'Geschäftsbeziehungen zu Lieferanten verwalten.' },
];

const sellerShortcuts: Shortcut[] = [
  { to: sellerCatalogueUrl(), title: 'Meine Produkte', text: 'Ihr Sortiment im Produktkatalog ansehen.' },
  { to: '/meine-kunden', title: 'Meine Kunden', text: 'Kundenbeziehungen bestätigen und pflegen.' },
  { to: '/lieferantenbestellungen', title: 'Bestellungen', text: 'Eingegangene Bestellungen bearbeiten.' },
];

function Shortcuts({ items }: { items: Shortcut[] }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {items.map((item) => (
        <Card key={item.to} withBorder radius="md" component={Link} to={item.to}>
          <Text fw={600} c="brand">{item.title}</Text>
          <Text size="sm" c="dimmed">{item.text}</Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** Users without a role see why the portal is empty for them and whom to ask. */
function NoRoleNotice() {
  return (
    <Alert color="yellow" variant="light" title="Noch keine Berechtigung">
      Ihrem Benutzerkonto ist noch keine Rolle zugewiesen. Bitte wenden Sie sich an den Support:{' '}
      <Anchor href={`mailto:${supportContact.email}`}>{supportContact.email}</Anchor>.
    </Alert>
  );
}

function greeting(profile: UserProfile) {
  const name = `${profile.firstName} ${profile.lastName}`.trim();
  return name ? `Guten Tag, ${name}` : 'Guten Tag';
}

/** / – search stage and shortcuts; the catalogue issue adds the category tree and the slideshow. */
export default function HomePage() {
  const profile = useUserProfile();
  const navigate = useNavigate();
  if (!profile.data) return <FullPageLoader />;
  const { role } = profile.data;

  return (
    <Page title="Startseite">
      <Stack gap="xl">
        <Title order={2}>{greeting(profile.data)}</Title>
        {role === Role.None ? (
          <NoRoleNotice />
        ) : (
          <>
            {role !== Role.Seller && (
              <SearchBar size="lg" onSearch={(term) => navigate(searchUrl({ term, page: 1 }))} />
            )}
            {role === Role.Buyer && <Shortcuts items={buyerShortcuts} />}
            {role === Role.Seller && <Shortcuts items={sellerShortcuts} />}
          </>
        )}
      </Stack>
    </Page>
  );
}
