import { Breadcrumbs, Link, Typography } from '@mui/material';
import type { DrillStep } from '@/lib/cost';
import { ALL_COSTS_CRUMB, crumbLabel } from '../utils/drill-state';

export interface DrillBreadcrumbProps {
  /** The drill-down path (its steps still applied); nothing is shown without one. */
  path: DrillStep[];
  /** A crumb was clicked: keep that many steps (0 = All costs). */
  onStepBack(keep: number): void;
}

/** "All costs › Service: AmazonEC2 › Usage type: BoxUsage:m5.large" above the chart; every crumb but the last steps back. */
export function DrillBreadcrumb({ path, onStepBack }: DrillBreadcrumbProps) {
  if (path.length === 0) return null;
  const crumbs = [ALL_COSTS_CRUMB, ...path.map(crumbLabel)];
  return (
    <Breadcrumbs aria-label="Drill-down path" separator="›" sx={{ mb: 2 }}>
      {crumbs.map((label, keep) =>
        keep === crumbs.length - 1 ? (
          <Typography key={keep} color="text.primary" aria-current="location">
            {label}
          </Typography>
        ) : (
          <Link key={keep} component="button" type="button" underline="hover" onClick={() => onStepBack(keep)}>
            {label}
          </Link>
        ),
      )}
    </Breadcrumbs>
  );
}
