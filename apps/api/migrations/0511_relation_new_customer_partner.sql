-- The company data a buyer confirmed for a request without customer number (the add-supplier dialog's business
-- partner steps): what the supplier needs to set the buyer up as a new customer; null for requests with a number.
ALTER TABLE supplier_customers ADD COLUMN new_customer_partner jsonb;
