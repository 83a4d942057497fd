/**
 * Links that open one resource's side panel on `/inventory` (findings, savings and tag
 * violations link here): `/inventory?account=…&region=…&type=…&resource=…`.
 */

/** The inventory's key of a resource. */
export interface ResourceKeyRef {
  account_id: string;
  region: string;
  resource_type: string;
  resource_id: string;
}

const PARAMS = { account_id: 'account', region: 'region', resource_type: 'type', resource_id: 'resource' } as const;

/** The `/inventory` URL that opens `resource`'s side panel. */
export function resourceHref(resource: ResourceKeyRef): string {
  const search = new URLSearchParams();
  for (const [field, param] of Object.entries(PARAMS) as [keyof ResourceKeyRef, string][]) {
    search.set(param, resource[field]);
  }
  return `/inventory?${search.toString()}`;
}

/** The resource a `/inventory` URL opens; null unless all four parts are there. */
export function resourceFromSearch(search: URLSearchParams): ResourceKeyRef | null {
  const account_id = search.get(PARAMS.account_id)?.trim();
  const region = search.get(PARAMS.region)?.trim();
  const resource_type = search.get(PARAMS.resource_type)?.trim();
  const resource_id = search.get(PARAMS.resource_id)?.trim();
  if (!account_id || !region || !resource_type || !resource_id) return null;
  return { account_id, region, resource_type, resource_id };
}
