import { lazy, Suspense } from 'react';
import OrdersPage from '../features/orders/OrdersPage';
import { FullPageLoader } from '../ui/FullPageLoader';

// Only sellers load the supplier-order list's code.
const SupplierOrdersPage = lazy(() => import('../features/supplier-orders/SupplierOrdersPage'));

/** `/bestellungen`: the orders feature's page; a seller gets the supplier orders there (spec: not a pointer page). */
export default function OrdersRoute() {
  return (
    <OrdersPage
      sellerOrders={
        <Suspense fallback={<FullPageLoader />}>
          <SupplierOrdersPage />
        </Suspense>
      }
    />
  );
}
