import { useSyncExternalStore } from 'react';
import { Notification, Text } from '@mantine/core';
import { timings } from '@shk/contracts';
import { toast, visibleToasts, type ToastType } from './toast-store';
import classes from './Toaster.module.css';

const colorOf: Record<ToastType, string> = {
  success: 'green',
  error: 'red',
  warning: 'orange',
  info: 'blue',
  neutral: 'gray',
};

/** Renders the toast store: at most 5 toasts, a count of the rest, 400 ms exit animation. */
export function Toaster() {
  const all = useSyncExternalStore(toast.subscribe, toast.getSnapshot);
  const { visible, hiddenCount } = visibleToasts(all);
  if (all.length === 0) return null;
  return (
    <div className={classes.region} aria-live="polite" data-testid="toasts">
      {visible.map((t) => (
        <Notification
          key={t.id}
          role={t.type === 'error' || t.type === 'warning' ? 'alert' : 'status'}
          color={colorOf[t.type]}
          title={t.title}
          data-toast-type={t.type}
          className={classes.toast}
          data-leaving={t.leaving || undefined}
          style={{ ['--toast-exit-ms' as string]: `${timings.toastExitMs}ms` }}
          onClose={() => toast.dismiss(t.id)}
          closeButtonProps={{ 'aria-label': 'Meldung schließen' }}
          withBorder
        >
          {t.message}
        </Notification>
      ))}
      {hiddenCount > 0 && (
        <Text size="sm" className={classes.more} data-testid="toasts-hidden-count">
          {hiddenCount === 1 ? '1 weitere Meldung' : `${hiddenCount} weitere Meldungen`}
        </Text>
      )}
    </div>
  );
}
