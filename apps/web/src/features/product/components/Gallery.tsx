import { useState } from 'react';
import { Carousel } from '@mantine/carousel';
import { CarouselStatus } from '../../../ui/CarouselStatus';
import { UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { breakpoints } from '@shk/contracts';
import type { Product } from '../../../api/catalogue';
import { ProductImage } from '../../../ui/product/ProductImage';
import classes from './Gallery.module.css';

type Picture = Product['picturesPackage'][number];

/**
 * The product gallery: from 768 px a main picture with thumbnails, below a swipeable carousel with
 * indicators (spec: gallery breakpoint 768 px).
 */
export function Gallery({ pictures, name }: { pictures: Picture[]; name: string }) {
  const wide = useMediaQuery(`(min-width: ${breakpoints.galleryPx}px)`, true, { getInitialValueInEffect: false });
  const [active, setActive] = useState(0);
  const [slide, setSlide] = useState(0);
  const current = pictures[Math.min(active, pictures.length - 1)];
  const alt = (picture: Picture | undefined, index: number) => picture?.description || `${name} – Bild ${index + 1}`;

  if (pictures.length === 0) {
    return (
      <div className={classes.main} data-testid="gallery">
        <ProductImage src={null} alt={name} size="100%" />
      </div>
    );
  }

  if (!wide) {
    return (
      <>
        <Carousel
          withIndicators={pictures.length > 1}
          withControls={pictures.length > 1}
          emblaOptions={{ loop: pictures.length > 1 }}
          onSlideChange={setSlide}
          previousControlProps={{ 'aria-label': 'Vorheriges Bild' }}
          nextControlProps={{ 'aria-label': 'Nächstes Bild' }}
          data-testid="gallery"
          classNames={{ indicator: classes.indicator }}
        >
          {pictures.map((picture, index) => (
            <Carousel.Slide key={picture.url}>
              <ProductImage
                src={picture.url}
                alt={alt(picture, index)}
                size="100%"
                eager={index === 0}
                priority={index === 0}
              />
            </Carousel.Slide>
          ))}
        </Carousel>
        <CarouselStatus selected={slide} count={pictures.length} noun="Bild" />
      </>
    );
  }

  return (
    <div className={classes.gallery} data-testid="gallery">
      <a href={current.url} target="_blank" rel="noopener" className={classes.main} title="Bild in voller Größe öffnen">
        <ProductImage src={current.url} alt={alt(current, active)} size="100%" priority={active === 0} eager />
      </a>
      {pictures.length > 1 && (
        <div className={classes.thumbs} role="list" aria-label="Bilder">
          {pictures.map((picture, index) => (
            // The list item wraps the button: aria-pressed is not allowed on role listitem (axe, critical).
            <div key={picture.url} role="listitem">
              <UnstyledButton
                className={classes.thumb}
                data-active={index === active || undefined}
                aria-label={`Bild ${index + 1} anzeigen`}
                aria-pressed={index === active}
                onClick={() => setActive(index)}
              >
                <ProductImage src={picture.url} alt="" size={64} />
              </UnstyledButton>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
