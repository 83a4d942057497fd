import type { FeatureFlags, PublicConfig } from '@/api/types';
import { useAppConfig } from '@/api/queries';

export type FlagName = keyof FeatureFlags;

export function useFeatureFlags(): FeatureFlags {
  return useAppConfig().features;
}

/** Compliance is offered only to the customers listed in the server configuration. */
export function isComplianceCustomer(config: Pick<PublicConfig, 'compliance_customer_ids'>, customerId: number | undefined): boolean {
  return customerId !== undefined && config.compliance_customer_ids.includes(customerId);
}
