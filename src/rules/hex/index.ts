export * from './axial';
export * from './labels';
export * from './lines';
export * from './grid';
export * from './heap';
export * from './paths';
