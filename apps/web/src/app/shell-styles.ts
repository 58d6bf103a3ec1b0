/*
 * Styles of the first page: Mantine's baseline and variables and the components the shell and the pages outside
 * the route chunks use (header, menu, footer, welcome, errors, loader, toasts, and the on-demand header parts),
 * as CSS layers so the app's own styles always win regardless of load order. Everything else comes with the first
 * page chunk (`page-styles.ts`, loaded by `routes.tsx`), so the first paint waits for ~100 kB of CSS, not 300 kB.
 */
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/AppShell.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Burger.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/Drawer.layer.css';
import '@mantine/core/styles/Indicator.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Title.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/notifications/styles.layer.css';
