/**
 * Request and answer types of the savings and tag-compliance calls (issue 14), mirroring the
 * server's DTOs in `crates/server/src/http/findings/dto.rs` until `schema.gen.ts` is regenerated;
 * then each becomes an alias of `components['schemas'][…]` and `SavingsPaths` is dropped (see
 * `api.ts`). Money is in `currency` (the tenant's main currency).
 */
import type { CurrencyAmount, ErrorMessage } from '@/components/inventory';

/** `ResourceRefDto`: the inventory's key of the resource a finding or recommendation is about. */
export interface ResourceRef {
  resource_id: string;
  resource_type: string;
  region: string;
  account_id: string;
}

/** `CostPeriod` (UNIX seconds). */
export interface CostPeriod {
  start_time: number;
  end_time: number;
}

/** `RecommendationKind` (core's snake_case names). */
export type RecommendationKind =
  | 'unattached_volume'
  | 'unassociated_elastic_ip'
  | 'orphaned_snapshot'
  | 'gp2_volume'
  | 'previous_generation_instance'
  | 'stopped_instance_volumes'
  | 'idle_instance';

/** `RecommendationDto`: one savings recommendation. */
export interface Recommendation {
  /** Stable across discovery runs; the `{id}` of the dismiss calls. */
  id: string;
  kind: RecommendationKind;
  title: string;
  evidence: string;
  /** How to act. */
  action: string;
  /** Per 30 days in `currency`, from the resource's own billed cost; null when no line item names it. */
  monthly_saving: number | null;
  currency: string;
  /** Dismissed by someone of the tenant (left out of `total_monthly_saving`). */
  dismissed: boolean;
  resource: ResourceRef;
}

/** `GET /v1/savings`. */
export interface SavingsResponse {
  /** Largest saving first; dismissed ones included (flagged). */
  recommendations: Recommendation[];
  /** The sum of the savings of the recommendations not dismissed. */
  total_monthly_saving: number;
  currency: string;
  /** The 30 days whose billed cost the savings come from. */
  cost_period: CostPeriod;
  /** Billed cost of these resources in other currencies, left out of every saving. */
  other_currencies: CurrencyAmount[];
}

/** `TagViolationKind`. */
export type TagViolationKind = 'missing' | 'invalid_value';

/** `TagViolationDto`: one resource breaking one standard tag. */
export interface TagViolation {
  standard_tag_id: number;
  key: string;
  kind: TagViolationKind;
  /** The value it carries (`invalid_value` only). */
  value: string | null;
  /** Billed cost of the last 30 days; null when no line item names the resource. */
  cost: number | null;
  resource: ResourceRef;
}

/** `UntaggedMonthDto`: one calendar month of spend and the part of it no tag accounts for. */
export interface UntaggedMonth {
  /** YYYY-MM. */
  month: string;
  total_cost: number;
  /** Cost of inventory resources that carry no tag at all. */
  untagged_cost: number;
  /** Cost of line items naming a resource the inventory does not know. */
  not_in_inventory_cost: number;
  /** `(untagged_cost + not_in_inventory_cost) / total_cost`; null when the month has no spend. */
  untagged_share: number | null;
}

/** `GET /v1/tags/compliance?months=&limit=`. */
export interface TagComplianceRequest {
  /** 1 to 24, default 6. */
  months?: number;
  /** 1 to 1000, default 200. */
  limit?: number;
}

/** `TagComplianceResponse`. */
export interface TagComplianceResponse {
  /** Most costly first (those without a cost last), at most `limit`. */
  violations: TagViolation[];
  /** All violations, not only those listed. */
  total_violations: number;
  /** Billed cost of the last 30 days of the resources with at least one violation. */
  violations_cost: number;
  cost_period: CostPeriod;
  /** Oldest month first. */
  untagged_by_month: UntaggedMonth[];
  currency: string;
  other_currencies: CurrencyAmount[];
}

// ---- openapi-fetch paths for the calls above (what `schema.gen.ts` will hold) ----

type Answer<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type NoContent = { headers: { [name: string]: unknown }; content?: never };
type Unused = { put?: never; patch?: never; options?: never; head?: never; trace?: never };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type IdPath = { query?: never; header?: never; path: { id: string }; cookie?: never };

export interface SavingsPaths {
  '/v1/savings': Unused & {
    parameters: NoParams;
    post?: never;
    delete?: never;
    get: { parameters: NoParams; requestBody?: never; responses: { 200: Answer<SavingsResponse>; default: Answer<ErrorMessage> } };
  };
  '/v1/savings/{id}/dismiss': Unused & {
    parameters: NoParams;
    get?: never;
    post: { parameters: IdPath; requestBody?: never; responses: { 204: NoContent; default: Answer<ErrorMessage> } };
    delete: { parameters: IdPath; requestBody?: never; responses: { 204: NoContent; default: Answer<ErrorMessage> } };
  };
  '/v1/tags/compliance': Unused & {
    parameters: NoParams;
    post?: never;
    delete?: never;
    get: {
      parameters: { query?: TagComplianceRequest; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: Answer<TagComplianceResponse>; default: Answer<ErrorMessage> };
    };
  };
}
