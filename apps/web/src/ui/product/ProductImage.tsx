import { useState } from 'react';
import { Center } from '@mantine/core';
import { ImageIcon } from '../icons';
import classes from './ProductImage.module.css';

interface ProductImageProps {
  src: string | null | undefined;
  alt: string;
  /** Box size in px (square) or '100%' to fill the parent. */
  size?: number | '100%';
  /** Gallery images may be large; list images load lazily. */
  eager?: boolean;
  /** The page's likely largest picture (the first search hit, the gallery's main image): loaded first. */
  priority?: boolean;
}

/** A product picture in a square box, contained; a neutral placeholder when there is none or it fails. */
export function ProductImage({ src, alt, size = 120, eager = false, priority = false }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const dimension = size === '100%' ? '100%' : `${size}px`;
  const failed = !src || failedSrc === src;
  return (
    <div className={classes.box} style={{ width: dimension, height: size === '100%' ? 'auto' : dimension }}>
      {failed ? (
        <Center className={classes.placeholder} aria-label={alt} role="img">
          <ImageIcon size={size === '100%' ? 48 : Math.max(20, Math.round(size / 4))} />
        </Center>
      ) : (
        <img
          src={src}
          alt={alt}
          className={classes.image}
          loading={eager || priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          decoding="async"
          onError={() => {
            console.error('Failed to fetch image', src);
            setFailedSrc(src);
          }}
        />
      )}
    </div>
  );
}
