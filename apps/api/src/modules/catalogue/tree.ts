/** The product tree with product counts (GET /v1/ProductTree). */
import { treeNodeAction, treeNodeSellerCatalogue, type ProductTreeNode } from '@shk/contracts';
import type { CatalogueMeta, TreeNodeMeta } from './catalogue-meta.ts';
import type { FacetSet } from './search/facets.ts';

/**
 * Counts come from the cached whole-catalogue facet set. SHKMARKET_11 (seller catalogue) is the
 * caller's own catalogue and only shown when the current partner is a catalogue supplier.
 */
export function productTree(meta: CatalogueMeta, set: FacetSet, bpNumber: string | null): ProductTreeNode {
  const seller = bpNumber ? meta.supplierByBp.get(bpNumber) : undefined;
  const build = (node: TreeNodeMeta, parent: TreeNodeMeta | null): ProductTreeNode | null => {
    if (node.elementId === treeNodeSellerCatalogue && !seller) return null;
    const children = [...node.children]
      .map((c) => meta.tree.get(c)!)
      .sort((a, b) => a.sort - b.sort)
      .map((c) => build(c, node))
      .filter((c): c is ProductTreeNode => c !== null);
    let count: number;
    if (node.elementId === treeNodeAction) count = set.promo;
    else if (node.elementId === treeNodeSellerCatalogue) count = set.suppliers.get(seller!.no) ?? 0;
    else if (node.type === 'leaf') count = set.leaves.get(node.no) ?? 0;
    else if (node.type === 'root') count = set.total;
    else count = children.reduce((sum, c) => sum + c.productCount, 0);
    return {
      elementID: node.elementId,
      type: node.type,
      parentID: parent?.elementId ?? null,
      descriptions: [{ name: node.name, language: 'de' }],
      productCount: count,
      children,
    };
  };
  if (!meta.root)
    return {
      elementID: 'SHKMARKET',
      type: 'root',
      parentID: null,
      descriptions: [{ name: 'Alle Kategorien', language: 'de' }],
      productCount: 0,
      children: [],
    };
  return build(meta.root, null)!;
}
