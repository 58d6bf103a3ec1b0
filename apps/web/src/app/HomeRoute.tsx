import { lazy, useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { prefetchBuyerHomeSuppliers } from '../api/relations';
import { useUserProfile } from '../api/session';
import HomePage from '../features/home/HomePage';

/**
 * The buyer's supplier blocks are below the first screen: their code is loaded when the home page renders them
 * (after its first paint, `features/home/sections/more.tsx`), and their reads start at the same moment.
 */
const BuyerHomeSuppliers = lazy(() =>
  import('../features/suppliers/BuyerHomeSuppliers').then((m) => ({ default: m.BuyerHomeSuppliers })),
);

function BuyerSuppliersSlot() {
  const queryClient = useQueryClient();
  const profile = useUserProfile().data;
  // In parallel with the component's code (a download), not after it.
  useEffect(() => {
    if (profile) prefetchBuyerHomeSuppliers(queryClient, profile);
  }, [queryClient, profile]);
  return <BuyerHomeSuppliers />;
}

/** `/`: the home feature's page with the blocks other features contribute (see `HomeSlots`). */
export default function HomeRoute() {
  return <HomePage slots={{ buyerSuppliers: <BuyerSuppliersSlot /> }} />;
}
