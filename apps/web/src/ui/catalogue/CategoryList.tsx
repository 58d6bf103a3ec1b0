import { useState } from 'react';
import { Anchor, Badge, Group, Stack, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import classes from './CategoryList.module.css';
import { formatCount } from '../format';

export interface CategoryEntry {
  id: string;
  name: string;
  count?: number | null;
}

/** Spec: the category tree shows 5 children, the rest behind 'alle anzeigen'. */
const CATEGORY_CHILDREN_SHOWN = 5;

interface CategoryListProps {
  entries: CategoryEntry[];
  hrefOf: (id: string) => string;
  selectedId?: string | null;
  /** Indent (nesting level) for the search tree. */
  level?: number;
}

/** A list of categories with product counts: the first 5, then 'alle anzeigen'. */
export function CategoryList({ entries, hrefOf, selectedId, level = 0 }: CategoryListProps) {
  const [all, setAll] = useState(false);
  const shown = all ? entries : entries.slice(0, CATEGORY_CHILDREN_SHOWN);
  const hidden = entries.length - CATEGORY_CHILDREN_SHOWN;
  return (
    <Stack gap={2} component="ul" className={classes.list} style={{ paddingLeft: level * 12 }}>
      {shown.map((entry) => (
        <li key={entry.id}>
          <Anchor
            component={Link}
            to={hrefOf(entry.id)}
            className={classes.entry}
            data-selected={entry.id === selectedId || undefined}
            aria-current={entry.id === selectedId ? 'true' : undefined}
            underline="never"
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <span className={classes.name}>{entry.name}</span>
              {entry.count !== undefined && entry.count !== null && (
                <Badge variant="light" color="gray" size="sm" className={classes.count}>
                  {formatCount(entry.count)}
                </Badge>
              )}
            </Group>
          </Anchor>
        </li>
      ))}
      {hidden > 0 && (
        <li>
          <UnstyledButton className={classes.toggle} onClick={() => setAll(!all)} aria-expanded={all}>
            {all ? 'weniger anzeigen' : `alle anzeigen (${entries.length})`}
          </UnstyledButton>
        </li>
      )}
    </Stack>
  );
}
