import { useDeferredValue, useEffect, useMemo } from 'react';
import { Anchor, Breadcrumbs, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { FeatureSettingKey, Role, SearchColumn, selectionFilter, treeFilter } from '@shk/contracts';
import { useConfigurationValue } from '../../api/configuration';
import { hasStatus } from '../../api/problem';
import { useUserProfile } from '../../api/session';
import { trackEcommerce } from '../../lib/analytics';
import { AddToCartButton } from '../../ui/cart/AddToCartButton';
import { isOrderable, orderabilityHint } from '../../ui/catalogue/orderability';
import { isProductInstanceId, parseProductId, productUrl } from '../../ui/catalogue/product-url';
import { useUnits } from '../../api/catalogue-queries';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { usePageTitle } from '../../ui/page-title';
import { FavouriteButton } from '../../ui/product/FavouriteButton';
import { RecentlyViewed } from '../../ui/product/RecentlyViewed';
import { recentlyViewed } from '../../ui/recently-viewed';
import { searchUrl } from '../../ui/search-url';
import { Gallery } from './components/Gallery';
import { IntroductoryVideoModal } from './components/IntroductoryVideoModal';
import { OfferFields, OfferHints, OfferSelector } from './components/OfferSelector';
import { ProductNotFound } from './components/ProductNotFound';
import { ProductSections } from './components/ProductSections';
import { useArticleNumberLookup, useOffers, useProduct } from './use-product';

/** Breadcrumb links are at least 24 px high (WCAG 2.5.8 target size); the small text alone is 20 px. */
const BREADCRUMB_TARGET = { display: 'inline-flex', alignItems: 'center', minHeight: 24 } as const;

/**
 * /produkt?id=<manufacturerId~manufacturerPid>&articleNumber=<offer or article number>&searchTerm=…
 * Without id the article number is looked up (procurement systems open products that way).
 */
export default function ProductPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const articleNumber = params.get('articleNumber')?.trim() || null;
  const searchTerm = params.get('searchTerm');

  if (!id && articleNumber) return <ArticleNumberLookup articleNumber={articleNumber} searchTerm={searchTerm} />;
  const parsed = parseProductId(id);
  if (!parsed) return <ProductNotFound articleNumber={articleNumber} />;
  return (
    <ProductView
      manufacturerId={parsed.manufacturerId}
      manufacturerPid={parsed.manufacturerPid}
      productInstanceId={isProductInstanceId(articleNumber) ? articleNumber : null}
      searchTerm={searchTerm}
    />
  );
}

function ArticleNumberLookup({ articleNumber, searchTerm }: { articleNumber: string; searchTerm: string | null }) {
  const lookup = useArticleNumberLookup(articleNumber);
  if (lookup.isPending && lookup.fetchStatus !== 'idle') return <FullPageLoader />;
  const hit = lookup.data?.hits[0];
  if (!hit) return <ProductNotFound articleNumber={articleNumber} />;
  return (
    <Navigate
      replace
      to={productUrl({ productId: hit.productId, articleNumber: hit.rows.PRODUCTINSTANCE_ID, searchTerm })}
    />
  );
}

interface ProductViewProps {
  manufacturerId: string;
  manufacturerPid: string;
  productInstanceId: string | null;
  searchTerm: string | null;
}

