import type { ReactNode } from 'react';
import { Anchor, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import type { AnalyticsItem } from '../../lib/analytics';
import { PriceText, type PriceInfo } from '../catalogue/price';
import { FavouriteButton } from './FavouriteButton';
import { ProductImage } from './ProductImage';
import classes from './ProductCard.module.css';
import { SupplierLogo } from '../SupplierLogo';

/** What a product card shows; search hits, favourites and recently viewed products map onto it. */
export interface ProductCardData {
  productId: string;
  productInstanceId: string;
  name: string;
  brand: string;
  imageUrl: string | null;
  /** 'Werksartikelnummer' (manufacturer article number). */
  manufacturerPid: string | null;
  /** 'Lieferanten Artikelnummer' of the offer shown. */
  supplierPid?: string | null;
  supplierName?: string | null;
  /** Shows the supplier's logo next to its name. */
  supplierBpNumber?: string | null;
  /** 'Preis (netto)'; undefined hides the line (e.g. for non-buyers without prices). */
  price?: PriceInfo | null;
  isFavorite?: boolean;
  /** Where the card leads (the product page). */
  href: string;
}

interface ProductCardProps {
  product: ProductCardData;
  orientation?: 'horizontal' | 'vertical';
  /** Clicking the brand calls this (search: adds a brand filter); without it the brand is plain text. */
  onBrandClick?: (brand: string) => void;
  /** Favourite star for buyers (default on). */
  withFavourite?: boolean;
  confirmFavouriteRemoval?: boolean;
  onFavouriteRemoved?: () => void;
  /** Shown below the data, e.g. the add-to-cart block. */
  actions?: ReactNode;
  /** Shown above the name, e.g. 'Nicht mehr verfügbar'. */
  badge?: ReactNode;
  /** Units for price texts (code → short description). */
  units?: Map<string, string>;
  /** The first card of a list: its picture is loaded first and not lazily (the page's largest paint). */
  priority?: boolean;
  /** Marks the card (e.g. unavailable favourites). */
  muted?: boolean;
  'data-testid'?: string;
}

export const analyticsItemOf = (product: ProductCardData, index?: number): AnalyticsItem => ({
  item_id: product.productInstanceId,
  item_name: product.name,
  item_brand: product.brand,
  price: product.price?.value ?? undefined,
  index,
});

/** The shared product card (spec: horizontal and vertical) with the spec's labels. */
export function ProductCard({
  product,
  orientation = 'horizontal',
  onBrandClick,
  withFavourite = true,
  confirmFavouriteRemoval,
  onFavouriteRemoved,
  actions,
  badge,
  units,
  priority = false,
  muted = false,
  'data-testid': testId = 'product-card',
}: ProductCardProps) {
  const vertical = orientation === 'vertical';
  const brand = onBrandClick ? (
    <UnstyledButton
      className={classes.brand}
      onClick={() => onBrandClick(product.brand)}
      title={`Nach Marke ${product.brand} filtern`}
      data-testid="card-brand"
    >
      {product.brand}
    </UnstyledButton>
  ) : (
    <Text size="sm" fw={600} c="dimmed" data-testid="card-brand">
      {product.brand}
    </Text>
  );

  const fields = (
    <dl className={classes.fields}>
      <div>
        <dt>Werksartikelnummer</dt>
        <dd>{product.manufacturerPid || '–'}</dd>
      </div>
      {product.supplierPid !== undefined && (
        <div>
          <dt>Lieferanten Artikelnummer</dt>
          <dd>
            {product.supplierPid || '–'}
            {product.supplierName && <span className={classes.supplier}> ({product.supplierName})</span>}
            {product.supplierBpNumber && (
              <>
                {' '}
                <SupplierLogo bpNumber={product.supplierBpNumber} name={product.supplierName ?? ''} height={18} />
              </>
            )}
          </dd>
        </div>
      )}
      {product.price !== undefined && (
        <div>
          <dt>Preis (netto)</dt>
          <dd className={classes.price} data-testid="card-price">
            <PriceText price={product.price} units={units} />
          </dd>
        </div>
      )}
    </dl>
  );

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      className={classes.card}
      data-orientation={orientation}
      data-muted={muted || undefined}
      data-testid={testId}
    >
      <div className={classes.layout}>
        <Link to={product.href} className={classes.imageLink} tabIndex={-1} aria-hidden>
          <ProductImage src={product.imageUrl} alt={product.name} size={vertical ? '100%' : 128} priority={priority} />
        </Link>
        <Stack gap={6} className={classes.body}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Stack gap={2} style={{ minWidth: 0 }}>
              {badge}
              {brand}
              <Anchor component={Link} to={product.href} className={classes.name} data-testid="card-name">
                {product.name}
              </Anchor>
            </Stack>
            {withFavourite && product.isFavorite !== undefined && (
              <FavouriteButton
                productInstanceId={product.productInstanceId}
                isFavorite={product.isFavorite}
                item={analyticsItemOf(product)}
                confirmRemove={confirmFavouriteRemoval}
                onRemoved={onFavouriteRemoved}
                size="md"
              />
            )}
          </Group>
          {fields}
          {actions && <div className={classes.actions}>{actions}</div>}
        </Stack>
      </div>
    </Card>
  );
}
