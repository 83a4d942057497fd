import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import SavingsOutlinedIcon from '@mui/icons-material/SavingsOutlined';
import { Card, CardContent, Grid, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface Feature {
  title: string;
  text: string;
  icon: ReactNode;
}

const FEATURES: Feature[] = [
  {
    title: 'Cost Visibility',
    text: 'See spend across AWS, GCP and Azure by account, service, region and tag, day by day.',
    icon: <InsightsOutlinedIcon color="primary" />,
  },
  {
    title: 'Cost Optimization',
    text: 'Find idle and oversized resources and the credits, refunds and discounts you are owed.',
    icon: <SavingsOutlinedIcon color="primary" />,
  },
  {
    title: 'Resource Tagging',
    text: 'Keep an inventory of your resources and enforce standard tags so every cost has an owner.',
    icon: <LocalOfferOutlinedIcon color="primary" />,
  },
  {
    title: 'Budget Management',
    text: 'Set budgets per team, project or provider and get alerted before spend crosses a threshold.',
    icon: <AccountBalanceWalletOutlinedIcon color="primary" />,
  },
];

export function FeatureCards() {
  return (
    <Grid container spacing={2}>
      {FEATURES.map((feature) => (
        <Grid key={feature.title} size={{ xs: 12, sm: 6, md: 3 }}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardContent>
              <Stack spacing={1.5}>
                {feature.icon}
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                  {feature.title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {feature.text}
                </Typography>
              </Stack>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
