import { useCallback, useEffect, useRef, useState } from 'react';
import { Carousel } from '@mantine/carousel';
import { CarouselStatus } from '../../../ui/CarouselStatus';
import { Button, Stack, Text, Title } from '@mantine/core';
import type { EmblaCarouselType } from 'embla-carousel';
import { Link } from 'react-router';
import { FeatureSettingKey, messages, timings, type Role } from '@shk/contracts';
import { useConfigurationValue } from '../../../api/configuration';
import { configuratorApi, useConfiguratorSlide } from '../../../api/configurator';
import { toast } from '../../../ui/toast';
import { configuratorSlide, slidesFor, type Slide } from './slides';
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

/** The promotion slideshow on the home page with the role's slide order. */
export function PromotionSlideshow({ role }: { role: Role }) {
  const setting = useConfigurationValue(FeatureSettingKey.NonProductPromotionSlide);
  const nonProductPromotions = (setting.data?.value ?? 'true').trim().toLowerCase() === 'true';
  const configurator = useConfiguratorSlide();
  const slides = slidesFor(role, {
    nonProductPromotions,
    configurator: configurator.data ? configuratorSlide(configurator.data) : null,
  });
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
            <div className={classes.slide} style={{ background: slide.background }}>
              <Stack gap="xs" className={classes.content}>
                <Text size="sm" fw={600} tt="uppercase" className={classes.eyebrow}>
                  {slide.eyebrow}
                </Text>
                <Title order={2} className={classes.title}>
                  {slide.title}
                </Title>
                <Text className={classes.text}>{slide.text}</Text>
                {slide.external ? (
                  <ExternalCta slide={slide} />
                ) : (
                  <Button component={Link} to={slide.to} variant="white" color="dark" mt="xs" className={classes.cta}>
                    {slide.cta}
                  </Button>
                )}
              </Stack>
            </div>
          </Carousel.Slide>
        ))}
      </Carousel>
      <CarouselStatus selected={selected} count={slides.length} />
    </section>
  );
}

/**
 * The configurator's call to action: a real link (middle click, screen readers), but a click first asks
 * for a fresh signed link, so a page left open longer than the token's lifetime still works.
 */
function ExternalCta({ slide }: { slide: Slide }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      component="a"
      href={slide.to}
      variant="white"
      color="dark"
      mt="xs"
      loading={busy}
      className={classes.cta}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        setBusy(true);
        configuratorApi
          .slide()
          .then((fresh) => window.location.assign(fresh.visible && fresh.url ? fresh.url : slide.to))
          .catch(() => {
            setBusy(false);
            toast.error(messages.genericRetry);
          });
      }}
    >
      {slide.cta}
    </Button>
  );
}
