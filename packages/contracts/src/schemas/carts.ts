import { z } from 'zod';
import { messages } from '../messages.ts';
import { deliveryCountries, limits } from '../limits.ts';
import { MAX_QUANTITY } from '../quantity.ts';
import { cartMessages } from '../cart-texts.ts';

export const CART_NAME_PATTERN = /^[\p{L}\p{N}\-_() \t]+$/u;

export const CartName = z
  .string()
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, messages.required)
      .max(limits.cartName, messages.maxChars(limits.cartName))
      .regex(CART_NAME_PATTERN, cartMessages.cartNamePattern),
  );

export const CreateCartRequest = z.object({ name: CartName });
export const RenameCartRequest = z.object({ name: CartName });

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Datum im Format JJJJ-MM-TT erwartet');

export const UpdateCartRequest = z.object({
  projectId: z.number().int().positive().nullable().optional(),
  deliveryAddressId: z.number().int().positive().nullable().optional(),
  deliveryDate: isoDate.nullable().optional(),
});

export const Quantity = z
  .number({ error: messages.wholeNumbers })
  .int(messages.wholeNumbers)
  .positive(messages.wholeNumbers)
  .max(MAX_QUANTITY, messages.wholeNumbers);

export const CreateCartItemRequest = z.object({
  cartId: z.number().int().positive().optional().nullable(),
  productInstanceId: z.string().min(1).max(300),
  articleNumber: z.string().max(200).optional().nullable(),
  supplierBusinessPartnerNo: z.string().max(20).optional().nullable(),
  quantity: Quantity,
  comment: z.string().max(limits.cartItemNote, messages.maxChars(limits.cartItemNote)).optional().nullable(),
});

export const UpdateCartItemRequest = z.object({
  id: z.number().int().positive().optional(),
  quantity: Quantity,
  projectId: z.number().int().positive().nullable().optional(),
  deliveryDate: isoDate.nullable().optional(),
  deliveryAddressId: z.number().int().positive().nullable().optional(),
  comment: z.string().max(limits.cartItemNote, messages.maxChars(limits.cartItemNote)).nullable().optional(),
});

export const Attachment = z
  .object({ id: z.number().int(), fileName: z.string(), size: z.number().int().optional() })
  .meta({ id: 'Attachment' });

export const CartItemSupplier = z.object({
  name: z.string(),
  bpNumber: z.string(),
  requiredOnboardingForm: z.boolean(),
  hideAdditionalInfo: z.boolean(),
});

export const CartItem = z
  .object({
    id: z.number().int(),
    articleNumber: z.string(),
    supplierBusinessPartnerNo: z.string(),
    productInstanceId: z.string(),
    quantity: z.number(),
    projectId: z.number().int().nullable(),
    comment: z.string().nullable(),
    deliveryDate: z.string().nullable(),
    deliveryAddressId: z.number().int().nullable(),
    imageUrl: z.string().nullable(),
    attachments: z.array(Attachment),
    canUploadAttachment: z.boolean(),
    supplierName: z.string(),
    netValue: z.number().nullable(),
    supplier: CartItemSupplier,
    productName: z.string().nullable(),
    manufacturerPid: z.string().nullable(),
    /** With manufacturerPid the product id ('manufacturerId~manufacturerPid') for the link to the product page. */
    manufacturerId: z.string().nullable(),
    brandName: z.string().nullable(),
    unitPrice: z.number().nullable(),
    priceBasis: z.number(),
    minOrderQuantity: z.number(),
    unit: z.string().nullable(),
    productOrderableStatus: z.number().int(),
  })
  .meta({ id: 'CartItem' });
export type CartItem = z.infer<typeof CartItem>;

export const SupplierOrderValue = z.object({
  supplierBusinessPartnerNo: z.string().min(1).max(20),
  orderValue: z.number().min(0).max(1e12),
});
export const DeliveryCostResult = z
  .object({
    supplierBusinessPartnerNo: z.string(),
    deliveryCost: z.number(),
    freeDeliveryThreshold: z.number(),
    missingForFreeDelivery: z.number(),
  })
  .meta({ id: 'DeliveryCostResult' });

export const MultiCart = z
  .object({
    id: z.number().int(),
    name: z.string(),
    isDefault: z.boolean(),
    projectId: z.number().int().nullable(),
    deliveryAddressId: z.number().int().nullable(),
    deliveryDate: z.string().nullable(),
    dateCreated: z.string(),
    items: z.array(CartItem),
    supplierOrderValues: z.array(z.object({ supplierBusinessPartnerNo: z.string(), orderValue: z.number() })),
    supplierGroups: z.array(
      z.object({
        supplierBusinessPartnerNo: z.string(),
        supplierName: z.string(),
        itemCount: z.number().int(),
        totalValue: z.number(),
        deliveryCost: z.number(),
        freeDeliveryThreshold: z.number(),
        missingForFreeDelivery: z.number(),
      }),
    ),
    unavailableItemIds: z.array(z.number().int()),
    totalNetValue: z.number(),
    totalDeliveryCost: z.number(),
  })
  .meta({ id: 'MultiCart' });
export type MultiCart = z.infer<typeof MultiCart>;

export const CartOverview = z
  .object({
    id: z.number().int(),
    name: z.string(),
    dateCreated: z.string(),
    itemCount: z.number().int(),
    totalNetValue: z.number(),
    isDefault: z.boolean(),
  })
  .meta({ id: 'CartOverview' });

const optionalText = (max: number) => z.string().trim().max(max, messages.maxChars(max)).optional().nullable();
const requiredText = (max: number) =>
  z.string({ error: messages.required }).trim().min(1, messages.required).max(max, messages.maxChars(max));

export const DeliveryAddressInput = z.object({
  companyName: requiredText(100),
  contactPerson: optionalText(100),
  additionalInfo: optionalText(100),
  streetName: requiredText(100),
  houseNumber: requiredText(20),
  postalCode: requiredText(10),
  city: requiredText(100),
  phoneNumber: optionalText(50),
  countryCode: z.enum(deliveryCountries, { error: messages.checkInput }).default('DE'),
});
export const DeliveryAddress = z
  .object({
    id: z.number().int(),
    companyName: z.string(),
    contactPerson: z.string().nullable(),
    additionalInfo: z.string().nullable(),
    streetName: z.string(),
    houseNumber: z.string(),
    postalCode: z.string(),
    city: z.string(),
    phoneNumber: z.string().nullable(),
    countryCode: z.string(),
    isReadOnly: z.boolean(),
  })
  .meta({ id: 'DeliveryAddress' });
export type DeliveryAddress = z.infer<typeof DeliveryAddress>;
export type DeliveryAddressInput = z.output<typeof DeliveryAddressInput>;

export const ProjectInput = z.object({
  code: requiredText(limits.projectCode),
  description: optionalText(limits.projectDescription),
});
export const Project = z
  .object({ id: z.number().int(), code: z.string(), description: z.string().nullable() })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof Project>;
export type ProjectInput = z.output<typeof ProjectInput>;
