import { memo } from 'react';
import { SimpleGrid, Stack } from '@mantine/core';
import type { SearchHit } from '../../../api/catalogue';
import { AddToCartButton } from '../../../ui/cart/AddToCartButton';
import { isOrderable, orderabilityHint } from '../../../ui/catalogue/orderability';
import { productUrl } from '../../../ui/catalogue/product-url';
import { analyticsItemOf, ProductCard, type ProductCardData } from '../../../ui/product/ProductCard';
import { useProgressiveCount } from '../../../ui/use-progressive-count';

export type ResultView = 'list' | 'grid';

/**
 * Cards rendered with the answer: a first screen in either view (a phone shows two or three, a desktop's list five,
 * its grid two rows of three); the rest follow in slices of as many while the browser is idle.
 */
const FIRST_CARDS = 6;

const cardDataOfHit = (hit: SearchHit, term: string): ProductCardData => ({
  productId: hit.productId,
  productInstanceId: hit.rows.PRODUCTINSTANCE_ID,
  name: hit.rows.artikelbeschreibung,
  brand: hit.rows.brandname,
  imageUrl: hit.rows.bild,
  manufacturerPid: hit.rows.manufacturerPID,
  supplierPid: hit.rows.artikelnummer,
  supplierName: hit.rows.supplierName,
  supplierBpNumber: hit.rows.supplierID,
  // A competitor's offer seen by a seller: no price line at all (the API gives none).
  price: hit.conditionsHidden ? undefined : hit.price,
  isFavorite: hit.isFavorite,
  href: productUrl({ productId: hit.productId, articleNumber: hit.rows.PRODUCTINSTANCE_ID, searchTerm: term || null }),
});

interface ResultListProps {
  hits: SearchHit[];
  term: string;
  view: ResultView;
  /** Index of the first hit (for analytics positions). */
  offset: number;
  onBrandClick: (brand: string) => void;
  units: Map<string, string>;
}

/**
 * The result cards: horizontal in the list view, vertical in the grid view. Memoised: the page re-renders when any
 * of its queries answers (units, tree, carts); the 25 cards only when their own props change. A new answer renders
 * its first screen of cards at once and the rest when the browser is idle (`useProgressiveCount`).
 */
export const ResultList = memo(function ResultList({ hits, term, view, offset, onBrandClick, units }: ResultListProps) {
  const shown = useProgressiveCount(hits.length, hits, FIRST_CARDS);
  const cards = hits.slice(0, shown).map((hit, index) => {
    const product = cardDataOfHit(hit, term);
    return (
      <ProductCard
        key={`${hit.productId}|${hit.rows.PRODUCTINSTANCE_ID}`}
        product={product}
        orientation={view === 'grid' ? 'vertical' : 'horizontal'}
        priority={index < 2}
        onBrandClick={onBrandClick}
        units={units}
        actions={
          <AddToCartButton
            productInstanceId={product.productInstanceId}
            minQuantity={hit.minOrderQuantity}
            orderable={isOrderable(hit)}
            hint={orderabilityHint(hit)}
            item={{ ...analyticsItemOf(product, offset + index), affiliation: hit.rows.supplierID }}
            stacked={view === 'grid'}
          />
        }
      />
    );
  });
  // Busy while the remaining cards are still to come (assistive technology and tests wait for the whole page).
  const busy = shown < hits.length || undefined;
  return view === 'grid' ? (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" data-testid="search-results" aria-busy={busy}>
      {cards}
    </SimpleGrid>
  ) : (
    <Stack gap="sm" data-testid="search-results" aria-busy={busy}>
      {cards}
    </Stack>
  );
});
