import { Stack, Title } from '@mantine/core';
import { CardCarousel } from '../CardCarousel';
import { productUrl } from '../catalogue/product-url';
import { useRecentlyViewed } from '../recently-viewed';
import { ProductCard } from './ProductCard';

/**
 * 'Zuletzt angesehen' on the home and product pages. Nothing is shown without preference consent (the
 * list is then empty) or when nothing was viewed yet; `exclude` hides the product on its own page.
 */
export function RecentlyViewed({ exclude }: { exclude?: string }) {
  const products = useRecentlyViewed().filter((p) => p.productId !== exclude);
  if (products.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="recently-viewed-title" data-testid="recently-viewed">
      <Title order={2} id="recently-viewed-title">
        Zuletzt angesehen
      </Title>
      <CardCarousel
        label="Zuletzt angesehen"
        items={products.map((p) => (
          <ProductCard
            key={p.productId}
            orientation="vertical"
            withFavourite={false}
            product={{
              productId: p.productId,
              productInstanceId: p.productInstanceId,
              name: p.name,
              brand: p.brand,
              imageUrl: p.imageUrl,
              manufacturerPid: p.manufacturerPid,
              href: productUrl({ productId: p.productId, articleNumber: p.productInstanceId }),
            }}
          />
        ))}
      />
    </Stack>
  );
}
