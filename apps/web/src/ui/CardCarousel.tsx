import { useState, type ReactNode } from 'react';
import { ActionIcon, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';

/** Up to this many cards are shown side by side without paging (spec: paging above 3 cards). */
const PAGING_ABOVE = 3;
/** Cards per page once paging starts (spec: chunks of 4). */
const CHUNK = 4;

interface CardCarouselProps {
  items: ReactNode[];
  /** Accessible name of the carousel, e.g. 'Zuletzt angesehen'. */
  label: string;
}

/** Card carousel (spec 'Shared UI'): more than 3 cards page in chunks of 4 with previous/next buttons. */
export function CardCarousel({ items, label }: CardCarouselProps) {
  const [page, setPage] = useState(0);
  const paged = items.length > PAGING_ABOVE;
  const pageCount = paged ? Math.ceil(items.length / CHUNK) : 1;
  const current = Math.min(page, pageCount - 1);
  const visible = paged ? items.slice(current * CHUNK, current * CHUNK + CHUNK) : items;

  return (
    <Stack gap="xs" role="region" aria-roledescription="Karussell" aria-label={label}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: paged ? CHUNK : PAGING_ABOVE }} spacing="md">
        {visible}
      </SimpleGrid>
      {paged && pageCount > 1 && (
        <Group justify="center" gap="xs">
          <ActionIcon
            variant="default"
            aria-label="Vorherige Seite"
            disabled={current === 0}
            onClick={() => setPage(current - 1)}
          >
            <ChevronLeftIcon size={16} />
          </ActionIcon>
          <Text size="sm" c="dimmed" aria-live="polite">
            {current + 1} / {pageCount}
          </Text>
          <ActionIcon
            variant="default"
            aria-label="Nächste Seite"
            disabled={current >= pageCount - 1}
            onClick={() => setPage(current + 1)}
          >
            <ChevronRightIcon size={16} />
          </ActionIcon>
        </Group>
      )}
    </Stack>
  );
}
