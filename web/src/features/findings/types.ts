/**
 * Types of `GET /v1/findings?category=iam|compliance` (issue 14), mirroring the server's
 * `FindingDto` (`crates/server/src/http/findings/dto.rs`) until `schema.gen.ts` is regenerated;
 * then each becomes an alias of `components['schemas'][…]` and `FindingsPaths` is dropped.
 */
import type { ErrorMessage } from '@/components/inventory';
import type { ResourceRef } from '@/components/findings';

/** Which tab a finding belongs to. */
export type FindingCategory = 'iam' | 'compliance';

/** Most severe first: high, medium, low. */
export type Severity = 'high' | 'medium' | 'low';

/** Core's rule names. */
export type FindingKind =
  | 'iam_user_without_mfa'
  | 'iam_access_key_old'
  | 'iam_role_unused'
  | 's3_bucket_public'
  | 'security_group_open_all_traffic'
  | 'security_group_open_admin_port'
  | 'security_group_open_database_port'
  | 'ebs_volume_unencrypted'
  | 'rds_instance_unencrypted';

/** `FindingDto`: one IAM or compliance finding. */
export interface Finding {
  /** Stable across discovery runs. */
  id: string;
  kind: FindingKind;
  category: FindingCategory;
  severity: Severity;
  title: string;
  evidence: string;
  resource: ResourceRef;
}

type Answer<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };

export interface FindingsPaths {
  '/v1/findings': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: { category?: FindingCategory }; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: Answer<Finding[]>; default: Answer<ErrorMessage> };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
