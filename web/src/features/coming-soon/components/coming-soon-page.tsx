import ConstructionOutlinedIcon from '@mui/icons-material/ConstructionOutlined';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';

export interface ComingSoonPageProps {
  /** The feature's name, e.g. "Budgets". */
  feature: string;
  /** One sentence on what the feature will do. */
  description?: string;
}

/** An honest placeholder for a capability that is not built yet: no sample data, no numbers. */
export function ComingSoonPage({ feature, description }: ComingSoonPageProps) {
  return (
    <Box>
      <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
        {feature}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 6 }, textAlign: 'center' }}>
        <Stack spacing={2} alignItems="center" sx={{ maxWidth: 560, mx: 'auto' }}>
          <ConstructionOutlinedIcon color="primary" sx={{ fontSize: 56 }} />
          <Chip label="Coming soon" color="primary" variant="outlined" />
          <Typography variant="h6" component="h2">
            {feature} is coming soon
          </Typography>
          {description ? <Typography color="text.secondary">{description}</Typography> : null}
          <Typography color="text.secondary">
            This part of Costscope is not available in this version yet. When it arrives it will work from your own
            connected accounts and billing data — nothing here is simulated.
          </Typography>
          <Button component={RouterLink} to="/welcome" variant="outlined">
            Back to getting started
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
