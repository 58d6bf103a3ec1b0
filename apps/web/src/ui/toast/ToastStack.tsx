import { Notifications } from '@mantine/notifications';
import { toastRegionSettings } from '../../lib/toast';
import classes from './Toaster.module.css';

/** Mantine's notification stack; loaded with the first toast, so the first page does not carry it. */
export default function ToastStack() {
  return (
    <Notifications
      {...toastRegionSettings}
      withinPortal={false}
      classNames={{ root: classes.stack, notification: classes.toast }}
    />
  );
}
