export * from './dice';
export * from './forced-dice';
export * from './seeded-dice';
