import { Anchor, Badge, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { messages, treeFilter } from '@shk/contracts';
import { CategoryList } from '../../../ui/catalogue/CategoryList';
import { useProductTree } from '../../../api/catalogue-queries';
import { nodeName } from '../../../ui/catalogue/product-tree';
import { searchUrl } from '../../../ui/search-url';
import { formatCount } from '../../../ui/format';

const categoryUrl = (elementId: string) => searchUrl({ page: 1, filters: [treeFilter(elementId)] });

/** 'Produktkategorien': the top categories with counts, each with 5 children and 'alle anzeigen'. */
export function CategoryTreeSection() {
  const tree = useProductTree();
  const top = tree.data?.children ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="home-categories" data-testid="home-categories">
      <Title order={2} id="home-categories">
        Produktkategorien
      </Title>
      {tree.isPending ? (
        <Loader size="sm" />
      ) : top.length === 0 ? (
        <Text c="dimmed" size="sm">
          {messages.noCategories}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
          {top.map((category) => (
            <Card key={category.elementID} withBorder radius="md" padding="md">
              <Stack gap="xs">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Anchor component={Link} to={categoryUrl(category.elementID)} fw={700} c="brand" underline="hover">
                    {nodeName(category)}
                  </Anchor>
                  <Badge variant="light" color="brand">
                    {formatCount(category.productCount)}
                  </Badge>
                </Group>
                {category.children.length > 0 && (
                  <CategoryList
                    entries={category.children.map((child) => ({
                      id: child.elementID,
                      name: nodeName(child),
                      count: child.productCount,
                    }))}
                    hrefOf={categoryUrl}
                  />
                )}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
