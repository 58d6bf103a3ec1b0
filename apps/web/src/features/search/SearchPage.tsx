import { lazy, Suspense, use, useDeferredValue, useEffect, useMemo, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Group,
  LoadingOverlay,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useCallbackRef, useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useNavigate, useSearchParams } from 'react-router';
import { breakpoints, filterValuesOf, limits, Role, SearchColumn, type SearchFilter } from '@shk/contracts';
import { ApiError, problemTitle } from '../../api/problem';
import { useUserProfile } from '../../api/session';
import { trackEcommerce } from '../../lib/analytics';
import { useProductTree } from '../../api/catalogue-queries';
import type { SearchResponse } from '../../api/catalogue';
import { useUnits } from '../../api/catalogue-queries';
import { FilterIcon, GridIcon, ListIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { SearchBar } from '../../ui/SearchBar';
import { loadFilterParser } from '../../ui/search-url';
import { useOpenedOnce } from '../../ui/use-opened-once';
import { ActiveFilters } from './components/ActiveFilters';
import { FilterPanel } from './components/FilterPanel';
import { KitchenBanner } from './components/KitchenBanner';
import { NoResults } from './components/NoResults';
import { ResultList, type ResultView } from './components/ResultList';
import { SearchPagination } from './components/SearchPagination';
import { SearchTree } from './components/SearchTree';
import {
  readSearchState,
  searchRequestOf,
  searchStateUrl,
  selectedValues,
  setTree,
  removeColumn,
  sortOptions,
  isPriceSort,
  toggleValue,
  type SearchState,
  type SortKey,
} from './search-state';
import { useProductSearch } from './use-search';
import classes from './SearchPage.module.css';
import { formatCount } from '../../ui/format';

/** The feedback form (react-hook-form, zod) is loaded when it is first opened, not with every search page. */
// The small screens' filter drawer (Drawer, its overlay and focus trap) is loaded when it first opens.
const FilterDrawer = lazy(() => import('./components/FilterDrawer').then((m) => ({ default: m.FilterDrawer })));
const FeedbackDialog = lazy(() => import('./components/FeedbackDialog').then((m) => ({ default: m.FeedbackDialog })));

const DESKTOP_QUERY = `(min-width: ${breakpoints.mobilePx}px)`;

/** Analytics: one view_search_results per loaded result. */
function useSearchResultsTracking(data: SearchResponse | undefined, isPlaceholderData: boolean) {
  useEffect(() => {
    if (!data || isPlaceholderData) return;
    trackEcommerce('view_search_results', {
      search_term: data.searchTerm,
      item_list_name: 'Suchergebnisse',
      items: data.hits.map((hit, index) => ({
        item_id: hit.rows.PRODUCTINSTANCE_ID,
        item_name: hit.rows.artikelbeschreibung,
        item_brand: hit.rows.brandname,
        price: hit.price?.value ?? undefined,
        index: (data.page - 1) * data.pageSize + index,
      })),
    });
  }, [data, isPlaceholderData]);
}

/** Categories and filters: beside the results on a desktop, in the drawer on a phone. */
function SearchSidebar({
  tree,
  selectedTreeId,
  data,
  treeHref,
  showSellerCatalogue,
  state,
  units,
  onFiltersChange,
}: {
  tree: ReturnType<typeof useProductTree>;
  selectedTreeId: string | null;
  data: SearchResponse | undefined;
  treeHref: (elementId: string | null) => string;
  showSellerCatalogue: boolean;
  state: SearchState;
  units: ReturnType<typeof useUnits>;
  onFiltersChange: (filters: SearchFilter[]) => void;
}) {
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="sm">
        <Title order={2} size="h4" mb="xs">
          Kategorien
        </Title>
        <SearchTree
          tree={tree.data}
          loading={tree.isLoading}
          selectedId={selectedTreeId}
          response={data}
          hrefOf={treeHref}
          showSellerCatalogue={showSellerCatalogue}
        />
      </Paper>
      <Paper withBorder radius="md" p={0}>
        <Title order={2} size="h4" px="sm" pt="sm" pb={4}>
          Filter
        </Title>
        {data ? (
          <FilterPanel
            key={state.term}
            options={data.filterOption}
            filters={state.filters}
            term={state.term}
            units={units}
            onChange={onFiltersChange}
          />
        ) : (
          <Box p="sm">
            <Text size="sm" c="dimmed">
              Filter werden geladen …
            </Text>
          </Box>
        )}
      </Paper>
    </Stack>
  );
}

/**
 * List or tiles. Two toggle buttons instead of a SegmentedControl: its sliding indicator measures itself with
 * getBoundingClientRect in an effect on mount, a forced layout of the whole new page (~25 ms).
 */
