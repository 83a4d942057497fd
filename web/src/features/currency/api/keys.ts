export const currencyKeys = {
  all: ['currency'] as const,
  settings: () => ['currency', 'settings'] as const,
  rates: () => ['currency', 'rates'] as const,
  ratesPage: (limit: number, offset: number) => ['currency', 'rates', { limit, offset }] as const,
};
