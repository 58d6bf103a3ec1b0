export { toast } from '../../lib/toast';
export { Toaster } from './Toaster';