function ViewToggle({ view, onChange }: { view: ResultView; onChange: (view: ResultView) => void }) {
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label="Ansicht" className={classes.keep}>
      <ActionIcon
        variant={view === 'list' ? 'filled' : 'default'}
        size="input-sm"
        aria-label="Liste"
        aria-pressed={view === 'list'}
        onClick={() => onChange('list')}
      >
        <ListIcon size={16} />
      </ActionIcon>
      <ActionIcon
        variant={view === 'grid' ? 'filled' : 'default'}
        size="input-sm"
        aria-label="Kacheln"
        aria-pressed={view === 'grid'}
        onClick={() => onChange('grid')}
      >
        <GridIcon size={16} />
      </ActionIcon>
    </Group>
  );
}

/** 'Ergebnisse für „…“ statt „…“' when the search corrected the user's words. */
function CorrectedTerms({ terms }: { terms: SearchResponse['correctedTerms'] }) {
  return (
    <Text size="sm" c="dimmed" data-testid="corrected-terms">
      Ergebnisse für{' '}
      {terms.map((c, i) => (
        <span key={c.from}>
          {i > 0 && ', '}„{c.to.join(' / ')}“ statt „{c.from}“
        </span>
      ))}
    </Text>
  );
}

/**
 * /suche (spec 'Search'): tree, filter panel (a drawer on mobile), active filters, sort, result cards,
 * pagination; the whole state lives in the URL (term, page, filters as base64 JSON, sort).
 */
