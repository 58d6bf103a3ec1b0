export { toast, type ToastType, type ToastOptions } from './toast-store';
export { Toaster } from './Toaster';
