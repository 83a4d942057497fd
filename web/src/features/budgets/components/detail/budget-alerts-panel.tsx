import NotificationsActiveOutlinedIcon from '@mui/icons-material/NotificationsActiveOutlined';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import { Box, Chip, List, ListItem, ListItemIcon, ListItemText, Skeleton, Stack, Typography } from '@mui/material';
import { alertDescription, alertLabel, isForecasted } from '../../model/alerts';
import type { Budget, BudgetAlertHistoryItem } from '../../model/types';
import { AlertDeliveries } from './alert-deliveries';
import { alertStatusText, alertStatuses } from './alert-status';
import { DetailPanel } from './detail-panel';

export interface BudgetAlertsPanelProps {
  budget: Budget;
  /** The alert history; undefined while it loads. */
  history: readonly BudgetAlertHistoryItem[] | undefined;
}

/**
 * Spec 2 §2: each alert, triggered ones first, with its latest trigger or its distance, a
 * Forecasted alert tagged so (docs/ANOMALIES.md); under a trigger, how it went out
 * (docs/NOTIFICATIONS.md: the alert history's `deliveries`).
 */
export function BudgetAlertsPanel({ budget, history }: BudgetAlertsPanelProps) {
  return (
    <DetailPanel title="Alerts">
      {budget.alerts.length === 0 ? (
        <Typography color="text.secondary">No alerts configured.</Typography>
      ) : history === undefined ? (
        <Stack spacing={1} aria-label="Loading alerts">
          {budget.alerts.map((_, index) => (
            <Skeleton key={index} variant="rounded" height={48} />
          ))}
        </Stack>
      ) : (
        <List disablePadding>
          {alertStatuses(budget, history).map((status, index) => (
            <ListItem key={`${status.alert.thresholdType}-${status.alert.thresholdValue}-${index}`} divider disableGutters>
              <ListItemIcon sx={{ minWidth: 36 }}>
                {status.triggered ? (
                  <NotificationsActiveOutlinedIcon color="error" />
                ) : (
                  <NotificationsNoneOutlinedIcon color="disabled" />
                )}
              </ListItemIcon>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} alignItems="center" component="span">
                      <span>{alertLabel(status.alert)}</span>
                      {isForecasted(status.alert) ? <Chip label="Forecasted" size="small" variant="outlined" color="info" /> : null}
                    </Stack>
                  }
                  secondary={alertStatusText(status, budget)}
                />
                {status.latestTrigger ? (
                  <AlertDeliveries
                    deliveries={status.latestTrigger.deliveries}
                    label={`Deliveries of the ${alertDescription(status.alert)} alert`}
                  />
                ) : null}
              </Box>
            </ListItem>
          ))}
        </List>
      )}
    </DetailPanel>
  );
}
