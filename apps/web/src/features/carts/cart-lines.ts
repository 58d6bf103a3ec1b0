/** The code of a filled cart's lines (CartLines.tsx), shared by the cart page and the route's prefetch. */
export const loadCartLines = () => import('./CartLines');
