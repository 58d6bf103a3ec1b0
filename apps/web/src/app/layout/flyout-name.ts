import { limits } from '@shk/contracts';

/** Flyout cart names longer than 20 characters are cut to 18 plus dots (buyer-side.md §2, §9). */
export function flyoutCartName(name: string): string {
  return name.length > limits.flyoutCartNameMax ? `${name.slice(0, limits.flyoutCartNameCut)}...` : name;
}
