import { describe, expect, it } from 'vitest';
import { withViewed, type RecentlyViewedProduct } from './recently-viewed';

const product = (productId: string, category: string): RecentlyViewedProduct => ({
  productId,
  productInstanceId: `200001~${productId}`,
  name: productId,
  brand: 'B',
  imageUrl: null,
  manufacturerPid: productId,
  category,
  viewedAt: '',
});

describe('recently viewed (spec §4)', () => {
  it('keeps the newest first without duplicates by manufacturer product id', () => {
    let list = withViewed([], product('a', 'SHKMARKET_1'));
    list = withViewed(list, product('b', 'SHKMARKET_1'));
    list = withViewed(list, product('a', 'SHKMARKET_1'));
    expect(list.map((p) => p.productId)).toEqual(['a', 'b']);
  });

  it('keeps at most 4 per category', () => {
    let list: RecentlyViewedProduct[] = [];
    for (const id of ['1', '2', '3', '4', '5']) list = withViewed(list, product(id, 'SHKMARKET_2'));
    list = withViewed(list, product('x', 'SHKMARKET_3'));
    expect(list.map((p) => p.productId)).toEqual(['x', '5', '4', '3', '2']);
  });
});
