import { describe, expect, it } from 'vitest';
import { Role } from '@shk/contracts';
import { configuratorSlide, slidesFor } from './slides';

const visible = { visible: true, url: 'https://konfigurator.example/start?token=t', supplierName: 'Küchenwerk' };
const keys = (role: Role, configurator = configuratorSlide(visible)) =>
  slidesFor(role, { nonProductPromotions: true, configurator }).map((s) => s.key);

describe('home slideshow order with the configurator slide (spec)', () => {
  it('buyers: non-product promotions, action slides, configurator, default', () => {
    expect(keys(Role.Buyer)).toEqual(['care-set', 'radiators', 'configurator', 'default']);
  });
  it('sellers: action slides, configurator, default', () => {
    expect(keys(Role.Seller)).toEqual(['radiators', 'configurator', 'default']);
  });
  it('others: promotions, configurator, default', () => {
    for (const role of [Role.Administrator, Role.Support, Role.PlatformOperator, Role.None]) {
      expect(keys(role)).toEqual(['care-set', 'radiators', 'configurator', 'default']);
    }
  });
  it('no slide when the API says it is not visible', () => {
    expect(configuratorSlide({ ...visible, visible: false })).toBeNull();
    expect(configuratorSlide({ ...visible, url: null })).toBeNull();
    expect(keys(Role.Buyer, null)).toEqual(['care-set', 'radiators', 'default']);
  });
  it('links to the signed address outside the portal', () => {
    expect(configuratorSlide(visible)).toMatchObject({
      kind: 'configurator',
      to: visible.url,
      external: true,
      title: 'Küchen von Küchenwerk konfigurieren',
      cta: 'Zum Küchenkonfigurator',
    });
  });
});
