/** The budget API's shapes, generated from the server's OpenAPI document (docs/API-BUDGETS.md). */
import type { components } from '@/api/schema.gen';

type Schemas = components['schemas'];

export type Budget = Schemas['Budget'];
/** The detail page's reading: exceeded over 100 %, warning from 75 %. */
export type DetailStatus = Schemas['DetailStatus'];
export type BudgetRequest = Schemas['BudgetRequest'];
export type BudgetSummary = Schemas['BudgetSummary'];
export type BudgetFilter = Schemas['BudgetFilter'];
export type BudgetFilterType = Schemas['BudgetFilterType'];
export type BudgetPeriod = Schemas['BudgetPeriod'];
export type AlertThreshold = Schemas['AlertThreshold'];
/** What an alert's threshold is compared with: the spend so far or the period's forecast total. */
export type AlertBasis = Schemas['AlertBasis'];
/** The current period's forecast of a budget (docs/ANOMALIES.md); null without enough history. */
export type BudgetForecast = Schemas['BudgetForecast'];
export type ThresholdType = Schemas['ThresholdType'];
export type BudgetHealth = Schemas['BudgetHealth']; // healthy | warning | critical (dashboard bands 75/90)
export type BudgetHistoryItem = Schemas['BudgetHistoryItem'];
export type BudgetAlertHistoryItem = Schemas['BudgetAlertHistoryItem'];
/** One way an alert went out (a channel, or the owners-and-admins e-mail) and how it stands. */
export type BudgetAlertDelivery = Schemas['BudgetAlertDelivery'];
export type BudgetConfigHistoryItem = Schemas['BudgetConfigHistoryItem'];
export type BudgetResourcesResponse = Schemas['BudgetResourcesResponse'];
export type BudgetResource = Schemas['BudgetResource'];
export type FilterParameters = Schemas['FilterParametersResponse'];
/** A notification channel of the tenant (GET /v1/channels), offered by the wizard's channel picker. */
export type NotificationChannel = Schemas['NotificationChannel'];
