import {
  cleanNotifications,
  cleanNotificationsQueue,
  hideNotification,
  notificationsStore,
  showNotification,
  type NotificationsStore,
} from '@mantine/notifications';
import { timings } from '@shk/contracts';

export type ToastType = 'warning' | 'error' | 'info' | 'success' | 'neutral';

/** Where every toast is shown; <Toaster/> places this stack below the app-shell header. */
const TOAST_POSITION = 'top-right';

/**
 * How <Toaster/> configures Mantine's notifications (spec: at most 5 shown, 6000 ms by default, 400 ms exit).
 * Hovering a toast pauses only that toast, so a pointer resting on one never holds back the others.
 */
export const toastRegionSettings = {
  position: TOAST_POSITION,
  limit: timings.toastMaxVisible,
  autoClose: timings.toastDefaultMs,
  transitionDuration: timings.toastExitMs,
  pauseResetOnHover: 'notification',
} as const;

/** The count of toasts waiting behind the visible ones ('N weitere Meldungen'); null when none wait. */
export function waitingToastsText(waiting: number): string | null {
  if (waiting <= 0) return null;
  return waiting === 1 ? '1 weitere Meldung' : `${waiting} weitere Meldungen`;
}

export interface ToastOptions {
  title?: string;
  /** Defaults to 6000 ms (spec); the cart-added toast uses timings.toastCartAddedMs. */
  durationMs?: number;
}

const colorOf: Record<ToastType, string> = {
  success: 'green',
  error: 'red',
  warning: 'orange',
  info: 'blue',
  neutral: 'gray',
};

/**
 * The app's one toast API on Mantine's notifications store, so mutations, query callbacks and plain modules
 * can raise toasts as well as components. <Toaster/> renders them: at most 5 at a time (the rest queue),
 * 6000 ms unless a duration is given, five types.
 */
export function createToaster(store: NotificationsStore = notificationsStore) {
  let nextId = 1;
  function show(type: ToastType, message: string, options: ToastOptions = {}): string {
    return showNotification(
      {
        id: `toast-${nextId++}`,
        position: TOAST_POSITION,
        message,
        title: options.title,
        color: colorOf[type],
        autoClose: options.durationMs ?? timings.toastDefaultMs,
        role: type === 'error' || type === 'warning' ? 'alert' : 'status',
        withBorder: true,
        closeButtonProps: { 'aria-label': 'Meldung schließen' },
        'data-toast-type': type,
      },
      store,
    );
  }
  return {
    show,
    dismiss: (id: string) => hideNotification(id, store),
    /** Removes every shown and waiting toast, so the next one is the only message on screen. */
    dismissAll: () => {
      cleanNotificationsQueue(store);
      cleanNotifications(store);
    },
    success: (message: string, options?: ToastOptions) => show('success', message, options),
    error: (message: string, options?: ToastOptions) => show('error', message, options),
    warning: (message: string, options?: ToastOptions) => show('warning', message, options),
    info: (message: string, options?: ToastOptions) => show('info', message, options),
    neutral: (message: string, options?: ToastOptions) => show('neutral', message, options),
  };
}

/** The app-wide toasts: `toast.success('…')`. */
export const toast = createToaster();
