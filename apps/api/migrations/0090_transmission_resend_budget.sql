-- 'Erneut senden' starts a fresh retry series: the attempt counter keeps counting (attempt numbers in the
-- log stay unique), and budget_base records how many attempts had been made when the order was resent.
-- The worker gives up after (attempts - budget_base) >= TRANSMISSION_MAX_ATTEMPTS.
ALTER TABLE supplier_order_transmissions ADD COLUMN budget_base integer NOT NULL DEFAULT 0;
