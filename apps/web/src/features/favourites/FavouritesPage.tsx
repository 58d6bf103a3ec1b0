import { Alert, Anchor, Badge, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { messages } from '@shk/contracts';
import { catalogueApi, catalogueKeys, type Favourite } from '../../api/catalogue';
import { problemTitle } from '../../api/problem';
import { usePartnerQuery } from '../../api/session';
import { AddToCartButton } from '../../ui/cart/AddToCartButton';
import { isOrderable, orderabilityHint } from '../../ui/catalogue/orderability';
import { productUrl } from '../../ui/catalogue/product-url';
import { useUnits } from '../../api/catalogue-queries';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { Page } from '../../ui/Page';
import { analyticsItemOf, ProductCard, type ProductCardData } from '../../ui/product/ProductCard';
import { searchUrl } from '../../ui/search-url';

/** A favourite as card: the live product when available, else the snapshot taken when it was marked. */
function cardDataOf(favourite: Favourite): ProductCardData {
  const product = favourite.productDetails;
  if (product) {
    return {
      productId: product.productId,
      productInstanceId: favourite.productInstanceId,
      name: product.productName,
      brand: product.brandName,
      imageUrl: product.picturesPackage[0]?.url ?? favourite.imageUrl,
      manufacturerPid: product.manufacturerPid,
      supplierPid: product.supplierPid,
      supplierName: product.supplier.name,
      price: !product.pricesPackage
        ? undefined
        : product.pricesPackage.hasConnectionError
          ? null
          : {
              value: product.pricesPackage.netPrice.value,
              basis: product.pricesPackage.netPrice.basis,
              quantityUnit: product.pricesPackage.netPrice.quantityUnit,
              priceOnDemand: product.basicPackage.priceOnDemand,
            },
      isFavorite: true,
      href: productUrl({ productId: product.productId, articleNumber: favourite.productInstanceId }),
    };
  }
  return {
    productId: favourite.productInstanceId,
    productInstanceId: favourite.productInstanceId,
    name: favourite.articleShortDescription ?? favourite.articleNumber ?? favourite.productInstanceId,
    brand: favourite.brandName ?? '',
    imageUrl: favourite.imageUrl,
    manufacturerPid: favourite.articleCatalogNumber,
    supplierPid: favourite.articleNumber,
    isFavorite: true,
    href: searchUrl({ term: favourite.gtin ?? favourite.articleNumber ?? undefined, page: 1 }),
  };
}

/** 'Meine Favoriten': the buyer's favourites at the current partner; unavailable ones are marked. */
export default function FavouritesPage() {
  const favourites = usePartnerQuery(catalogueKeys.favourites, catalogueApi.favourites);
  const units = useUnits();

  return (
    <Page title="Meine Favoriten">
      {favourites.isPending ? (
        <FullPageLoader />
      ) : favourites.isError ? (
        <Alert color="red" variant="light">
          {problemTitle(favourites.error, messages.genericRetry)}
        </Alert>
      ) : favourites.data.length === 0 ? (
        <Paper withBorder radius="md" p="xl" data-testid="favourites-empty">
          <Stack gap="xs">
            <Text fw={600}>Sie haben noch keine Favoriten.</Text>
            <Text size="sm" c="dimmed">
              Markieren Sie Produkte in der{' '}
              <Anchor component={Link} to={searchUrl({ page: 1 })} underline="always">
                Suche
              </Anchor>{' '}
              oder auf der Produktseite mit dem Stern, um sie hier wiederzufinden.
            </Text>
          </Stack>
        </Paper>
      ) : (
        <Stack gap="sm" data-testid="favourites">
          <Text size="sm" c="dimmed">
            {favourites.data.length === 1 ? '1 Favorit' : `${favourites.data.length} Favoriten`}
          </Text>
          {favourites.data.map((favourite, index) => {
            const product = cardDataOf(favourite);
            const details = favourite.productDetails;
            return (
              <ProductCard
                key={favourite.productInstanceId}
                product={product}
                units={units}
                confirmFavouriteRemoval
                muted={!details}
                data-testid="favourite-card"
                badge={
                  details ? undefined : (
                    <Badge color="gray" variant="light" size="sm" data-testid="favourite-unavailable">
                      Nicht mehr verfügbar
                    </Badge>
                  )
                }
                actions={
                  details ? (
                    <AddToCartButton
                      productInstanceId={favourite.productInstanceId}
                      minQuantity={details.additionalPackage.minOrderQuantityValue}
                      orderable={isOrderable(details)}
                      hint={orderabilityHint(details)}
                      item={{ ...analyticsItemOf(product, index), affiliation: details.supplierBpNo }}
                    />
                  ) : (
                    <Text size="sm" c="orange.8">
                      {messages.productUnavailable}
                    </Text>
                  )
                }
              />
            );
          })}
        </Stack>
      )}
    </Page>
  );
}
