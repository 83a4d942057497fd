/**
 * Request and answer types of the issue 14 API (resource inventory, standard tags, discovery),
 * written from the contract (/work/shared ISSUE14.md "HTTP API") until `schema.gen.ts` is
 * regenerated from the server; then each of these becomes an alias of
 * `components['schemas'][…]` and `InventoryPaths` is dropped (see `api.ts`). Times are UNIX
 * seconds; `d_time` 0 means live.
 */

export type TagOperator = 'Equal' | 'NotEqual' | 'Exists' | 'NotExists' | 'Empty' | 'NotEmpty';

/** One tag condition of `POST /v1/resource` (several are AND-ed). */
export interface TagFilterBody {
  name: string;
  operator: TagOperator;
  /** Only for Equal / Not Equal. */
  value?: string[];
}

export interface ResourceParamFilterBody {
  /** A FlatPath of `GET /v1/resource/params`. */
  name: string;
  eq: string;
}

export type ResourceOrderBy = 'c_time' | 'm_time' | 'd_time' | 'resource_id' | 'resource_type' | 'region' | 'account_id';

/** `POST /v1/resource` and `POST /v1/resource/export` (every field optional). */
export interface ResourceListRequest {
  account_ids?: string[];
  regions?: string[];
  resource_types?: string[];
  /** `{eq: 0}` live, `{not_eq: 0}` deleted, `{lt}` deleted before. */
  d_time?: { eq?: 0; not_eq?: 0; lt?: number };
  c_time?: { lt?: number };
  /** The time-duration picker's window (also the cost period). */
  start_time?: number;
  end_time?: number;
  resource_ids?: string[];
  /** Text of the Resource ID search. */
  search?: string;
  resource_params?: ResourceParamFilterBody[];
  tag?: TagFilterBody[];
  not_tagged?: boolean;
  count?: number;
  offset?: number;
  order_by?: ResourceOrderBy;
  order_desc?: boolean;
}

export interface Resource {
  resource_id: string;
  resource_type: string;
  region: string;
  account_id: string;
  arn?: string | null;
  c_time: number;
  m_time: number;
  /** 0 = live. */
  d_time: number;
  property: Record<string, unknown>;
  tags: Record<string, string>;
  /** Billed cost in the window; null when no line item names the resource. */
  cost: number | null;
}

export interface ResourceListResponse {
  resources: Resource[];
  total: number;
  cost_period: { start_time: number; end_time: number };
  /** The currency of every `cost`: the tenant's main currency. */
  currency: string;
  /** Cost of the listed resources in other currencies, left out of `cost`. */
  other_currencies?: CurrencyAmount[];
}

/** `POST /v1/resource/count`. */
export interface ResourceCountRequest {
  account_ids?: string[];
  all_resources?: boolean;
}

export interface ResourceCountRegion {
  region: string;
  ResourceTypeCounts: Record<string, number>;
}

export interface ResourceCountAccount {
  account_id: string;
  regions: ResourceCountRegion[];
}

/** `POST /v1/resource/property`. */
export interface ResourcePropertyRequest {
  account_ids?: string[];
  resource_id: string;
  resource_type: string;
  region: string;
  order_desc?: boolean;
  order_by?: 'c_time';
  count?: number;
}

export interface PropertySnapshot {
  c_time: number;
  tags: Record<string, string>;
  properties: Record<string, unknown>;
}

/** `GET /v1/resource/params?resourceType=…`. */
export interface ResourceParam {
  resourceType: string;
  DisplayName: string;
  FlatPath: string;
}

/** `POST /v1/resource/stats`. */
export interface ResourceStats {
  live: number;
  deleted: number;
  tagged: number;
  untagged: number;
  by_type: { resource_type: string; live: number }[];
  by_account: { account_id: string; live: number }[];
}

/** `POST /v1/resource/trend`. */
export interface ResourceTrendRequest {
  start_time?: number;
  end_time?: number;
  account_ids?: string[];
}

export interface ResourceTrendPoint {
  /** YYYY-MM-DD. */
  date: string;
  live: number;
  by_type: Record<string, number>;
}

