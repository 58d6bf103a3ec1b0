import { useState } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { messages } from '@shk/contracts';
import { configuratorApi } from '../../../api/configurator';
import { toast } from '../../../ui/toast';
import type { Slide } from './slides';
import classes from './PromotionSlideshow.module.css';

/** One slide's picture area: eyebrow, title, text and its call to action (the same in the carousel and before it). */
export function SlideContent({ slide }: { slide: Slide }) {
  return (
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
