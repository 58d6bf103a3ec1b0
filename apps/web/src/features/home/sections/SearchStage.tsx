import { Paper, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { SearchBar } from '../../../ui/SearchBar';
import { searchUrl } from '../../../ui/search-url';
import classes from './SearchStage.module.css';

/** The search stage: an empty term is ignored; a search opens /suche with page=1 (spec). */
export function SearchStage() {
  const navigate = useNavigate();
  return (
    <Paper
      radius="md"
      p={{ base: 'md', sm: 'xl' }}
      className={classes.stage}
      component="section"
      aria-labelledby="home-search"
    >
      <Stack gap="sm">
        <Title order={2} id="home-search">
          Was suchen Sie?
        </Title>
        <Text size="sm" c="dimmed">
          Produktname, Marke, Werks- oder Lieferantenartikelnummer, GTIN/EAN – auch Teile von Wörtern wie „ventil“.
        </Text>
        <SearchBar size="lg" withSuggestions onSearch={(term) => navigate(searchUrl({ term, page: 1 }))} />
      </Stack>
    </Paper>
  );
}
