import { Navigate } from 'react-router';
import { treeFilter, treeNodeAction } from '@shk/contracts';
import { searchUrl } from '../../ui/search-url';

/** /aktion: the current promotions are the search with tree filter SHKMARKET_10. */
export default function ActionRedirect() {
  return <Navigate to={searchUrl({ page: 1, filters: [treeFilter(treeNodeAction)] })} replace />;
}