export default function SearchPage() {
  const [params] = useSearchParams();
  // Filters in the address need their parser (zod) first; an address without filters renders without loading it.
  // The first filter chosen loads it: the router's navigation is a transition, so the page stays as it is meanwhile.
  // (Not preloaded after the hits: a download that ends before the hits' picture paints counts for Lighthouse's LCP.)
  if (params.get('filters')) use(loadFilterParser());
  const navigate = useNavigate();
  const profile = useUserProfile().data;
  const isDesktop = useMediaQuery(DESKTOP_QUERY, true, { getInitialValueInEffect: false });
  const [filtersOpened, filterDrawer] = useDisclosure(false);
  const [feedbackOpened, feedback] = useDisclosure(false);
  // The dialog stays mounted after its first opening (closing animates).
  const [feedbackUsed, setFeedbackUsed] = useState(false);
  const filterDrawerMounted = useOpenedOnce(filtersOpened);
  useEffect(() => {
    if (feedbackOpened) setFeedbackUsed(true);
  }, [feedbackOpened]);
  const [view, setView] = useState<ResultView>('list');
  const units = useUnits();
  const tree = useProductTree();

  // Sellers see only their own offers' prices: no price sort (an address with one sorts by recommendation).
  const isSeller = profile?.role === Role.Seller;
  const state = useMemo(() => {
    const read = readSearchState(params);
    return isSeller && isPriceSort(read.sort) ? { ...read, sort: 'recommended' as const } : read;
  }, [params, isSeller]);
  const request = useMemo(() => searchRequestOf(state), [state]);
  const search = useProductSearch(request);
  // A filter list from the URL that the API refuses (unknown column, min > max …) shows the unfiltered search.
  const filtersRefused = search.error instanceof ApiError && search.error.status === 400 && state.filters.length > 0;
  const unfilteredRequest = useMemo(() => searchRequestOf({ ...state, filters: [] }), [state]);
  const unfiltered = useProductSearch(unfilteredRequest, filtersRefused);
  const result = filtersRefused ? unfiltered : search;
  const effective: SearchState = filtersRefused ? { ...state, filters: [] } : state;
  // The answer is rendered in a deferred (time-sliced) pass: React Query's update is synchronous, and rendering 25
  // hits with their controls in one go is a long task that blocks input (Lighthouse: total blocking time). Both
  // values change together in that pass, so placeholder state and data always belong to each other.
  const data = useDeferredValue(result.data);
  const isPlaceholderData = useDeferredValue(result.isPlaceholderData);

  const go = (next: Partial<SearchState>) => navigate(searchStateUrl({ ...effective, ...next }));
  const changeFilters = (filters: SearchFilter[]) => go({ filters, page: 1 });
  const treeHref = (elementId: string | null) =>
    searchStateUrl({
      ...effective,
      page: 1,
      filters: elementId ? setTree(effective.filters, elementId) : removeColumn(effective.filters, SearchColumn.tree),
    });
  const selectedTreeId = selectedValues(effective.filters, SearchColumn.tree)[0] ?? null;

  // A chosen category or filter closes the mobile drawer.
  const closeFilterDrawer = filterDrawer.close;
  useEffect(() => closeFilterDrawer(), [params, closeFilterDrawer]);

  useSearchResultsTracking(data, isPlaceholderData);

  // Stable across renders (the memoised result list keeps it as an unchanged prop); calls the current filters' handler.
  const brandClick = useCallbackRef((brand: string) => {
    if (!selectedValues(effective.filters, SearchColumn.brand).includes(brand)) {
      changeFilters(toggleValue(effective.filters, SearchColumn.brand, brand, true));
    }
  });

  const activeFilterCount = effective.filters.reduce(
    (n, f) => n + (f.filterType === 'Regler' ? 1 : filterValuesOf(f).length),
    0,
  );

  const sidebar = (
    <SearchSidebar
      tree={tree}
      selectedTreeId={selectedTreeId}
      data={data}
      treeHref={treeHref}
      showSellerCatalogue={profile?.role === Role.Seller}
      state={effective}
      units={units}
      onFiltersChange={changeFilters}
    />
  );

  const hitCount = data?.hitCount ?? 0;
  const pageCount = data ? Math.min(data.pageCount, limits.searchMaxPages) : 0;

  const hitCountLine = (
    <Text fw={600} data-testid="hit-count" aria-live="polite" lineClamp={1} className={classes.hitCount}>
      {data ? `${formatCount(hitCount)} Treffer` : ' '}
      {data && effective.term && (
        <Text span c="dimmed" fw={400}>
          {' '}
          für „{effective.term}“
        </Text>
      )}
    </Text>
  );

  return (
    <Page title="Suche">
      <SearchBar
        key={state.term}
        initialTerm={state.term}
        size="lg"
        withSuggestions
        onSearch={(term) => go({ term, page: 1 })}
      />
      <div className={classes.layout}>
        {isDesktop && (
          <aside className={classes.sidebar} aria-label="Kategorien und Filter">
            {sidebar}
          </aside>
        )}
        <Stack gap="md" className={classes.main}>
          {/* The hit count has its own line on narrow screens and one clamped line beside the controls on wide ones:
              its text arriving with the results never re-wraps the toolbar and moves the list (layout shift). */}
          <Group justify="space-between" gap="sm" wrap="nowrap" className={classes.toolbar}>
            {!isDesktop && (
              <Button
                variant="default"
                className={classes.keep}
                leftSection={<FilterIcon size={16} />}
                onClick={filterDrawer.open}
                aria-expanded={filtersOpened}
              >
                Filter{activeFilterCount > 0 ? ` (${activeFilterCount})` : ''}
              </Button>
            )}
            {isDesktop && hitCountLine}
            <Group gap="sm" wrap="nowrap" className={classes.sortAndView}>
              <NativeSelect
                className={classes.sort}
                aria-label="Sortierung"
                data={isSeller ? sortOptions.filter((o) => !isPriceSort(o.value)) : sortOptions}
                value={effective.sort}
                onChange={(event) => go({ sort: event.currentTarget.value as SortKey, page: 1 })}
                size="sm"
              />
              <ViewToggle view={view} onChange={setView} />
            </Group>
          </Group>
          {!isDesktop && hitCountLine}

          <ActiveFilters filters={effective.filters} response={data} onChange={changeFilters} units={units} />

          {filtersRefused && (
            <Alert color="yellow" variant="light" data-testid="filters-refused">
              Die Filter in der Adresse sind ungültig und wurden nicht angewendet.
            </Alert>
          )}
          {data && data.correctedTerms.length > 0 && <CorrectedTerms terms={data.correctedTerms} />}
          {data && <KitchenBanner hits={data.hits} />}

          {/* While the first results load, the area is a screen high: what follows it (the feedback button) starts
              below the fold instead of being pushed there when the list arrives (layout shift). */}
          <Box pos="relative" mih={data ? 200 : '100dvh'}>
            <LoadingOverlay
              visible={(result.isFetching || data !== result.data) && (!data || isPlaceholderData)}
              zIndex={5}
              overlayProps={{ blur: 1 }}
            />
            {result.isError && !filtersRefused ? (
              <Alert color="red" variant="light" title="Die Suche ist fehlgeschlagen" data-testid="search-error">
                {problemTitle(result.error, 'Bitte versuchen Sie es erneut.')}
              </Alert>
            ) : data && data.hits.length === 0 ? (
              <NoResults
                term={effective.term}
                hasFilters={effective.filters.length > 0}
                onResetFilters={() => changeFilters([])}
              />
            ) : data ? (
              <ResultList
                hits={data.hits}
                term={effective.term}
                view={view}
                offset={(data.page - 1) * data.pageSize}
                units={units}
                onBrandClick={brandClick}
              />
            ) : null}
          </Box>

          {data && (
            <SearchPagination
              page={data.page}
              pageCount={pageCount}
              mobile={!isDesktop}
              hrefOf={(page) => searchStateUrl({ ...effective, page })}
            />
          )}

          <Group justify="center">
            <Button variant="subtle" size="compact-sm" onClick={feedback.open}>
              Feedback zur Suche geben
            </Button>
          </Group>
        </Stack>
      </div>

      {!isDesktop && (
        <Suspense fallback={null}>
          {filterDrawerMounted && (
            <FilterDrawer opened={filtersOpened} onClose={filterDrawer.close}>
              {sidebar}
            </FilterDrawer>
          )}
        </Suspense>
      )}
      {(feedbackOpened || feedbackUsed) && (
        <Suspense fallback={null}>
          <FeedbackDialog opened={feedbackOpened} onClose={feedback.close} />
        </Suspense>
      )}
    </Page>
  );
}
