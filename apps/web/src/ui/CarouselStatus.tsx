import { VisuallyHidden } from '@mantine/core';

/**
 * The carousel's position for screen readers in German ('Folie 2 von 3'). Mantine's own live region says
 * 'Slide 2 of 3' and cannot be translated; global.css hides it, so only this one is announced.
 */
export function CarouselStatus({
  selected,
  count,
  noun = 'Folie',
}: {
  selected: number;
  count: number;
  noun?: string;
}) {
  if (count < 2) return null;
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true">
      {`${noun} ${selected + 1} von ${count}`}
    </VisuallyHidden>
  );
}
