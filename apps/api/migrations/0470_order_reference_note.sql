-- The buyer's reference ('Kommission / Ihre Bestellreferenz') and note for the whole order, given at checkout and
-- sent to every supplier of the order (EDIFACT RFF+CR and FTX+PUR, the order PDF). The limits are the contracts'
-- (the reference fits RFF's an..35); the checks keep them whatever writes the row.
ALTER TABLE customer_orders
  ADD COLUMN order_reference text CHECK (char_length(order_reference) BETWEEN 1 AND 35),
  ADD COLUMN order_note      text CHECK (char_length(order_note) BETWEEN 1 AND 500);
