import {
  Alert,
  Box,
  Chip,
  Link,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { isApiError } from '@/api/api-error';
import { ResourceLink } from '@/components/findings';
import { DiscoverButton, typeLabel } from '@/components/inventory';
import { PageHeader } from '@/components/page-header';
import { useFindings } from '../api/get-findings';
import { useResourceStats } from '../api/get-resource-stats';
import type { Finding, FindingCategory, Severity } from '../types';

export const SEVERITIES: ReadonlyArray<{ value: Severity; label: string }> = [
  { value: 'high', label: 'High' },
  { value: 'medium', label: 'Medium' },
  { value: 'low', label: 'Low' },
];

const SEVERITY_COLOURS: Record<Severity, 'error' | 'warning' | 'info'> = { high: 'error', medium: 'warning', low: 'info' };

interface CategoryText {
  title: string;
  subtitle: string;
  /** The resource types the category's rules read. */
  types: readonly string[];
  /** What they are, in words ("IAM users, access keys or roles"). */
  typesText: string;
  /** Nothing found among resources that were checked. */
  clean: string;
}

export const FINDINGS_TEXT: Record<FindingCategory, CategoryText> = {
  iam: {
    title: 'IAM',
    subtitle:
      'IAM users without MFA, access keys older than 90 days and roles unused for 90 days, from the resources discovery found in your AWS accounts.',
    types: ['AWS::IAM::User', 'AWS::IAM::AccessKey', 'AWS::IAM::Role'],
    typesText: 'IAM users, access keys or roles',
    clean:
      'No IAM findings. Every IAM user who signs in to the console has MFA, no active access key is older than 90 days, and no role (service-linked roles aside) has gone unused for more than 90 days.',
  },
  compliance: {
    title: 'Compliance',
    subtitle:
      'Publicly readable S3 buckets, security groups open to the internet on administrative, database or all ports, and unencrypted EBS volumes and RDS instances.',
    types: ['AWS::S3::Bucket', 'AWS::EC2::SecurityGroup', 'AWS::EC2::Volume', 'AWS::RDS::DBInstance'],
    typesText: 'S3 buckets, security groups, EBS volumes or RDS instances',
    clean:
      'No compliance findings. No S3 bucket is publicly readable, no security group is open to the internet on administrative, database or all ports, and every EBS volume and RDS instance is encrypted.',
  },
};

export const FINDINGS_MESSAGES = {
  loadFailed: 'Failed to load findings',
  nothingDiscovered: (typesText: string) =>
    `Nothing to check yet: discovery has not found any ${typesText} in your AWS accounts. Run discovery, then come back to this page.`,
  checked: (count: number, typesText: string) => `${count} live ${count === 1 ? 'resource' : 'resources'} checked (${typesText.replace(' or ', ' and ')}).`,
} as const;

function SeverityTable({ severity, label, findings }: { severity: Severity; label: string; findings: readonly Finding[] }) {
  const title = `${label} severity`;
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1.5 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Chip size="small" color={SEVERITY_COLOURS[severity]} label={findings.length} aria-label={`${findings.length} ${label.toLowerCase()} severity findings`} />
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={`${title} findings`}>
          <TableHead>
            <TableRow>
              <TableCell>Finding</TableCell>
              <TableCell>Resource Type</TableCell>
              <TableCell>Resource ID</TableCell>
              <TableCell>AWS Account</TableCell>
              <TableCell>Region</TableCell>
              <TableCell>Evidence</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {findings.map((finding) => (
              <TableRow key={finding.id}>
                <TableCell sx={{ minWidth: 220, fontWeight: 500 }}>{finding.title}</TableCell>
                <TableCell title={finding.resource.resource_type} sx={{ whiteSpace: 'nowrap' }}>
                  {typeLabel(finding.resource.resource_type)}
                </TableCell>
                <TableCell sx={{ maxWidth: 260 }}>
                  <ResourceLink resource={finding.resource} />
                </TableCell>
                <TableCell>{finding.resource.account_id}</TableCell>
                <TableCell>{finding.resource.region}</TableCell>
                <TableCell sx={{ minWidth: 260 }}>
                  <Typography variant="body2" color="text.secondary">
                    {finding.evidence}
                  </Typography>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Paper>
  );
}

function Empty({ text }: { text: CategoryText }) {
  const stats = useResourceStats();
  if (stats.isPending) return <Skeleton aria-label="Loading resource statistics" height={60} />;
  const checked = stats.data?.by_type.filter((row) => text.types.includes(row.resource_type)).reduce((sum, row) => sum + row.live, 0);
  if (checked === 0) {
    return (
      <Alert severity="info" action={<DiscoverButton />}>
        {FINDINGS_MESSAGES.nothingDiscovered(text.typesText)}{' '}
        <Link component={RouterLink} to="/inventory">
          Open the Resource Inventory
        </Link>
      </Alert>
    );
  }
  return (
    <Alert severity="success">
      {text.clean}
      {checked === undefined ? null : ` ${FINDINGS_MESSAGES.checked(checked, text.typesText)}`}
    </Alert>
  );
}

/**
 * The IAM and Compliance tabs (spec 1 §2.6, built natively on the discovered resources; issue
 * 14): findings by severity, each with its resource (linked to the inventory) and evidence.
 */
export function FindingsPage({ category }: { category: FindingCategory }) {
  const text = FINDINGS_TEXT[category];
  const findings = useFindings(category);
  const all = findings.data ?? [];

  return (
    <>
      <PageHeader title={text.title} subtitle={text.subtitle} />
      {findings.isError ? (
        <Alert severity="error">
          {isApiError(findings.error) && findings.error.serverMessage ? findings.error.serverMessage : FINDINGS_MESSAGES.loadFailed}
        </Alert>
      ) : null}
      {findings.isPending ? <Skeleton aria-label="Loading findings" height={160} /> : null}
      {findings.data ? (
        all.length === 0 ? (
          <Empty text={text} />
        ) : (
          <Stack spacing={3}>
            <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', rowGap: 2 }}>
              {SEVERITIES.map(({ value, label }) => (
                <Paper key={value} variant="outlined" role="group" aria-label={label} sx={{ p: 2, flex: 1, minWidth: 140 }}>
                  <Typography variant="body2" color="text.secondary">
                    {label}
                  </Typography>
                  <Typography variant="h5" component="p">
                    {all.filter((finding) => finding.severity === value).length}
                  </Typography>
                </Paper>
              ))}
            </Stack>
            {SEVERITIES.map(({ value, label }) => {
              const rows = all.filter((finding) => finding.severity === value);
              return rows.length ? <SeverityTable key={value} severity={value} label={label} findings={rows} /> : null;
            })}
          </Stack>
        )
      ) : null}
    </>
  );
}

export function IamPage() {
  return <FindingsPage category="iam" />;
}

export function CompliancePage() {
  return <FindingsPage category="compliance" />;
}
