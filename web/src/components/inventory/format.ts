import type { ResourceCountAccount } from './types';

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** "2026-11-20 14:03 UTC" of UNIX seconds; "" for 0 or a missing time. */
export function formatTime(seconds: number | null | undefined): string {
  if (!seconds) return '';
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.toISOString().slice(0, 10)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** "AWS::EC2::Instance" → "EC2 Instance" (the select and table show both). */
export function typeLabel(resourceType: string): string {
  const parts = resourceType.split('::');
  return parts.length === 3 ? `${parts[1]} ${parts[2]}` : resourceType;
}

export interface FilterOptions {
  accounts: string[];
  regions: string[];
  types: string[];
}

/**
 * The AWS Account, Region and Resource Types options from `POST /v1/resource/count`: regions of
 * the chosen accounts, types of the chosen accounts and regions (everything when All), plus
 * whatever is chosen already.
 */
export function filterOptions(
  counts: readonly ResourceCountAccount[] | undefined,
  chosen: { accounts: readonly string[]; regions: readonly string[]; types: readonly string[] },
): FilterOptions {
  const accounts = new Set<string>(chosen.accounts);
  const regions = new Set<string>(chosen.regions);
  const types = new Set<string>(chosen.types);
  for (const account of counts ?? []) {
    accounts.add(account.account_id);
    if (chosen.accounts.length && !chosen.accounts.includes(account.account_id)) continue;
    for (const region of account.regions) {
      regions.add(region.region);
      if (chosen.regions.length && !chosen.regions.includes(region.region)) continue;
      for (const [type, count] of Object.entries(region.ResourceTypeCounts ?? {})) {
        if (count > 0) types.add(type);
      }
    }
  }
  const sorted = (set: Set<string>) => [...set].sort((a, b) => a.localeCompare(b));
  return { accounts: sorted(accounts), regions: sorted(regions), types: sorted(types) };
}
