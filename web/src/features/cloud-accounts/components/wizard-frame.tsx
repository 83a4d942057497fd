import { Paper, Step, StepLabel, Stepper } from '@mui/material';
import type { ReactNode } from 'react';

/** The connect wizards' frame: the steps, then the current one. */
export function WizardFrame({ steps, active, children }: { steps: readonly string[]; active: number; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stepper activeStep={active} sx={{ mb: 3 }}>
        {steps.map((label, index) => (
          <Step key={label} completed={index < active}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {children}
    </Paper>
  );
}
