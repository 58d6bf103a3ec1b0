/**
 * The portal's stacking order above the page (Mantine: modals 200, tooltips 300). Toasts lie above modals, so a
 * dialog's messages stay readable. A popup the user has just opened (a popover, a menu, a select's options, the
 * cart flyout) lies above the toasts: an article's 'hinzugefügt' toast must not cover the cart flyout that is
 * opened right after it.
 */
export const layers = {
  toasts: 400,
  popups: 410,
} as const;
