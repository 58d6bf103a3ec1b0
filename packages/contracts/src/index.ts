export * from './roles.ts';
export * from './statuses.ts';
export * from './limits.ts';
export * from './settings.ts';
export * from './messages.ts';
export * from './schemas/problem.ts';
export * from './schemas/profile.ts';
export * from './schemas/relations.ts';
