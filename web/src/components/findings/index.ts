export { SavingsRecommendations, RECOMMENDATION_MESSAGES, KIND_LABELS } from './recommendations';
export { TagCompliance, TAG_COMPLIANCE_MESSAGES, monthLabel, type TagComplianceProps } from './tag-compliance';
export { ResourceLink, ResourceRefCell } from './resource-ref';
export { NO_BILLED_COST, moneyOrNone, otherCurrenciesText } from './format';
export { savingsApi, savingsKeys, useTagCompliance } from './api';
export type * from './types';
