import { Button, List, Paper, Stack, Text, Title } from '@mantine/core';
import { messages } from '@shk/contracts';

/** 'Keine Ergebnisse für {term}' with the spec's tips. */
export function NoResults({
  term,
  hasFilters,
  onResetFilters,
}: {
  term: string;
  hasFilters: boolean;
  onResetFilters: () => void;
}) {
  return (
    <Paper withBorder radius="md" p="xl" data-testid="no-results">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {term ? messages.noResults(term) : 'Keine Ergebnisse'}
        </Title>
        <Text size="sm">So finden Sie, was Sie suchen:</Text>
        <List size="sm" spacing={4}>
          <List.Item>Prüfen Sie die Schreibweise Ihres Suchbegriffs.</List.Item>
          <List.Item>Suchen Sie nach der Produktart, der Marke oder einem Teil des Produktnamens.</List.Item>
          <List.Item>Geben Sie die Artikelnummer oder die GTIN/EAN ein.</List.Item>
          <List.Item>Setzen Sie die Filter zurück.</List.Item>
        </List>
        {hasFilters && (
          <Button variant="light" onClick={onResetFilters} style={{ alignSelf: 'flex-start' }}>
            Alle Filter zurücksetzen
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
