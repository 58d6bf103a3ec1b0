import { lazy, Suspense } from 'react';
import { FeatureSettingKey, type Role } from '@shk/contracts';
import { useConfigurationValue } from '../../../api/configuration';
import { useConfiguratorSlide } from '../../../api/configurator';
import { useIdle } from '../../../ui/when-idle';
import { SlideContent } from './SlideContent';
import { configuratorSlide, slidesFor, type Slide } from './slides';
import classes from './PromotionSlideshow.module.css';

// The carousel (Mantine's Carousel, embla) is loaded once the page has painted: embla measures the slides when it
// starts, and right after the page's first commit that measurement was a layout of the whole new page in one long
// task. Until then the slides stand in the same row (the first one shown), so nothing moves when it takes over.
const SlideshowCarousel = lazy(() => import('./SlideshowCarousel'));

/**
 * The slides as the carousel lays them out (a row of full-width slides, as tall as the tallest, the first one
 * visible), without the carousel: what the page paints first. The others are inert until the carousel shows them.
 */
function StaticSlides({ slides }: { slides: Slide[] }) {
  return (
    <section aria-label="Aktionen" data-testid="slideshow">
      <div className={classes.staticViewport}>
        <div className={classes.staticRow}>
          {slides.map((slide, index) => (
            <div key={slide.key} className={classes.staticSlide} data-slide={slide.key} inert={index > 0}>
              <SlideContent slide={slide} />
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

/** The promotion slideshow on the home page with the role's slide order. */
export function PromotionSlideshow({ role }: { role: Role }) {
  const setting = useConfigurationValue(FeatureSettingKey.NonProductPromotionSlide);
  const nonProductPromotions = (setting.data?.value ?? 'true').trim().toLowerCase() === 'true';
  const configurator = useConfiguratorSlide();
  const slides = slidesFor(role, {
    nonProductPromotions,
    configurator: configurator.data ? configuratorSlide(configurator.data) : null,
  });
  const idle = useIdle();
  const still = <StaticSlides slides={slides} />;
  return idle ? (
    <Suspense fallback={still}>
      <SlideshowCarousel slides={slides} />
    </Suspense>
  ) : (
    still
  );
}
