import AddIcon from '@mui/icons-material/Add';
import { Button, Chip, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import type { ThresholdType } from '../../model/types';
import { addAlertError, hasPercentageAlert, SUGGESTED_THRESHOLDS, type WizardAlert } from '../../model/wizard';
import { AlertRow } from './alert-row';
import { AlertTypeDialog } from './alert-type-dialog';
import type { WizardCommands } from './use-wizard-form';

export interface AlertsEditorProps {
  alerts: WizardAlert[];
  /** Alert id → its broken rule. */
  errors: Record<string, string>;
  commands: Pick<WizardCommands, 'addAlert' | 'removeAlert' | 'setAlertValue' | 'switchAlertType' | 'setAlertBasis'>;
}

interface PendingSwitch {
  id: string;
  type: ThresholdType;
}

/** The alert thresholds of step 2, with the suggested quick picks and the % ↔ $ confirmation. */
export function AlertsEditor({ alerts, errors, commands }: AlertsEditorProps) {
  const [pendingSwitch, setPendingSwitch] = useState<PendingSwitch | null>(null);
  const addBlocked = addAlertError(alerts);

  return (
    <Stack spacing={2} component="section" aria-labelledby="budget-alerts-heading">
      <Typography id="budget-alerts-heading" variant="subtitle1" component="h2">
        Alerts
      </Typography>
      {alerts.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No alerts: this budget never notifies.
        </Typography>
      ) : null}
      {alerts.map((alert, index) => (
        <AlertRow
          key={alert.id}
          position={index + 1}
          alert={alert}
          error={errors[alert.id]}
          onValueChange={(value) => commands.setAlertValue(alert.id, value)}
          onTypeSwitch={(type) => setPendingSwitch({ id: alert.id, type })}
          onBasisChange={(basis) => commands.setAlertBasis(alert.id, basis)}
          onRemove={() => commands.removeAlert(alert.id)}
        />
      ))}
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Button startIcon={<AddIcon />} disabled={addBlocked !== null} onClick={() => commands.addAlert()}>
          Add Alert
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ ml: 1 }}>
          Suggested thresholds:
        </Typography>
        {SUGGESTED_THRESHOLDS.map((value) => (
          <Chip
            key={value}
            label={`${value}%`}
            size="small"
            variant="outlined"
            aria-label={`Add ${value}% alert`}
            disabled={addBlocked !== null || hasPercentageAlert(alerts, value)}
            onClick={() => commands.addAlert(value)}
          />
        ))}
      </Stack>
      {addBlocked ? (
        <Typography variant="body2" color="text.secondary">
          {addBlocked}
        </Typography>
      ) : null}
      {pendingSwitch ? (
        <AlertTypeDialog
          target={pendingSwitch.type}
          onCancel={() => setPendingSwitch(null)}
          onConfirm={() => {
            commands.switchAlertType(pendingSwitch.id, pendingSwitch.type);
            setPendingSwitch(null);
          }}
        />
      ) : null}
    </Stack>
  );
}
