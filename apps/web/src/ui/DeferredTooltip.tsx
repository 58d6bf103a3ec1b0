import {
  cloneElement,
  lazy,
  Suspense,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
} from 'react';

// Mantine's Tooltip (floating-ui and its positioning) is loaded when a tooltip is first wanted, not with the page:
// a search page has two tooltips per hit, and each mounted Tooltip ran floating-ui's hooks in the hits' commit.
const Tooltip = lazy(() => import('./LoadedTooltip').then((m) => ({ default: m.Tooltip })));

export type TriggerProps = {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
};

export interface TooltipTrigger {
  /** The element the tooltip belongs to, once it was hovered or focused (null: the tooltip was never wanted). */
  target: HTMLElement | null;
  opened: boolean;
}

/**
 * When the tooltip shows, as Mantine's Tooltip decides it with its default events: on hover with a mouse (not on
 * touch), on keyboard focus (`:focus-visible`), hidden on leave, blur and Escape.
 */
export function nextTrigger(
  state: TooltipTrigger,
  event:
    | { type: 'pointerenter'; pointerType: string; element: HTMLElement }
    | { type: 'focus'; focusVisible: boolean; element: HTMLElement }
    | { type: 'pointerleave' | 'blur' | 'escape' },
): TooltipTrigger {
  switch (event.type) {
    case 'pointerenter':
      return event.pointerType === 'mouse' ? { target: event.element, opened: true } : state;
    case 'focus':
      return event.focusVisible ? { target: event.element, opened: true } : state;
    default:
      return state.opened ? { ...state, opened: false } : state;
  }
}

const focusVisible = (element: HTMLElement) => {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true;
  }
};

/**
 * Mantine's Tooltip for `children`, loaded on the first hover or keyboard focus. The child is rendered as it is
 * (same element, never remounted: a click or focus in progress is kept); the tooltip is placed beside it with
 * Mantine's `target` and shown while hovered or focused. The child must carry its own accessible name (the
 * tooltips here repeat an `aria-label`).
 */
export function DeferredTooltip({
  label,
  withArrow,
  children,
}: {
  label: string;
  withArrow?: boolean;
  children: ReactElement<TriggerProps>;
}) {
  const [trigger, setTrigger] = useState<TooltipTrigger>({ target: null, opened: false });
  const own = children.props;
  const child = cloneElement(children, {
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      own.onPointerEnter?.(event);
      const element = event.currentTarget;
      setTrigger((s) => nextTrigger(s, { type: 'pointerenter', pointerType: event.pointerType, element }));
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      own.onPointerLeave?.(event);
      setTrigger((s) => nextTrigger(s, { type: 'pointerleave' }));
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      own.onFocus?.(event);
      const element = event.currentTarget;
      const visible = focusVisible(element);
      setTrigger((s) => nextTrigger(s, { type: 'focus', focusVisible: visible, element }));
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      own.onBlur?.(event);
      setTrigger((s) => nextTrigger(s, { type: 'blur' }));
    },
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      own.onKeyDown?.(event);
      if (event.key === 'Escape') setTrigger((s) => nextTrigger(s, { type: 'escape' }));
    },
  });
  return (
    <>
      {child}
      {trigger.target && (
        <Suspense fallback={null}>
          <Tooltip label={label} withArrow={withArrow} target={trigger.target} opened={trigger.opened} />
        </Suspense>
      )}
    </>
  );
}
