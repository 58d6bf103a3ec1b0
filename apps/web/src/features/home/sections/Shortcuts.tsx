import { Card, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import { sellerCatalogueUrl } from '../../../ui/search-url';

interface Shortcut {
  to: string;
  title: string;
  text: string;
}

export const buyerShortcuts: Shortcut[] = [
  { to: '/my-carts', title: 'Meine Warenkörbe', text: 'Warenkörbe anlegen, füllen und bestellen.' },
  { to: '/bestellungen', title: 'Meine Bestellungen', text: 'Bestellungen und ihren Status verfolgen.' },
  { to: '/meine-lieferanten', title: 'Meine Lieferanten', text: 'Geschäftsbeziehungen zu Lieferanten verwalten.' },
];

export const sellerShortcuts: Shortcut[] = [
  { to: sellerCatalogueUrl(), title: 'Meine Produkte', text: 'Ihr Sortiment im Produktkatalog ansehen.' },
  { to: '/meine-kunden', title: 'Meine Kunden', text: 'Kundenbeziehungen bestätigen und pflegen.' },
  { to: '/lieferantenbestellungen', title: 'Bestellungen', text: 'Eingegangene Bestellungen bearbeiten.' },
];

export function Shortcuts({ items }: { items: Shortcut[] }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {items.map((item) => (
        <Card key={item.to} withBorder radius="md" component={Link} to={item.to}>
          <Text fw={600} c="brand">
            {item.title}
          </Text>
          <Text size="sm" c="dimmed">
            {item.text}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
