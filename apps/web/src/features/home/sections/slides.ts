import { configuratorMessages, Role, treeFilter, treeNodeAction } from '@shk/contracts';
import { searchUrl } from '../../../ui/search-url';

export type SlideKind = 'promotion' | 'action' | 'configurator' | 'default';

export interface Slide {
  key: string;
  kind: SlideKind;
  /** Non-product promotions can be switched off (setting NonProductPromotionSlide). */
  nonProduct?: boolean;
  eyebrow: string;
  title: string;
  text: string;
  cta: string;
  to: string;
  /** An address outside the portal (the configurator): followed with a fresh signed link, see SlideContent. */
  external?: boolean;
  /** CSS background of the slide. */
  background: string;
}

const actionUrl = searchUrl({ page: 1, filters: [treeFilter(treeNodeAction)] });

/** The promotions of the spec's text. */
const promotionSlides: Slide[] = [
  {
    key: 'care-set',
    kind: 'promotion',
    nonProduct: true,
    eyebrow: 'Aktion für Partner',
    title: 'Pflegeset gratis ab 1.000 € Bestellwert',
    text: 'Die ersten 25 Partner, die ab 1.000 € Bestellwert bestellen, erhalten ein hochwertiges Pflegeset für Armaturen und Keramik dazu.',
    cta: 'Jetzt Artikel finden',
    to: searchUrl({ page: 1 }),
    background: 'linear-gradient(120deg, #0b5cad 0%, #2a72d2 60%, #6c9fe0 100%)',
  },
];

/** Slides of the action category (tree node SHKMARKET_10). */
const actionSlides: Slide[] = [
  {
    key: 'radiators',
    kind: 'action',
    eyebrow: 'Aktion Heizkörper',
    title: '8 % Rabatt auf Calora Plan und Radiatherm Design',
    text: 'Für kurze Zeit 8 % Rabatt auf zwei beliebte Heizkörperserien – alle Aktionsartikel auf einen Blick.',
    cta: 'Zu den Aktionsartikeln',
    to: actionUrl,
    background: 'linear-gradient(120deg, #9c2b12 0%, #d9480f 55%, #f08c00 100%)',
  },
];

const defaultSlide: Slide = {
  key: 'default',
  kind: 'default',
  eyebrow: 'SHK-Bestellportal',
  title: 'Ein Login, alle Lieferanten',
  text: 'Sanitär, Heizung, Installation, Rohre, Lüftung und Klima: Artikel suchen, Preise vergleichen und direkt beim Lieferanten bestellen.',
  cta: 'Zur Produktsuche',
  to: searchUrl({ page: 1 }),
  background: 'linear-gradient(120deg, #043567 0%, #094f96 60%, #0b5cad 100%)',
};

/** The kitchen-configurator slide for a visible answer of GET /v1/KitchenConfigurator/Slide. */
export function configuratorSlide(answer: {
  visible: boolean;
  url: string | null;
  supplierName: string | null;
}): Slide | null {
  if (!answer.visible || !answer.url) return null;
  return {
    key: 'configurator',
    kind: 'configurator',
    eyebrow: configuratorMessages.slideEyebrow,
    title: configuratorMessages.slideTitle(answer.supplierName ?? 'unserem Partner'),
    text: configuratorMessages.slideText,
    cta: configuratorMessages.slideCta,
    to: answer.url,
    external: true,
    background: 'linear-gradient(120deg, #2b3a1f 0%, #5c7a29 55%, #94b447 100%)',
  };
}

/**
 * Slide order by role (spec 'Home slideshow'): buyers get non-product promotions, action-category
 * slides, the configurator slide, default; sellers action slides, configurator, default; others
 * promotions, configurator, default. Whether the configurator slide is shown is the API's decision
 * (GET /v1/KitchenConfigurator/Slide, docs/configurator.md).
 */
export function slidesFor(
  role: Role,
  options: { nonProductPromotions: boolean; configurator?: Slide | null },
): Slide[] {
  const configurator = options.configurator ? [options.configurator] : [];
  const promotions = promotionSlides.filter((s) => !s.nonProduct || options.nonProductPromotions);
  switch (role) {
    case Role.Buyer:
      return [...promotions.filter((s) => s.nonProduct), ...actionSlides, ...configurator, defaultSlide];
    case Role.Seller:
      return [...actionSlides, ...configurator, defaultSlide];
    default:
      return [
        ...promotions,
        ...actionSlides.map((s) => ({ ...s, kind: 'promotion' as const })),
        ...configurator,
        defaultSlide,
      ];
  }
}
