/**
 * Home page sections contributed by feature folders (the home feature may import only from src/ui and
 * src/api). Supplier–customer relations: the buyer's supplier cards and further suppliers.
 */
export { BuyerHomeSuppliers } from '../features/suppliers/BuyerHomeSuppliers';
