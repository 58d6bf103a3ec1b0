import HomePage from '../features/home/HomePage';
import { BuyerHomeSuppliers } from '../features/suppliers/BuyerHomeSuppliers';

/** `/`: the home feature's page with the blocks other features contribute (see `HomeSlots`). */
export default function HomeRoute() {
  return <HomePage slots={{ buyerSuppliers: <BuyerHomeSuppliers /> }} />;
}
