import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export interface OnboardingStepProps {
  step: number;
  title: string;
  description: ReactNode;
  icon: ReactNode;
  actionLabel: string;
  disabled: boolean;
  onAction: () => void;
}

export function OnboardingStep({ step, title, description, icon, actionLabel, disabled, onAction }: OnboardingStepProps) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }} component="section" aria-labelledby={`onboarding-step-${step}`}>
      <CardContent sx={{ p: 3, height: '100%' }}>
        <Stack spacing={2} sx={{ height: '100%' }}>
          <Stack direction="row" spacing={2} alignItems="center">
            <Box
              sx={{
                width: 44,
                height: 44,
                borderRadius: 2,
                display: 'grid',
                placeItems: 'center',
                bgcolor: 'primary.main',
                color: 'primary.contrastText',
                flexShrink: 0,
              }}
            >
              {icon}
            </Box>
            <Box>
              <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.2 }}>
                Step {step}
              </Typography>
              <Typography variant="h6" component="h2" id={`onboarding-step-${step}`}>
                {title}
              </Typography>
            </Box>
          </Stack>
          <Typography color="text.secondary" component="div" sx={{ flex: 1 }}>
            {description}
          </Typography>
          <Box>
            <Button variant="contained" onClick={onAction} disabled={disabled}>
              {actionLabel}
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
