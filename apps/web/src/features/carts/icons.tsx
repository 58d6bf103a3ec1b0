import { IconPaperclip, IconPencil, IconPlus } from '@tabler/icons-react';
import { tablerIcon } from '../../ui/icons';

/** Icons only the carts pages use (Tabler, 16 px by default); shared ones live in src/ui/icons. */
export const PencilIcon = tablerIcon(IconPencil, 16);
export const PlusIcon = tablerIcon(IconPlus, 16);
export const PaperclipIcon = tablerIcon(IconPaperclip, 16);
