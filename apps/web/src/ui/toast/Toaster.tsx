import { lazy, Suspense, useState } from 'react';
import { Text } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { waitingToastsText } from '../../lib/toast';
import { layers } from '../layers';
import classes from './Toaster.module.css';

const ToastStack = lazy(() => import('./ToastStack'));

/**
 * Renders the toasts (Mantine notifications) in one live region below the app-shell header, top right:
 * at most 5 at a time, the count of those waiting right under them, 6000 ms unless a toast says otherwise,
 * 400 ms exit transition. Hovering a toast pauses only that toast's timer.
 * The live region exists from the start (screen readers only announce changes of a region they already know);
 * the stack that draws the toasts is loaded with the first toast and then stays.
 */
export function Toaster() {
  const { notifications, queue } = useNotifications();
  const [stackNeeded, setStackNeeded] = useState(false);
  if (!stackNeeded && notifications.length + queue.length > 0) setStackNeeded(true);
  const waiting = waitingToastsText(queue.length);
  return (
    <div className={classes.region} style={{ zIndex: layers.toasts }} aria-live="polite" data-testid="toasts">
      {stackNeeded && (
        <Suspense fallback={null}>
          <ToastStack />
        </Suspense>
      )}
      {waiting && (
        <Text size="sm" className={classes.more} data-testid="toasts-hidden-count">
          {waiting}
        </Text>
      )}
    </div>
  );
}
