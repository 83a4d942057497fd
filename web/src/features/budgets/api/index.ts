export * from './budgets-api';
export * from './keys';
