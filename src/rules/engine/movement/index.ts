export * from './context';
export * from './moves';
export * from './search';
export * from './step';
export * from './tables';
export * from './validate-path';
