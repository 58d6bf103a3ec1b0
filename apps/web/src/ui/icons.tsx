import {
  IconBarcode,
  IconCheck,
  IconChevronDown,
  IconChevronLeft,
  IconChevronRight,
  IconChevronsLeft,
  IconChevronsRight,
  IconDownload,
  IconFilter,
  IconInfoCircle,
  IconLayoutGrid,
  IconList,
  IconPhoto,
  IconSearch,
  IconShoppingCart,
  IconStar,
  IconStarFilled,
  IconTopologyRing3,
  IconTrash,
  type IconProps as TablerIconProps,
  type TablerIcon,
} from '@tabler/icons-react';

/** The app's icons (Tabler, line style, currentColor) under the names the app uses; decorative unless labelled. */
type IconProps = TablerIconProps & { size?: number };

/** An app icon from a Tabler icon: stroke 2, decorative (aria-hidden) unless labelled, `defaultSize` px. */
export const tablerIcon = (Tabler: TablerIcon, defaultSize = 20) =>
  function AppIcon({ size = defaultSize, ...rest }: IconProps) {
    return <Tabler size={size} stroke={2} aria-hidden {...rest} />;
  };
const icon = tablerIcon;

export const CartIcon = icon(IconShoppingCart);
export const ChevronDownIcon = icon(IconChevronDown);
export const BarcodeIcon = icon(IconBarcode);
export const CheckIcon = icon(IconCheck);
export const SearchIcon = icon(IconSearch);
export const ChevronLeftIcon = icon(IconChevronLeft);
export const ChevronRightIcon = icon(IconChevronRight);
export const ChevronsLeftIcon = icon(IconChevronsLeft);
export const ChevronsRightIcon = icon(IconChevronsRight);
export const FilterIcon = icon(IconFilter);
export const InfoIcon = icon(IconInfoCircle);
export const ListIcon = icon(IconList);
export const GridIcon = icon(IconLayoutGrid);
export const TrashIcon = icon(IconTrash);
export const DownloadIcon = icon(IconDownload);
export const ImageIcon = icon(IconPhoto);
/** A network of partners (the empty supplier list). */
export const NetworkIcon = icon(IconTopologyRing3);

const StarOutline = icon(IconStar);
const StarFilled = icon(IconStarFilled);

/** Favourite star; `filled` for a product that is a favourite. */
export const StarIcon = ({ filled = false, ...props }: IconProps & { filled?: boolean }) =>
  filled ? <StarFilled {...props} /> : <StarOutline {...props} />;

/** The portal's mark: a drop in a rounded square. */
export const LogoMark = ({ size = 32 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden>
    <rect width="32" height="32" rx="7" fill="var(--mantine-primary-color-filled)" />
    <path d="M16 6c-4 5.5-7 9.3-7 13a7 7 0 0 0 14 0c0-3.7-3-7.5-7-13z" fill="#fff" />
  </svg>
);
