export { toast, type ToastType, type ToastOptions } from '../../lib/toast';
export { Toaster } from './Toaster';
