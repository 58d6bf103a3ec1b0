import {
  configuratorLimits,
  configuratorMessages,
  FeatureSettingKey,
  RelationStatus,
  Role,
  type ConfiguratorReturnRequest,
  type ConfiguratorReturnVerified,
  type ConfiguratorSlide,
} from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import type { ReadModelCache } from '../../http/read-model-cache.ts';
import { badRequest } from '../../http/problem.ts';
import { readConfigurationValues } from '../settings/index.ts';
import { slideFacts } from './configurator.repo.ts';
import { returnSignatureMatches, signHandOff } from './signing.ts';

interface CallerLike {
  role: Role;
  bpNumber: string | null;
  partners: string[];
}

interface Integration {
  supplier: string | null;
  url: string | null;
  secret: string | null;
}

const SETTING_KEYS = [
  FeatureSettingKey.KitchenConfiguratorSupplier,
  FeatureSettingKey.KitchenConfiguratorUrl,
  FeatureSettingKey.KitchenConfiguratorClientSecret,
];

/** The integration's settings from their values (trimmed; empty = not set). */
function integrationOf(values: Map<string, string | null>): Integration {
  const read = (key: string) => values.get(key)?.trim() || null;
  return {
    supplier: read(FeatureSettingKey.KitchenConfiguratorSupplier),
    url: read(FeatureSettingKey.KitchenConfiguratorUrl),
    secret: read(FeatureSettingKey.KitchenConfiguratorClientSecret),
  };
}

const hidden: ConfiguratorSlide = {
  visible: false,
  supplierBpNumber: null,
  supplierName: null,
  url: null,
  expiresAt: null,
};

/**
 * The kitchen-manufacturer configurator (docs/configurator.md): who sees the home slide, the signed
 * hand-off link, and the verification of the configurator's signed return. The verification reads the custom
 * parameters on each call; the slide's reads (settings, supplier name, the buyer's relation) go through the
 * read-model cache when one is given (kept until those tables change), its link is signed per call. The client
 * secret never leaves this service.
 */
export class ConfiguratorService {
  constructor(
    private readonly handle: Db,
    private readonly publicUrl: string,
    private readonly now: () => number = () => Date.now(),
    private readonly cache?: Pick<ReadModelCache, 'read'>,
  ) {}

  private cached<T>(key: string, tables: Parameters<ReadModelCache['read']>[1], load: () => Promise<T>): Promise<T> {
    return this.cache ? this.cache.read(key, tables, load) : load();
  }

  private get db() {
    return this.handle.$client;
  }

  /** The three settings in one statement (each as readConfiguration reads it). */
  private async integration(): Promise<Integration> {
    return integrationOf(await readConfigurationValues(this.handle, SETTING_KEYS));
  }

  /**
   * Spec 'Home slideshow': buyers see the slide only with an approved and active relation to the kitchen
   * manufacturer and the integration secret present; sellers when that partner is among their partners;
   * everyone else (staff, role None) whenever the configurator is set up.
   */
  async slideFor(caller: CallerLike): Promise<ConfiguratorSlide> {
    const { supplier, url, secret } = await this.cached(
      'configurator:integration',
      ['custom_parameters', 'custom_parameter_values'],
      () => this.integration(),
    );
    if (!supplier || !url || !isHttpUrl(url)) return hidden;
    let partner: string | null = null;
    if (caller.role === Role.Buyer && (!secret || !caller.bpNumber)) return hidden;
    if (caller.role === Role.Seller && !caller.partners.includes(supplier)) return hidden;
    // The supplier's name and the buyer's relation to it in one statement.
    const buyer = caller.role === Role.Buyer ? caller.bpNumber : null;
    const { supplierName: name, relation } = await this.cached(
      `configurator:facts:${buyer ?? ''}:${supplier}`,
      ['business_partners', 'supplier_customers'],
      () => slideFacts(this.db, buyer, supplier),
    );
    if (caller.role === Role.Buyer) {
      if (!relation || relation.relationStatusId !== RelationStatus.Approved || !relation.isActive) return hidden;
      partner = caller.bpNumber;
    } else if (caller.role === Role.Seller) {
      partner = secret ? caller.bpNumber : null;
    }
    const link = new URL(url);
    let expiresAt: string | null = null;
    if (partner && secret) {
      const expires = Math.floor(this.now() / 1000) + configuratorLimits.handOffTokenSeconds;
      link.searchParams.set('token', signHandOff(secret, { partner, supplier, expires }));
      link.searchParams.set('returnUrl', `${this.publicUrl}/add-to-cart`);
      expiresAt = new Date(expires * 1000).toISOString();
    }
    return { visible: true, supplierBpNumber: supplier, supplierName: name, url: link.toString(), expiresAt };
  }

  /**
   * Checks the configurator's return for the caller's current partner: signed by the configurator with the
   * client secret over article, supplier, partner and expiry; not expired; for the configured supplier and
   * this partner. Anything else is a 400 problem with a German title; nothing is added here.
   */
  async verifyReturn(
    caller: { bpNumber: string | null },
    body: ConfiguratorReturnRequest,
  ): Promise<ConfiguratorReturnVerified> {
    const { supplier, secret } = await this.integration();
    if (!supplier || !secret) throw badRequest(configuratorMessages.returnNotConfigured);
    const { articleNumber, supplierId, partner, expires, signature } = body;
    if (!partner || !expires || !signature) throw badRequest(configuratorMessages.returnUnsigned);
    if (
      supplierId !== supplier ||
      !/^\d{1,12}$/.test(expires) ||
      !returnSignatureMatches(secret, { articleNumber, supplierId, partner, expires }, signature)
    ) {
      throw badRequest(configuratorMessages.returnInvalid);
    }
    const nowSeconds = Math.floor(this.now() / 1000);
    if (Number(expires) <= nowSeconds) throw badRequest(configuratorMessages.returnExpired);
    if (Number(expires) > nowSeconds + configuratorLimits.returnMaxLifetimeSeconds) {
      throw badRequest(configuratorMessages.returnInvalid);
    }
    if (!caller.bpNumber || partner !== caller.bpNumber) throw badRequest(configuratorMessages.returnOtherPartner);
    return { articleNumber, supplierId, partner };
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
