-- The customer order's status follows its supplier orders (deriveCustomerOrderStatus in @shk/contracts, mirrored
-- here; derive-customer-order-status.test.ts compares both on every combination). Before, the transmission worker
-- locked the customer order with SELECT … FOR UPDATE, read the statuses and wrote the result in three round trips:
-- the five supplier orders of one checkout, delivered at once, then queued on the customer order's row for all of
-- them (and for every stall of the worker's event loop between them). refresh_customer_order_status does the three
-- steps in one call on the server, so the row is held only from that call until COMMIT.
CREATE FUNCTION derive_customer_order_status(statuses smallint[]) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH s AS (SELECT unnest(statuses) AS status_id),
  c AS (
    SELECT count(*) AS total,
           count(*) FILTER (WHERE status_id <> 6) AS live,
           count(*) FILTER (WHERE status_id IN (4, 5)) AS confirmed,
           count(*) FILTER (WHERE status_id = 5) AS with_changes,
           count(*) FILTER (WHERE status_id = 2) AS sent
      FROM s)
  SELECT (CASE
    WHEN total = 0 THEN 1                                   -- Created
    WHEN live = 0 THEN 6                                    -- Cancelled
    WHEN confirmed = live AND (with_changes > 0 OR live < total) THEN 5 -- ConfirmedWithChanges
    WHEN confirmed = live THEN 4                            -- Confirmed
    WHEN confirmed > 0 THEN 3                               -- PartiallyConfirmed
    WHEN sent = live THEN 2                                 -- AwaitingConfirmation
    ELSE 1                                                  -- Created
  END)::smallint FROM c
$$;

-- Locks the customer order, then reads its supplier orders (a VOLATILE function's statement sees what committed
-- before it: a supplier order changed by a transaction that held the lock before is read with its new status) and
-- writes the derived status when it differs. Two supplier orders of one order changing at once still derive in turn.
CREATE FUNCTION refresh_customer_order_status(order_id bigint) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  derived smallint;
BEGIN
  PERFORM 1 FROM customer_orders WHERE id = order_id FOR UPDATE;
  SELECT derive_customer_order_status(coalesce(array_agg(status_id), '{}')) INTO derived
    FROM supplier_orders WHERE customer_order_id = order_id;
  UPDATE customer_orders SET status_id = derived, modified_at = now() WHERE id = order_id AND status_id <> derived;
END $$;
