import { timings } from '@shk/contracts';

export type ToastType = 'warning' | 'error' | 'info' | 'success' | 'neutral';

export interface Toast {
  id: number;
  type: ToastType;
  message: string;
  title?: string;
  durationMs: number;
  /** Set while the 400 ms exit animation runs. */
  leaving: boolean;
}

export interface ToastOptions {
  title?: string;
  /** Defaults to 6000 ms (spec); the cart-added toast uses timings.toastCartAddedMs. */
  durationMs?: number;
}

type Listener = () => void;

/**
 * The app's one toast mechanism: a tiny store outside React, so mutations, query callbacks and plain
 * modules can raise toasts as well as components. <Toaster/> renders it.
 */
function createToastStore() {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<Listener>();
  const timers = new Map<number, ReturnType<typeof setTimeout>>();

  const emit = () => listeners.forEach((listener) => listener());
  const set = (next: readonly Toast[]) => {
    toasts = next;
    emit();
  };

  function dismiss(id: number) {
    const toast = toasts.find((t) => t.id === id);
    if (!toast || toast.leaving) return;
    clearTimeout(timers.get(id));
    set(toasts.map((t) => (t.id === id ? { ...t, leaving: true } : t)));
    timers.set(id, setTimeout(() => {
      timers.delete(id);
      set(toasts.filter((t) => t.id !== id));
    }, timings.toastExitMs));
  }

  function show(type: ToastType, message: string, options: ToastOptions = {}): number {
    const id = nextId++;
    const durationMs = options.durationMs ?? timings.toastDefaultMs;
    set([...toasts, { id, type, message, title: options.title, durationMs, leaving: false }]);
    timers.set(id, setTimeout(() => dismiss(id), durationMs));
    return id;
  }

  return {
    show,
    dismiss,
    success: (message: string, options?: ToastOptions) => show('success', message, options),
    error: (message: string, options?: ToastOptions) => show('error', message, options),
    warning: (message: string, options?: ToastOptions) => show('warning', message, options),
    info: (message: string, options?: ToastOptions) => show('info', message, options),
    neutral: (message: string, options?: ToastOptions) => show('neutral', message, options),
    getSnapshot: () => toasts,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;
export { createToastStore };

/** The app-wide store: `toast.success('…')`. */
export const toast = createToastStore();

/** Which toasts are on screen (oldest first, at most 5) and how many wait behind them. */
export function visibleToasts(all: readonly Toast[], max: number = timings.toastMaxVisible) {
  return { visible: all.slice(0, max), hiddenCount: Math.max(0, all.length - max) };
}
