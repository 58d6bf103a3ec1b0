import { lazy, Suspense } from 'react';
import { UnstyledButton } from '@mantine/core';
import { NavLink, useLocation } from 'react-router';
import { messages } from '@shk/contracts';
import type { MenuItem } from '../menu';
import classes from './MainMenu.module.css';

/** The tooltip (floating-ui) is only needed for a disabled entry; loaded then, not with every first page. */
const Tooltip = lazy(() => import('./MenuTooltip').then((m) => ({ default: m.MenuTooltip })));

interface MainMenuProps {
  items: readonly MenuItem[];
  orientation: 'horizontal' | 'vertical';
  onSignOut: () => void;
  /** Called after an entry was chosen (closes the mobile drawer). */
  onNavigate?: () => void;
}

/** The role's menu plus 'Abmelden'; one list for desktop (horizontal) and the mobile drawer (vertical). */
export function MainMenu({ items, orientation, onSignOut, onNavigate }: MainMenuProps) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Hauptmenü" className={classes.nav} data-orientation={orientation}>
      <ul className={classes.list}>
        {items.map((item) => {
          const path = item.to.split('?')[0];
          const active = path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
          return (
            <li key={item.routeKey} className={classes.item}>
              {item.disabledReason ? (
                <Suspense
                  fallback={
                    <span className={classes.link} aria-disabled="true" data-disabled tabIndex={0}>
                      {item.label}
                    </span>
                  }
                >
                  <Tooltip label={item.disabledReason} withArrow>
                    <span className={classes.link} aria-disabled="true" data-disabled tabIndex={0}>
                      {item.label}
                    </span>
                  </Tooltip>
                </Suspense>
              ) : (
                <NavLink
                  to={item.to}
                  className={classes.link}
                  data-active={active || undefined}
                  aria-current={active ? 'page' : undefined}
                  onClick={onNavigate}
                >
                  {item.label}
                </NavLink>
              )}
            </li>
          );
        })}
        <li className={`${classes.item} ${classes.signOut}`}>
          <UnstyledButton className={classes.link} onClick={onSignOut}>
            {messages.logout}
          </UnstyledButton>
        </li>
      </ul>
    </nav>
  );
}
