// Mantine's Tooltip on its own, for DeferredTooltip's dynamic import (not the whole @mantine/core namespace).
export { Tooltip } from '@mantine/core';