/** `GET /v1/resource/unmatched-spend?start_time&end_time`: spend whose resource is not in the inventory. */
export interface UnmatchedSpend {
  /** The most expensive ones (at most 100), largest first. */
  resources: UnmatchedResource[];
  /** How many resource ids of the period are not in the inventory. */
  resource_count: number;
  /** Their whole billed cost. */
  total: number;
  cost_period: { start_time: number; end_time: number };
  currency: string;
  other_currencies?: CurrencyAmount[];
}

export interface UnmatchedResource {
  resource_id: string;
  /** AWS, GCP or Azure. */
  cloud_provider: string;
  account_id: string;
  service: string;
  cost: number;
}

export interface CurrencyAmount {
  currency: string;
  amount: number;
}

/** Standard tags (`/tags/standard`). */
export interface StandardTag {
  id: number;
  key: string;
  values: string[];
}

export interface StandardTagRequest {
  key: string;
  values: string[];
}

/** `GET /tags/standard/stats`. */
export interface StandardTagStats {
  id: number;
  key: string;
  compliant: number;
  missing: number;
  invalid: number;
  missing_cost: number;
  invalid_cost: number;
}

/** `POST /v1/job` answers. */
export interface JobTriggerResponse {
  data?: boolean | { details?: string };
  message?: string;
}

export interface ErrorMessage {
  message: string;
}

// ---- openapi-fetch paths for the calls above (what `schema.gen.ts` will hold) ----

type Json<T> = { content: { 'application/json': T } };
type Answer<T> = { headers: { [name: string]: unknown } } & Json<T>;
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type Unused = { get?: never; put?: never; post?: never; delete?: never; options?: never; head?: never; patch?: never; trace?: never };

type PostJson<Req, Res, Status extends number = 200> = {
  parameters: NoParams;
  requestBody: Json<Req>;
  responses: { [S in Status]: Answer<Res> } & { default: Answer<ErrorMessage> };
};

type Route<Ops> = Omit<Unused, keyof Ops> & { parameters: NoParams } & Ops;

export interface InventoryPaths {
  '/v1/resource': Route<{ post: PostJson<ResourceListRequest, ResourceListResponse> }>;
  '/v1/resource/export': Route<{
    post: {
      parameters: NoParams;
      requestBody: Json<ResourceListRequest>;
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'text/csv': string } } };
    };
  }>;
  '/v1/resource/count': Route<{ post: PostJson<ResourceCountRequest, ResourceCountAccount[]> }>;
  '/v1/resource/property': Route<{ post: PostJson<ResourcePropertyRequest, PropertySnapshot[]> }>;
  '/v1/resource/params': Route<{
    get: {
      parameters: { query?: { resourceType?: string[] }; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: Answer<ResourceParam[]> };
    };
  }>;
  '/v1/resource/stats': Route<{ post: PostJson<{ account_ids?: string[] }, ResourceStats> }>;
  '/v1/resource/trend': Route<{ post: PostJson<ResourceTrendRequest, ResourceTrendPoint[]> }>;
  '/v1/resource/unmatched-spend': Route<{
    get: {
      parameters: { query?: { start_time?: number; end_time?: number }; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: Answer<UnmatchedSpend> };
    };
  }>;
  '/v1/job': Route<{
    post: { parameters: NoParams; requestBody?: never; responses: { 202: Answer<JobTriggerResponse> } };
  }>;
  '/tags/standard': Route<{
    get: { parameters: NoParams; requestBody?: never; responses: { 200: Answer<StandardTag[]> } };
    post: PostJson<StandardTagRequest, StandardTag, 201>;
  }>;
  '/tags/standard/stats': Route<{
    get: { parameters: NoParams; requestBody?: never; responses: { 200: Answer<StandardTagStats[]> } };
  }>;
  '/tags/standard/{id}': {
    parameters: NoParams;
    get?: never;
    post?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
    put: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never };
      requestBody: Json<StandardTagRequest>;
      responses: { 200: Answer<StandardTag> };
    };
    delete: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never };
      requestBody?: never;
      responses: { 204: { headers: { [name: string]: unknown }; content?: never } };
    };
  };
}