function ProductView({ manufacturerId, manufacturerPid, productInstanceId, searchTerm }: ProductViewProps) {
  const navigate = useNavigate();
  const profile = useUserProfile().data;
  const isBuyer = profile?.role === Role.Buyer;
  const units = useUnits();
  const product = useProduct(manufacturerId, manufacturerPid, productInstanceId);
  // The product is rendered in a deferred (time-sliced) pass instead of in the synchronous update React Query
  // triggers (one long task that blocks input); data and its placeholder state change together in that pass.
  const data = useDeferredValue(product.data);
  const isPlaceholderData = useDeferredValue(product.isPlaceholderData);
  const offers = useOffers(product.data?.productInstanceId ?? null);
  const noteOfUseSuppliers = useConfigurationValue(FeatureSettingKey.NoteOfUseAllowedSuppliers).data?.value ?? '';
  usePageTitle(product.data?.productName ?? 'Produkt');

  const offerList = useMemo(() => offers.data?.offers ?? [], [offers.data]);
  const selected = offerList.find((o) => o.productInstanceId === data?.productInstanceId) ?? null;

  // view_item and 'Zuletzt angesehen' once per shown offer.
  useEffect(() => {
    if (!data || isPlaceholderData) return;
    trackEcommerce('view_item', {
      value: data.pricesPackage?.netPrice.value ?? undefined,
      items: [
        {
          item_id: data.productInstanceId,
          item_name: data.productName,
          item_brand: data.brandName,
          item_category: data.categoryPath[0]?.name,
          affiliation: data.supplierBpNo,
          price: data.pricesPackage?.netPrice.value ?? undefined,
        },
      ],
    });
    recentlyViewed.add({
      productId: data.productId,
      productInstanceId: data.productInstanceId,
      name: data.productName,
      brand: data.brandName,
      imageUrl: data.picturesPackage[0]?.url ?? null,
      manufacturerPid: data.manufacturerPid,
      category: data.categoryPath[0]?.elementID ?? data.treeElementId,
    });
  }, [data, isPlaceholderData]);

  if (product.isPending || (!data && product.data)) return <FullPageLoader />;
  if (product.isError || !data) {
    return (
      <ProductNotFound
        articleNumber={hasStatus(product.error, 404) || hasStatus(product.error, 400) ? manufacturerPid : null}
      />
    );
  }

  const selectOffer = (instanceId: string) =>
    navigate(productUrl({ productId: data.productId, articleNumber: instanceId, searchTerm }), { replace: true });
  const showNoteOfUse =
    selected?.noteOfUse &&
    noteOfUseSuppliers
      .split(',')
      .map((s) => s.trim())
      .includes(selected.supplierId);
  const analyticsItem = {
    item_id: data.productInstanceId,
    item_name: data.productName,
    item_brand: data.brandName,
    item_category: data.categoryPath[0]?.name,
    affiliation: data.supplierBpNo,
    price: data.pricesPackage?.netPrice.value ?? undefined,
  };
  const brandUrl = searchUrl({
    page: 1,
    filters: [selectionFilter(SearchColumn.brand, [data.brandName])],
  });

  return (
    <Stack gap="lg" data-testid="product-page">
      <IntroductoryVideoModal manufacturerId={data.manufacturerId} enabled={isBuyer} />
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Breadcrumbs
          separator="›"
          separatorMargin={6}
          fz="sm"
          aria-label="Kategorie"
          // Breadcrumbs sets each item's style itself (an item's own style prop is replaced).
          styles={{ breadcrumb: BREADCRUMB_TARGET }}
        >
          <Anchor component={Link} to={searchUrl({ page: 1 })} size="sm">
            Suche
          </Anchor>
          {data.categoryPath.map((node) => (
            <Anchor
              key={node.elementID}
              component={Link}
              size="sm"
              to={searchUrl({
                page: 1,
                filters: [treeFilter(node.elementID)],
              })}
            >
              {node.name}
            </Anchor>
          ))}
        </Breadcrumbs>
        {searchTerm && (
          <Anchor component={Link} to={searchUrl({ term: searchTerm, page: 1 })} size="sm" style={BREADCRUMB_TARGET}>
            ‹ Zurück zu den Suchergebnissen für „{searchTerm}“
          </Anchor>
        )}
      </Group>

      <Grid gap="xl">
        <Grid.Col span={{ base: 12, sm: 5 }}>
          <Gallery key={data.productId} pictures={data.picturesPackage} name={data.productName} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 7 }}>
          <Stack gap="md">
            <Stack gap={4}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Anchor component={Link} to={brandUrl} fw={600} size="sm" data-testid="product-brand">
                    {data.brandName}
                  </Anchor>
                  <Title order={1} data-testid="product-name" style={{ overflowWrap: 'anywhere' }}>
                    {data.productName}
                  </Title>
                </Stack>
                <FavouriteButton
                  productInstanceId={data.productInstanceId}
                  isFavorite={data.isFavorite}
                  item={analyticsItem}
                />
              </Group>
              <Text size="sm" c="dimmed">
                Werksartikelnummer {data.manufacturerPid}
                {data.gtin && ` · GTIN ${data.gtin}`}
                {data.basicPackage.serie && ` · Serie ${data.basicPackage.serie}`}
              </Text>
            </Stack>

            <Paper withBorder radius="md" p="md">
              <Stack gap="md">
                {offers.isPending ? (
                  <Text size="sm" c="dimmed">
                    Angebote werden geladen …
                  </Text>
                ) : offerList.length > 0 ? (
                  <OfferSelector
                    offers={offerList}
                    selectedId={data.productInstanceId}
                    onSelect={selectOffer}
                    units={units}
                  />
                ) : (
                  <Text size="sm" c="dimmed">
                    Keine Angebote verfügbar.
                  </Text>
                )}
                {selected && (
                  <>
                    <OfferFields offer={selected} units={units} />
                    {showNoteOfUse && (
                      <Text size="sm">
                        <Text span fw={600}>
                          Verwendungshinweis:{' '}
                        </Text>
                        {selected.noteOfUse}
                      </Text>
                    )}
                    {isBuyer && <OfferHints offer={selected} />}
                    <AddToCartButton
                      productInstanceId={selected.productInstanceId}
                      minQuantity={selected.minOrderQuantity}
                      orderable={isOrderable(selected)}
                      hint={null}
                      item={analyticsItem}
                      size="md"
                    />
                  </>
                )}
                {!selected && isBuyer && !offers.isPending && orderabilityHint(data) && (
                  <Text size="sm" c="orange.8">
                    {orderabilityHint(data)}
                  </Text>
                )}
              </Stack>
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>

      <ProductSections product={data} offers={offerList} units={units} showOnboardingForms={isBuyer} />

      <RecentlyViewed exclude={data.productId} />
    </Stack>
  );
}
