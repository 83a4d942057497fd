import { Card, CardContent, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export interface DashboardCardProps {
  title: string;
  /** Shown at the right of the title (e.g. a view toggle). */
  action?: ReactNode;
  children: ReactNode;
}

/** A titled card of the dashboard; a region named after its title. */
export function DashboardCard({ title, action, children }: DashboardCardProps) {
  return (
    <Card component="section" aria-label={title} variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between" sx={{ mb: 1.5, minHeight: 32 }}>
          <Typography variant="subtitle1" component="h2" fontWeight={600}>
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}
