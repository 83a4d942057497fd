import {
  Alert,
  Box,
  LinearProgress,
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
import type { ReactNode } from 'react';
import { formatCurrency } from '@/lib/cost/format';
import { useTagCompliance } from './api';
import { failureText, moneyOrNone, otherCurrenciesText, periodText } from './format';
import { ResourceRefCell } from './resource-ref';
import type { TagViolation, UntaggedMonth } from './types';

export const TAG_COMPLIANCE_MESSAGES = {
  loadFailed: 'Failed to load tag compliance',
  noStandardTags: 'Define standard tags to see which resources miss them or carry a value outside the allowed list.',
  noViolations: 'Every live resource carries each standard tag with an allowed value.',
  noSpend: 'No spend in these months yet.',
  shown: (shown: number, total: number) => `The ${shown} most costly of ${total} violations are listed.`,
} as const;

const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "2026-11" → "Nov 2026". */
export function monthLabel(month: string): string {
  const [year, number] = month.split('-').map(Number);
  if (!year || !number) return month;
  return monthFormat.format(new Date(Date.UTC(year, number - 1, 1)));
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Paper variant="outlined" role="group" aria-label={label} sx={{ p: 2, flex: 1, minWidth: 180 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p">
        {value}
      </Typography>
      {note ? (
        <Typography variant="caption" color="text.secondary">
          {note}
        </Typography>
      ) : null}
    </Paper>
  );
}

function Problem({ violation }: { violation: TagViolation }) {
  if (violation.kind === 'missing') return <>Missing</>;
  return (
    <>
      Invalid value “{violation.value ?? ''}”
    </>
  );
}

function Heading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
      {children}
    </Typography>
  );
}

function UntaggedTable({ months, currency }: { months: readonly UntaggedMonth[]; currency: string }) {
  return (
    <Table size="small" aria-label="Untagged spend by month">
      <TableHead>
        <TableRow>
          <TableCell>Month</TableCell>
          <TableCell align="right">Total spend</TableCell>
          <TableCell align="right">Untagged resources</TableCell>
          <TableCell align="right">Not in the inventory</TableCell>
          <TableCell sx={{ minWidth: 160 }}>Untagged share</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {months.map((month) => (
          <TableRow key={month.month}>
            <TableCell>{monthLabel(month.month)}</TableCell>
            <TableCell align="right">{formatCurrency(month.total_cost, { currency })}</TableCell>
            <TableCell align="right">{formatCurrency(month.untagged_cost, { currency })}</TableCell>
            <TableCell align="right">{formatCurrency(month.not_in_inventory_cost, { currency })}</TableCell>
            <TableCell>
              {month.untagged_share === null ? (
                <Typography variant="body2" color="text.secondary">
                  no spend
                </Typography>
              ) : (
                <Stack direction="row" spacing={1} alignItems="center">
                  <LinearProgress
                    variant="determinate"
                    value={Math.min(100, Math.max(0, month.untagged_share * 100))}
                    aria-label={`Untagged share of ${monthLabel(month.month)}`}
                    sx={{ flex: 1, height: 8, borderRadius: 1 }}
                  />
                  <Typography variant="body2" sx={{ minWidth: 48, textAlign: 'right' }}>
                    {percent(month.untagged_share)}
                  </Typography>
                </Stack>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export interface TagComplianceProps {
  /** How many standard tags are defined (unknown while loading): none → say how to start. */
  standardTagCount?: number;
}

/**
 * Tag compliance (issue 14): resources missing a standard tag or carrying a value outside its
 * list, with the cost they carry, and untagged spend as a share of all spend per month
 * (`GET /v1/tags/compliance`).
 */
export function TagCompliance({ standardTagCount }: TagComplianceProps) {
  const compliance = useTagCompliance();
  const answer = compliance.data;
  const latest = answer?.untagged_by_month.at(-1);
  const currency = answer?.currency ?? 'USD';

  return (
    <Paper variant="outlined" component="section" aria-labelledby="tag-compliance-title" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" id="tag-compliance-title" sx={{ mb: 1.5 }}>
        Tag compliance
      </Typography>
      {compliance.isError ? <Alert severity="error">{failureText(compliance.error, TAG_COMPLIANCE_MESSAGES.loadFailed)}</Alert> : null}
      {compliance.isPending ? <Skeleton aria-label="Loading tag compliance" height={160} /> : null}
      {answer ? (
        <Stack spacing={3}>
          <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', rowGap: 2 }}>
            <Figure label="Standard tag violations" value={String(answer.total_violations)} />
            <Figure
              label="Cost of resources with violations"
              value={formatCurrency(answer.violations_cost, { currency })}
              note={periodText(answer.cost_period)}
            />
            <Figure
              label="Untagged spend this month"
              value={latest?.untagged_share == null ? '–' : percent(latest.untagged_share)}
              note={latest ? `${formatCurrency(latest.untagged_cost + latest.not_in_inventory_cost, { currency })} of ${formatCurrency(latest.total_cost, { currency })}` : undefined}
            />
          </Stack>
          <Box>
            <Heading>Resources breaking a standard tag</Heading>
            {answer.violations.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {standardTagCount === 0 ? TAG_COMPLIANCE_MESSAGES.noStandardTags : TAG_COMPLIANCE_MESSAGES.noViolations}
              </Typography>
            ) : (
              <>
                <Box sx={{ overflowX: 'auto' }}>
                  <Table size="small" aria-label="Standard tag violations">
                    <TableHead>
                      <TableRow>
                        <TableCell>Resource</TableCell>
                        <TableCell>Standard tag</TableCell>
                        <TableCell>Problem</TableCell>
                        <TableCell align="right">Cost (30 days)</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {answer.violations.map((violation) => (
                        <TableRow key={`${violation.standard_tag_id}:${violation.resource.account_id}:${violation.resource.region}:${violation.resource.resource_type}:${violation.resource.resource_id}`}>
                          <TableCell>
                            <ResourceRefCell resource={violation.resource} />
                          </TableCell>
                          <TableCell>{violation.key}</TableCell>
                          <TableCell>
                            <Problem violation={violation} />
                          </TableCell>
                          <TableCell align="right">{moneyOrNone(violation.cost, currency)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
                {answer.total_violations > answer.violations.length ? (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                    {TAG_COMPLIANCE_MESSAGES.shown(answer.violations.length, answer.total_violations)}
                  </Typography>
                ) : null}
              </>
            )}
          </Box>
          <Box>
            <Heading>Untagged spend over time</Heading>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              Spend of resources that carry no tag at all, plus spend of resources the inventory does not know (their tags are unknown), as a share of all spend.
            </Typography>
            {answer.untagged_by_month.some((month) => month.total_cost !== 0) ? (
              <UntaggedTable months={answer.untagged_by_month} currency={currency} />
            ) : (
              <Typography variant="body2" color="text.secondary">
                {TAG_COMPLIANCE_MESSAGES.noSpend}
              </Typography>
            )}
          </Box>
          {answer.other_currencies.length ? (
            <Typography variant="body2" color="text.secondary">
              Amounts in other currencies are left out of these figures: {otherCurrenciesText(answer.other_currencies)}
            </Typography>
          ) : null}
        </Stack>
      ) : null}
    </Paper>
  );
}
