/** The currency settings and exchange rates API's shapes, generated from the server's OpenAPI document. */
import type { components } from '@/api/schema.gen';

type Schemas = components['schemas'];

/** GET /v1/currency, PUT /v1/currency: display currency, the data's currencies, the rates summary. */
export type CurrencySettings = Schemas['CurrencySettings'];
/** A currency the tenant's billing data is in, with its billed cost in that currency. */
export type DataCurrency = Schemas['DataCurrency'];
/** What the tenant's uploaded exchange rates cover (pairs as "GBP→USD"). */
export type RatesSummary = Schemas['RatesInfo'];
export type ExchangeRate = Schemas['ExchangeRateDto'];
/** GET /v1/exchange-rates?limit=&offset= */
export type ExchangeRatesPage = Schemas['ExchangeRatesPage'];
