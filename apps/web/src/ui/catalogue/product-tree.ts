import type { ProductTreeNode } from '../../api/catalogue';

export const nodeName = (node: ProductTreeNode) => node.descriptions[0]?.name ?? node.elementID;

/** The path from the root's child down to the node with the given id (empty when not found). */
export function pathTo(root: ProductTreeNode | undefined, elementId: string): ProductTreeNode[] {
  if (!root) return [];
  const walk = (node: ProductTreeNode, trail: ProductTreeNode[]): ProductTreeNode[] | null => {
    if (node.elementID === elementId) return trail;
    for (const child of node.children) {
      const found = walk(child, [...trail, child]);
      if (found) return found;
    }
    return null;
  };
  return walk(root, []) ?? [];
}
