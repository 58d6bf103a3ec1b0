import { ActionIcon, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { limits } from '@shk/contracts';
import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, ChevronsRightIcon } from '../../../ui/icons';
import { pageWindow } from '../search-state';

interface SearchPaginationProps {
  page: number;
  pageCount: number;
  mobile: boolean;
  hrefOf: (page: number) => string;
}

/**
 * Pagination of the search (at most 100 pages): first, previous, the pages around the current one, next and last; every
 * page is a link, so it can be opened in a new tab.
 */
export function SearchPagination({ page, pageCount, mobile, hrefOf }: SearchPaginationProps) {
  const total = Math.min(pageCount, limits.searchMaxPages);
  if (total <= 1) return null;
  const pages = pageWindow(page, total, mobile ? 3 : 5);
  return (
    <Group component="nav" aria-label="Seiten" gap={6} justify="center" data-testid="pagination">
      <ActionIcon
        component={Link}
        to={hrefOf(1)}
        variant="default"
        size="lg"
        aria-label="Erste Seite"
        disabled={page <= 1}
        data-disabled={page <= 1 || undefined}
        onClick={(event) => page <= 1 && event.preventDefault()}
      >
        <ChevronsLeftIcon size={16} />
      </ActionIcon>
      <ActionIcon
        component={Link}
        to={hrefOf(page - 1)}
        variant="default"
        size="lg"
        aria-label="Vorherige Seite"
        disabled={page <= 1}
        data-disabled={page <= 1 || undefined}
        onClick={(event) => page <= 1 && event.preventDefault()}
      >
        <ChevronLeftIcon size={16} />
      </ActionIcon>
      {pages.map((p) => (
        <Button
          key={p}
          component={Link}
          to={hrefOf(p)}
          size="sm"
          px={10}
          miw={36}
          variant={p === page ? 'filled' : 'default'}
          aria-label={`Seite ${p}`}
          aria-current={p === page ? 'page' : undefined}
        >
          {p}
        </Button>
      ))}
      <ActionIcon
        component={Link}
        to={hrefOf(page + 1)}
        variant="default"
        size="lg"
        aria-label="Nächste Seite"
        disabled={page >= total}
        data-disabled={page >= total || undefined}
        onClick={(event) => page >= total && event.preventDefault()}
      >
        <ChevronRightIcon size={16} />
      </ActionIcon>
      <ActionIcon
        component={Link}
        to={hrefOf(total)}
        variant="default"
        size="lg"
        aria-label={`Letzte Seite (${total})`}
        disabled={page >= total}
        data-disabled={page >= total || undefined}
        onClick={(event) => page >= total && event.preventDefault()}
      >
        <ChevronsRightIcon size={16} />
      </ActionIcon>
    </Group>
  );
}
