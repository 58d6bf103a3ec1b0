import type { ReactNode } from 'react';
import { Anchor, Badge, SimpleGrid, Stack, Text, Typography } from '@mantine/core';
import { messages } from '@shk/contracts';
import type { Product, ProductOffer } from '../../../api/catalogue';
import { downloadApiFile } from '../../../api/download';
import { problemTitle } from '../../../api/problem';
import { needsRelation } from '../../../ui/catalogue/orderability';
import { UnitText } from '../../../ui/catalogue/units';
import { DownloadCard } from '../../../ui/DownloadCard';
import { ExpandableSection } from '../../../ui/ExpandableSection';
import featureTable from './FeatureTable.module.css';
import { FieldList } from '../../../ui/FieldList';
import { formatCountry, formatQuantity } from '../../../ui/format';
import { ProductImage } from '../../../ui/product/ProductImage';
import { productUrl } from '../../../ui/catalogue/product-url';
import { ProductCard } from '../../../ui/product/ProductCard';
import { toast } from '../../../ui/toast';

/** Document types with dimensional data (spec: 2D and 3C). */
const DIMENSIONAL = ['2D', '3C'];
const documentKind = (type: string) => (type === '3C' ? '3D-Daten' : type === '2D' ? '2D-Zeichnung' : type);

const measureText = (m: { value: number; unit: string } | null, units: Map<string, string>) =>
  m ? (
    <>
      {formatQuantity(m.value)} <UnitText unit={m.unit} units={units} />
    </>
  ) : null;

interface ProductSectionsProps {
  product: Product;
  offers: ProductOffer[];
  units: Map<string, string>;
  /** New-customer forms of suppliers without an active relation that require one (buyers only). */
  showOnboardingForms: boolean;
}

interface Section {
  key: string;
  title: string;
  content: ReactNode;
  defaultOpen?: boolean;
}

/** Paragraphs of a plain product text. */
const Paragraphs = ({ text }: { text: string }) => (
  <Typography>
    {text.split(/\n{2,}/).map((paragraph, index) => (
      <p key={index} style={{ whiteSpace: 'pre-line' }}>
        {paragraph}
      </p>
    ))}
  </Typography>
);

/** The article's identifying data (brand, numbers, classes). */
function ArticleDetails({ product }: { product: Product }) {
  const { basicPackage: basic, additionalPackage: additional } = product;
  return (
    <FieldList
      fields={[
        { label: 'Marke', value: product.brandName },
        { label: 'Hersteller', value: product.manufacturerName },
        { label: 'Serie', value: basic.serie },
        { label: 'Modellnummer', value: basic.modelNumber },
        { label: 'Artikeltyp', value: additional.articleType },
        { label: 'Werksartikelnummer', value: product.manufacturerPid },
        { label: 'Katalognummer', value: additional.articleNumberCatalogue },
        { label: 'GTIN', value: product.gtin },
        { label: 'Warengruppe', value: additional.commodityGroupDescrManufacturer },
        {
          label: 'ETIM-Klasse',
          value: product.etimClass ? `${product.etimClass.description} (${product.etimClass.id})` : null,
        },
        { label: 'Energieeffizienzklasse', value: additional.energyEfficiencyClass },
        { label: 'Farbe', value: additional.color },
      ]}
    />
  );
}

/** Measures, weight, delivery time, packaging and origin. */
function LogisticsData({ logistics, units }: { logistics: Product['logisticsPackage']; units: Map<string, string> }) {
  return (
    <FieldList
      fields={[
        { label: 'Länge/Tiefe', value: measureText(logistics.measureA, units) },
        { label: 'Breite', value: measureText(logistics.measureB, units) },
        { label: 'Höhe', value: measureText(logistics.measureC, units) },
        { label: 'Gewicht', value: measureText(logistics.weight, units) },
        {
          label: 'Standardlieferzeit',
          value: logistics.standardDeliveryPeriod === null ? null : `${logistics.standardDeliveryPeriod} Arbeitstage`,
        },
        {
          label: 'Verpackungseinheit',
          value: logistics.packagingQuantity === null ? null : formatQuantity(logistics.packagingQuantity),
        },
        { label: 'Ursprungsland', value: formatCountry(logistics.countryOfOrigin) },
      ]}
    />
  );
}

