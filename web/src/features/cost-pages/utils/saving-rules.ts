/**
 * What the cost data alone says about savings (docs/WEB-COST.md "Decided details"): usage types
 * that name a previous-generation instance family, and compute billed at on-demand rates.
 * Providers are the codes of the cost API (`aws`, `gcp`, `azure`).
 */

/** AWS families that AWS lists as previous generation (EC2, and the same families on RDS/ElastiCache). */
const AWS_PREVIOUS_FAMILIES = new Set([
  't1', 't2', 'm1', 'm2', 'm3', 'm4', 'c1', 'c3', 'c4', 'r3', 'r4', 'i2', 'd2', 'g2', 'g3', 'p2', 'x1',
  'cc2', 'cg1', 'cr1', 'hi1', 'hs1',
]);

const AWS_SIZE = /(?:^|[:.\-])(?:db\.|cache\.|search\.)?([a-z][a-z0-9]*)\.(?:nano|micro|small|medium|large|\d*xlarge|metal)\b/;

/** GCP SKU descriptions: N1 machine types and the shared-core f1-micro / g1-small. */
const GCP_RULES: ReadonlyArray<{ pattern: RegExp; family: string }> = [
  { pattern: /\bN1\b/, family: 'N1' },
  { pattern: /^(?:Preemptible |Spot Preemptible )?Micro Instance with burstable CPU\b/i, family: 'F1' },
  { pattern: /^(?:Preemptible |Spot Preemptible )?Small Instance with 1 VCPU\b/i, family: 'G1' },
];

/**
 * Azure meter names of the first-generation series: A0–A11, D1–D14, DS1–DS14, G1–G5, GS1–GS5,
 * NC and NV (v1) and H; a name with a version (`D4s v5`, `A2 v2`) is a current series.
 */
const AZURE_PREVIOUS = /^(?:(?:Standard|Basic)[_ ])?(A\d{1,2}|DS?\d{1,2}|GS?\d|NC\d{1,2}r?|NV\d{1,2}|H\d{1,2}m?r?)(?:\s+(?:Low Priority|Spot))?$/i;

function azureSeries(size: string): string {
  const match = /^([A-Z]+)/i.exec(size);
  return match ? match[1].toUpperCase() : size;
}

/** The previous-generation family a usage type names, or null. */
export function previousGenerationFamily(provider: string, usageType: string): string | null {
  const type = usageType.trim();
  switch (provider.toLowerCase()) {
    case 'aws': {
      const match = AWS_SIZE.exec(type);
      return match && AWS_PREVIOUS_FAMILIES.has(match[1]) ? match[1] : null;
    }
    case 'gcp':
      return GCP_RULES.find((rule) => rule.pattern.test(type))?.family ?? null;
    case 'azure': {
      const match = AZURE_PREVIOUS.exec(type);
      return match ? azureSeries(match[1]) : null;
    }
    default:
      return null;
  }
}

/** AWS usage types of instances billed per hour at on-demand rates (EC2, RDS, ElastiCache). */
const AWS_ON_DEMAND = /(?:^|-)(?:BoxUsage|DedicatedUsage|InstanceUsage|Multi-AZUsage|NodeUsage)(?::|$)/;

/** GCP Compute Engine core and memory SKUs that no commitment, spot or preemptible price covers. */
const GCP_INSTANCE = /\bInstance (?:Core|Ram)\b/i;
const GCP_NOT_ON_DEMAND = /\b(?:Preemptible|Spot|Commitment)\b/i;

/**
 * Whether a usage row is compute billed at on-demand rates. Only `Usage` (AWS) and `regular`
 * (GCP) charges count: AWS `DiscountedUsage` and `SavingsPlanCoveredUsage` are already covered.
 */
export function isOnDemandUsage(provider: string, usageType: string): boolean {
  switch (provider.toLowerCase()) {
    case 'aws':
      return AWS_ON_DEMAND.test(usageType);
    case 'gcp':
      return GCP_INSTANCE.test(usageType) && !GCP_NOT_ON_DEMAND.test(usageType);
    default:
      return false;
  }
}

/** The charge types whose rows the usage rules look at (AWS/Azure `Usage`, GCP `regular`). */
export const ON_DEMAND_CHARGE_TYPES = ['Usage', 'regular'];
