import { Text } from '@mantine/core';
import { Notifications, useNotifications } from '@mantine/notifications';
import { toastRegionSettings, waitingToastsText } from './toast-store';
import classes from './Toaster.module.css';

/**
 * Renders the toasts (Mantine notifications) in one live region below the app-shell header, top right:
 * at most 5 at a time, the count of those waiting right under them, 6000 ms unless a toast says otherwise,
 * 400 ms exit transition. Hovering a toast pauses only that toast's timer.
 */
export function Toaster() {
  const { queue } = useNotifications();
  const waiting = waitingToastsText(queue.length);
  return (
    <div className={classes.region} aria-live="polite" data-testid="toasts">
      <Notifications
        {...toastRegionSettings}
        withinPortal={false}
        classNames={{ root: classes.stack, notification: classes.toast }}
      />
      {waiting && (
        <Text size="sm" className={classes.more} data-testid="toasts-hidden-count">
          {waiting}
        </Text>
      )}
    </div>
  );
}