/** The ETIM features as label – value rows. */
function FeatureTable({ features, units }: { features: Product['features']; units: Map<string, string> }) {
  return (
    <table className={featureTable.table} data-testid="features">
      <tbody>
        {features.map((feature) => (
          <tr key={feature.featureId}>
            <td style={{ width: '50%' }}>
              <Text size="sm" c="dimmed">
                {feature.description}
              </Text>
            </td>
            <td>
              <Text size="sm">
                {typeof feature.value === 'number' ? formatQuantity(feature.value) : feature.value}
                {feature.unit && (
                  <>
                    {' '}
                    <UnitText unit={feature.unit} units={units} />
                  </>
                )}
              </Text>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every picture and drawing, each opening the full file. */
function PictureGrid({ product }: { product: Product }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      {product.picturesPackage.map((picture, index) => (
        <Anchor
          key={picture.url}
          href={picture.url}
          target="_blank"
          rel="noopener"
          title={picture.description || picture.filename}
        >
          <ProductImage
            src={picture.url}
            alt={picture.description || `${product.productName} – Bild ${index + 1}`}
            size="100%"
          />
        </Anchor>
      ))}
    </SimpleGrid>
  );
}

/** 2D and 3D data as downloads. */
function DimensionalDownloads({ dimensional }: { dimensional: Product['documentsPackage'] }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {dimensional.map((d) => (
        <DownloadCard
          key={d.url}
          href={d.url}
          title={d.description || d.filename}
          fileName={d.filename}
          kind={documentKind(d.type)}
          sizeBytes={d.size}
        />
      ))}
    </SimpleGrid>
  );
}

/** Manuals and documents; one that is not public is fetched with the bearer token. */
function DocumentDownloads({ documents }: { documents: Product['documentsPackage'] }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {documents.map((d) => (
        <DownloadCard
          key={d.url}
          // A document that is not public (price list, …) needs the bearer token.
          href={d.requiresSignIn ? undefined : d.url}
          onDownload={
            d.requiresSignIn
              ? () => {
                  downloadApiFile(d.url, d.filename).catch((error: unknown) =>
                    toast.error(problemTitle(error, messages.genericRetry)),
                  );
                }
              : undefined
          }
          title={d.description || d.filename}
          fileName={d.filename}
          kind={documentKind(d.type)}
          sizeBytes={d.size}
        />
      ))}
    </SimpleGrid>
  );
}

/** The new-customer forms of suppliers the buyer has no relationship with. */
function OnboardingForms({ onboarding }: { onboarding: ProductOffer['supplier'][] }) {
  return (
    <Stack gap="sm">
      <Text size="sm">
        Für eine Geschäftsbeziehung mit diesen Lieferanten füllen Sie bitte das Neukundenformular aus und senden es an
        den Lieferanten.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {onboarding.map((supplier) => (
          <DownloadCard
            key={supplier.bpNumber}
            title={`Neukundenformular ${supplier.name}`}
            kind="PDF"
            onDownload={() => {
              downloadApiFile(
                `/v1/SupplierOnboardingFormTemplates/${encodeURIComponent(supplier.bpNumber)}`,
                `Neukundenformular-${supplier.bpNumber}.pdf`,
              ).catch((error: unknown) => toast.error(problemTitle(error, messages.genericRetry)));
            }}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** Accessories, spare parts and successors as product cards. */
function RelatedProducts({
  related,
  units,
}: {
  related: Product['additionalPackage']['relatedProducts'];
  units: Map<string, string>;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" data-testid="related-products">
      {related.map((r) => (
        <ProductCard
          key={`${r.kind}:${r.productId}`}
          orientation="vertical"
          withFavourite={false}
          units={units}
          badge={
            <Badge
              variant="light"
              color={r.kind === 'accessory' ? 'brand' : r.kind === 'successor' ? 'orange' : 'gray'}
              radius="sm"
              tt="none"
            >
              {r.kind === 'accessory' ? 'Zubehör' : r.kind === 'successor' ? 'Nachfolgeartikel' : 'Ersatzteil'}
            </Badge>
          }
          data-testid="related-product"
          product={{
            productId: r.productId,
            productInstanceId: r.productInstanceId,
            name: r.productName,
            brand: r.brandName,
            imageUrl: r.imageUrl,
            manufacturerPid: r.manufacturerPid,
            supplierPid: r.productInstanceId.slice(r.productInstanceId.indexOf('~') + 1),
            supplierName: r.supplierName,
            price: r.price ?? undefined,
            href: productUrl({ productId: r.productId, articleNumber: r.productInstanceId }),
          }}
        />
      ))}
    </SimpleGrid>
  );
}

/** The collapsible sections of the product page (spec §2 'Product detail'); empty ones are left out. */
export function ProductSections({ product, offers, units, showOnboardingForms }: ProductSectionsProps) {
  const { descriptionsPackage: texts, logisticsPackage: logistics, additionalPackage: additional } = product;
  const dimensional = product.documentsPackage.filter((d) => DIMENSIONAL.includes(d.type));
  const documents = product.documentsPackage.filter((d) => !DIMENSIONAL.includes(d.type));
  const onboarding = showOnboardingForms
    ? [
        ...new Map(
          offers
            .filter((o) => o.supplier.requiredOnboardingForm && needsRelation(o.productOrderableStatus))
            .map((o) => [o.supplier.bpNumber, o.supplier]),
        ).values(),
      ]
    : [];
  // Accessories and spare parts as the API resolved them: products with name, picture and preferred offer.
  const related = additional.relatedProducts;

  const sections: Section[] = [];
  if (texts.productDescr) {
    sections.push({
      key: 'description',
      title: 'Beschreibung',
      content: <Paragraphs text={texts.productDescr} />,
      defaultOpen: true,
    });
  }
  sections.push({
    key: 'details',
    title: 'Artikeldetails',
    defaultOpen: !texts.productDescr,
    content: <ArticleDetails product={product} />,
  });
  sections.push({
    key: 'logistics',
    title: 'Logistikdaten',
    content: <LogisticsData logistics={logistics} units={units} />,
  });
  if (product.features.length) {
    sections.push({
      key: 'features',
      title: 'Weitere Eigenschaften',
      content: <FeatureTable features={product.features} units={units} />,
    });
  }
  if (product.picturesPackage.length) {
    sections.push({
      key: 'pictures',
      title: 'Bilder und Zeichnungen',
      content: <PictureGrid product={product} />,
    });
  }
  if (dimensional.length) {
    sections.push({
      key: 'cad',
      title: '2D- und 3D-Daten',
      content: <DimensionalDownloads dimensional={dimensional} />,
    });
  }
  if (documents.length) {
    sections.push({
      key: 'documents',
      title: 'Bedienungsanleitungen und Dokumente',
      content: <DocumentDownloads documents={documents} />,
    });
  }
  if (onboarding.length) {
    sections.push({
      key: 'onboarding',
      title: 'Neukundenformular',
      content: <OnboardingForms onboarding={onboarding} />,
    });
  }
  if (related.length) {
    sections.push({
      key: 'accessories',
      title: 'Zubehör und Ersatzteile',
      content: <RelatedProducts related={related} units={units} />,
    });
  }
  if (texts.marketingText) {
    sections.push({ key: 'marketing', title: 'Marketingtext', content: <Paragraphs text={texts.marketingText} /> });
  }

  return (
    <Stack gap="sm" data-testid="product-sections">
      {sections.map((section) => (
        <ExpandableSection key={section.key} title={section.title} defaultOpen={section.defaultOpen}>
          {section.content}
        </ExpandableSection>
      ))}
    </Stack>
  );
}
