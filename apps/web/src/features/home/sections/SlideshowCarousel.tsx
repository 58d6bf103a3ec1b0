import { useCallback, useEffect, useRef, useState } from 'react';
import { Carousel } from '@mantine/carousel';
import type { EmblaCarouselType } from 'embla-carousel';
import { timings } from '@shk/contracts';
import { CarouselStatus } from '../../../ui/CarouselStatus';
import { SlideContent } from './SlideContent';
import type { Slide } from './slides';
import classes from './PromotionSlideshow.module.css';

/**
 * Autoplay (spec): the next slide every 3000 ms; paused while hovered or touched; after manual navigation
 * (arrows, indicators, dragging) it resumes 2000 ms later.
 */
function useAutoplay(embla: EmblaCarouselType | null) {
  const interval = useRef<ReturnType<typeof setInterval> | null>(null);
  const resume = useRef<ReturnType<typeof setTimeout> | null>(null);
  const hovered = useRef(false);

  const stop = useCallback(() => {
    if (interval.current) clearInterval(interval.current);
    if (resume.current) clearTimeout(resume.current);
    interval.current = null;
    resume.current = null;
  }, []);
  const start = useCallback(() => {
    stop();
    if (!embla || hovered.current) return;
    interval.current = setInterval(() => embla.scrollNext(), timings.slideshowMs);
  }, [embla, stop]);
  const manual = useCallback(() => {
    stop();
    resume.current = setTimeout(start, timings.slideshowResumeMs);
  }, [start, stop]);

  useEffect(() => {
    if (!embla) return;
    start();
    embla.on('pointerDown', manual);
    return () => {
      embla.off('pointerDown', manual);
      stop();
    };
  }, [embla, start, stop, manual]);

  return {
    manual,
    hoverProps: {
      onMouseEnter: () => {
        hovered.current = true;
        stop();
      },
      onMouseLeave: () => {
        hovered.current = false;
        start();
      },
      onTouchStart: () => stop(),
      onTouchEnd: () => manual(),
    },
  };
}

/** The slideshow's carousel (Mantine's Carousel on embla), loaded and mounted after the home page's first paint. */
export default function SlideshowCarousel({ slides }: { slides: Slide[] }) {
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const { manual, hoverProps } = useAutoplay(embla);
  const [selected, setSelected] = useState(0);

  return (
    <section aria-roledescription="Karussell" aria-label="Aktionen" data-testid="slideshow" {...hoverProps}>
      <Carousel
        getEmblaApi={setEmbla}
        onSlideChange={setSelected}
        emblaOptions={{ loop: true }}
        withIndicators={slides.length > 1}
        withControls={slides.length > 1}
        onNextSlide={manual}
        onPreviousSlide={manual}
        getIndicatorProps={(index) => ({ onClick: manual, 'aria-label': `Folie ${index + 1}` })}
        classNames={{ indicator: classes.indicator, control: classes.control }}
        previousControlProps={{ 'aria-label': 'Vorherige Folie' }}
        nextControlProps={{ 'aria-label': 'Nächste Folie' }}
      >
        {slides.map((slide, index) => (
          <Carousel.Slide
            key={slide.key}
            aria-roledescription="Folie"
            aria-label={`${index + 1} von ${slides.length}`}
            data-slide={slide.key}
          >
            <SlideContent slide={slide} />
          </Carousel.Slide>
        ))}
      </Carousel>
      <CarouselStatus selected={selected} count={slides.length} />
    </section>
  );
}
