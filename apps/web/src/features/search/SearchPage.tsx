import { Badge, Group, Paper, Text } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { Page } from '../../ui/Page';
import { SearchBar } from '../../ui/SearchBar';
import { decodeFilters, searchUrl } from '../../ui/search-url';

/**
 * /suche – the search bar and the active filters from the URL. Results, tree and filter panel come with
 * the catalogue issue.
 */
export default function SearchPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const term = params.get('term') ?? '';
  const filters = decodeFilters(params.get('filters'));

  return (
    <Page title="Suche">
      <SearchBar
        key={term}
        initialTerm={term}
        size="lg"
        onSearch={(next) => navigate(searchUrl({ term: next, page: 1, filters }))}
      />
      {filters.length > 0 && (
        <Group gap="xs" data-testid="active-filters">
          <Text size="sm" c="dimmed">Aktive Filter:</Text>
          {filters.flatMap((filter) =>
            (filter.filterValues ?? []).map((value) => (
              <Badge key={`${filter.columnName}:${value}`} variant="light">{value}</Badge>
            )),
          )}
        </Group>
      )}
      <Paper withBorder p="xl" radius="md">
        <Text c="dimmed">
          {term ? `Suchergebnisse für „${term}“ werden in Kürze angezeigt.` : 'Geben Sie einen Suchbegriff ein, um Produkte zu finden.'}
        </Text>
      </Paper>
    </Page>
  );
}
