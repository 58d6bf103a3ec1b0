/** Business constants and limits (buyer-side.md §9, seller-staff-side.md §9). */
export const APP_VERSION = '1.14.0-alpha.3';
export const PRODUCT_NAME = 'SHK-Bestellportal';
/**
 * The portal's typeface: the operating system's own UI font (nothing downloaded, so nothing for the Content-Security-
 * Policy to allow). The SPA's Mantine theme and the identity provider's pages (login, password) both use it;
 * apps/web/index.html repeats it for the static header shown before the scripts run.
 */
export const PORTAL_FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

/** Pagination shows at most 100 pages (buyer-side.md §9), in search and in lists. */
const MAX_PAGES = 100;

export const limits = {
  cartName: 50,
  projectCode: 35,
  projectDescription: 200,
  cartItemNote: 500,
  /**
   * The buyer's reference for the whole order ('Kommission / Ihre Bestellreferenz'): EDIFACT RFF C506 1154 is an..35
   * in D.96A and D.97A, so the reference reaches the supplier whole.
   */
  orderReference: 35,
  /** The buyer's note for the whole order (EDIFACT FTX, split over further segments like a line's note). */
  orderNote: 500,
  /** Free-text search of the order list (order number, article number or name, project). */
  orderSearch: 100,
  feedbackComment: 512,
  supplierCustomerNumber: 100,
  relationContactName: 200,
  relationContactPhone: 50,
  relationMessage: 2000,
  /** Comments (rejection reason) of a supplier-customer relation. */
  relationComments: 1000,
  /** Article number and name of a substitute or added supplier-order line. */
  orderLineArticleNumber: 40,
  orderLineName: 200,
  supplierNote: 256,
  searchPageSize: 25,
  maxPages: MAX_PAGES,
  searchMaxPages: MAX_PAGES,
  searchMaxPageSize: 100,
  searchTermMaxLength: 200,
  orderListPageSize: 10,
  supplierOrdersPageSize: 25,
  reportsPageSize: 25,
  platformOperatorRelationPageSize: 1000,
  recentlyViewedPerCategory: 4,
  cartBadgeMax: 99,
  flyoutCartNameMax: 20,
  flyoutCartNameCut: 18,
  minDate: '2024-01-01',
} as const;

export const timings = {
  toastDefaultMs: 6000,
  toastCartAddedMs: 8000,
  toastExitMs: 400,
  toastMaxVisible: 5,
  suggestionDebounceMs: 1000,
  changesSavedDebounceMs: 3000,
  slideshowMs: 3000,
  slideshowResumeMs: 2000,
  modalFadeMs: 400,
  collapseMs: 500,
  supplierDialogResetMs: 500,
  feedbackCloseMs: 1000,
  copyConfirmationMs: 1500,
  reportRefreshMs: 3000,
  /** Video-help widget: availability polled every second for up to ten seconds after marketing consent. */
  videoWidgetPollMs: 1000,
  videoWidgetPollMaxMs: 10_000,
} as const;

export const breakpoints = { mobilePx: 1200, galleryPx: 768 } as const;

export const treeRoot = 'SHKMARKET';
export const treeNodeAction = 'SHKMARKET_10';
export const treeNodeSellerCatalogue = 'SHKMARKET_11';

/** Allowed delivery-address countries; default DE (buyer-side.md §5). */
export const deliveryCountries = [
  'AT',
  'BE',
  'BG',
  'DK',
  'DE',
  'EE',
  'FI',
  'FR',
  'GR',
  'IE',
  'IS',
  'IT',
  'HR',
  'LV',
  'LI',
  'LT',
  'LU',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'CH',
  'SK',
  'SI',
  'ES',
  'CZ',
  'HU',
  'GB',
  'CY',
] as const;
