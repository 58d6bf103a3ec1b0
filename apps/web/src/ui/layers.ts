/**
 * The portal's stacking order above the page (Mantine's modals and drawers: 200). Toasts lie above modals, so a
 * dialog's messages stay readable. A popup the user has just opened (a popover, a menu, a select's options, the
 * cart flyout) lies above the toasts: an article's 'hinzugefügt' toast must not cover the cart flyout that is
 * opened right after it. A hover tooltip lies above everything, also above a popup it explains.
 */
export const layers = {
  toasts: 400,
  popups: 410,
  tooltips: 420,
} as const;
