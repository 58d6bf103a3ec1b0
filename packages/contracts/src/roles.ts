/** Numeric user roles as the spec defines them (buyer-side.md §4). */
export const Role = {
  None: 0,
  Buyer: 1,
  Seller: 2,
  Administrator: 3,
  Support: 4,
  PlatformOperator: 5,
} as const;
export type Role = (typeof Role)[keyof typeof Role];
export type RoleName = keyof typeof Role;

export const roleNames: Record<Role, RoleName> = {
  0: 'None',
  1: 'Buyer',
  2: 'Seller',
  3: 'Administrator',
  4: 'Support',
  5: 'PlatformOperator',
};

/** German labels shown in the header and on the profile page. */
export const roleLabels: Record<Role, string> = {
  0: 'Keine Rolle',
  1: 'Einkäufer',
  2: 'Verkäufer',
  3: 'Administrator',
  4: 'Support',
  5: 'Plattformbetreiber',
};

export const staffRoles: readonly Role[] = [Role.Administrator, Role.Support, Role.PlatformOperator];
export const isStaff = (role: Role) => staffRoles.includes(role);
