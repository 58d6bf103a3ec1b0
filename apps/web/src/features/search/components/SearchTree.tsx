import { Anchor, Loader, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { messages, treeNodeSellerCatalogue } from '@shk/contracts';
import type { ProductTreeNode, SearchResponse } from '../../../api/catalogue';
import { CategoryList, type CategoryEntry } from '../../../ui/catalogue/CategoryList';
import { nodeName, pathTo } from '../../../ui/catalogue/product-tree';
import classes from './SearchTree.module.css';
import { formatCount } from '../../../ui/format';

interface SearchTreeProps {
  tree: ProductTreeNode | undefined;
  loading: boolean;
  selectedId: string | null;
  response: SearchResponse | undefined;
  hrefOf: (elementId: string | null) => string;
  /** Sellers see their catalogue node (SHKMARKET_11); for everybody else it means nothing. */
  showSellerCatalogue: boolean;
}

/** Counts of the tree facet of the current result (value → count), if the API sent one. */
function facetCounts(response: SearchResponse | undefined): Map<string, number> | null {
  const facet = response?.filterOption.find((o) => o.filterType === 'Baum');
  return facet ? new Map(facet.filterValue.map((v) => [v.value, v.count])) : null;
}

/** The product tree on /suche: path to the open category and its children with counts (5, then 'alle anzeigen'). */
export function SearchTree({ tree, loading, selectedId, response, hrefOf, showSellerCatalogue }: SearchTreeProps) {
  if (loading && !tree) return <Loader size="sm" />;
  const path = selectedId ? pathTo(tree, selectedId) : [];
  const current = path[path.length - 1] ?? tree;
  const counts = facetCounts(response);
  const entries: CategoryEntry[] = (current?.children ?? [])
    .filter((child) => showSellerCatalogue || child.elementID !== treeNodeSellerCatalogue)
    .map((child) => ({
      id: child.elementID,
      name: nodeName(child),
      count: counts ? (counts.get(child.elementID) ?? 0) : child.productCount,
    }))
    .filter((entry) => !counts || (entry.count ?? 0) > 0 || entry.id === selectedId);

  return (
    <Stack gap={4} component="nav" aria-label="Kategorien" data-testid="search-tree">
      {path.length > 0 && (
        <Stack gap={2} className={classes.path}>
          <Anchor component={Link} to={hrefOf(null)} size="sm">
            Alle Kategorien
          </Anchor>
          {path.map((node, index) =>
            index === path.length - 1 ? (
              <Text key={node.elementID} size="sm" fw={700} pl={(index + 1) * 8} aria-current="true">
                {nodeName(node)}
                {counts?.has(node.elementID) && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    ({formatCount(counts.get(node.elementID)!)})
                  </Text>
                )}
              </Text>
            ) : (
              <Anchor key={node.elementID} component={Link} to={hrefOf(node.elementID)} size="sm" pl={(index + 1) * 8}>
                {nodeName(node)}
              </Anchor>
            ),
          )}
        </Stack>
      )}
      {entries.length > 0 ? (
        <CategoryList
          key={current?.elementID}
          entries={entries}
          hrefOf={hrefOf}
          selectedId={selectedId}
          level={path.length > 0 ? 1 : 0}
        />
      ) : (
        path.length === 0 && (
          <Text size="sm" c="dimmed">
            {messages.noCategories}
          </Text>
        )
      )}
    </Stack>
  );
}
