export * from './api';
export * from './csv';
export * from './dimensions';
export * from './format';
export * from './inclusions';
export * from './limits';
export * from './storage';
export * from './time-range';
