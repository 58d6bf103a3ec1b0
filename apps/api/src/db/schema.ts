/**
 * Drizzle table definitions mirroring migrations/*.sql (the SQL files are the source of truth
 * for the database; these give typed queries). Keep both in step.
 */
import {
  pgTable,
  text,
  uuid,
  smallint,
  boolean,
  timestamp,
  numeric,
  integer,
  bigserial,
  bigint,
  date,
  primaryKey,
  customType,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const num = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });

export const businessPartners = pgTable('business_partners', {
  bpNumber: text('bp_number').primaryKey(),
  name: text('name').notNull(),
  officialCompanyName: text('official_company_name'),
  street: text('street'),
  houseNumber: text('house_number'),
  postalCode: text('postal_code'),
  city: text('city'),
  country: text('country'),
  email: text('email'),
  phoneNumber: text('phone_number'),
  faxNumber: text('fax_number'),
  website: text('website'),
  taxNumber: text('tax_number'),
  vatId: text('vat_id'),
  organisationType: smallint('organisation_type').notNull().default(0),
  isSupplier: boolean('is_supplier').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull(),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  role: smallint('role').notNull().default(0),
  passwordHash: text('password_hash'),
  externalSubject: text('external_subject'),
  currentBpNumber: text('current_bp_number'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const userBusinessPartners = pgTable(
  'user_business_partners',
  { userId: uuid('user_id').notNull(), bpNumber: text('bp_number').notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.bpNumber] })],
);

export const suppliers = pgTable('suppliers', {
  bpNumber: text('bp_number').primaryKey(),
  supplierStatusId: smallint('supplier_status_id').notNull().default(2),
  logoFileName: text('logo_file_name'),
  logoContentType: text('logo_content_type'),
  logo: bytea('logo'),
  requiredOnboardingForm: boolean('required_onboarding_form').notNull().default(false),
  onboardingFormTemplate: bytea('onboarding_form_template'),
  onboardingFormTemplateFileName: text('onboarding_form_template_file_name'),
  contactPersonName: text('contact_person_name'),
  contactPersonPhone: text('contact_person_phone'),
  contactPersonEmail: text('contact_person_email'),
  gln: text('gln'),
  headquarterGln: text('headquarter_gln'),
  inComProtocolId: smallint('in_com_protocol_id').notNull().default(1),
  inDataFormats: smallint('in_data_formats').array().notNull().default([1]),
  outComProtocolId: smallint('out_com_protocol_id').notNull().default(1),
  outDataFormats: smallint('out_data_formats').array().notNull().default([1]),
  outEmailAddress: text('out_email_address'),
  outFtpFolder: text('out_ftp_folder'),
  workflowId: integer('workflow_id'),
  outAs2Identifier: text('out_as2_identifier'),
  outAs2Url: text('out_as2_url'),
  showSupplierNote: boolean('show_supplier_note').notNull().default(false),
  supplierNote: text('supplier_note'),
  deliveryCost: num('delivery_cost').notNull().default(0),
  freeDeliveryThreshold: num('free_delivery_threshold').notNull().default(0),
  ordersSummaryEmail: text('orders_summary_email'),
  customerOnboardingEmail: text('customer_onboarding_email'),
  newCustomerOnboardingEmail: text('new_customer_onboarding_email'),
  hideGrossPrice: boolean('hide_gross_price').notNull().default(false),
  hideAdditionalInfo: boolean('hide_additional_info').notNull().default(false),
  integrationStatus: smallint('integration_status').notNull().default(2),
  integrationProvider: text('integration_provider'),
  productDataSource: smallint('product_data_source').notNull().default(0),
  filterValue: text('filter_value'),
  brandName: text('brand_name'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const customParameters = pgTable('custom_parameters', {
  key: text('key').primaryKey(),
  description: text('description').notNull().default(''),
  typeId: smallint('type_id').notNull().default(3),
  maxValueCount: integer('max_value_count').notNull().default(1),
  isPublic: boolean('is_public').notNull().default(true),
});

export const customParameterValues = pgTable('custom_parameter_values', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  key: text('key').notNull(),
  value: text('value').notNull(),
  validFrom: date('valid_from', { mode: 'string' }),
  validTo: date('valid_to', { mode: 'string' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const feedbacks = pgTable('feedbacks', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: uuid('user_id').notNull(),
  bpNumber: text('bp_number'),
  isPositive: boolean('is_positive').notNull(),
  comment: text('comment'),
  url: text('url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  toAddress: text('to_address').notNull(),
  replyTo: text('reply_to'),
  subject: text('subject').notNull(),
  bodyText: text('body_text').notNull(),
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  storedAs: text('stored_as'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

export const supportRequests = pgTable('support_requests', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: text('kind').notNull(),
  userId: uuid('user_id').notNull(),
  bpNumber: text('bp_number'),
  message: text('message').notNull(),
  email: text('email').notNull(),
  phoneNumber: text('phone_number'),
  mailId: bigint('mail_id', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
