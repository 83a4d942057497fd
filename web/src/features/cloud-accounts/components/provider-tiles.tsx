import CloudOutlinedIcon from '@mui/icons-material/CloudOutlined';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import { Box, Button, Card, CardContent, Grid, Stack, Tooltip, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface Tile {
  key: string;
  title: string;
  text: string;
  icon: ReactNode;
  /** `needsAdmin`: owners and admins only; `demoToo`: also in the demo (the server allows it there). */
  action?: { label: string; to: string; needsAdmin: boolean; demoToo?: boolean };
}

const TILES: Tile[] = [
  {
    key: 'aws',
    title: 'AWS',
    text: 'A single account or a whole organisation, through a read-only IAM role and a daily billing export.',
    icon: <CloudOutlinedIcon />,
    action: { label: 'Connect AWS', to: '/settings/aws-connect', needsAdmin: true },
  },
  {
    key: 'gcp',
    title: 'GCP',
    text: 'A project whose Cloud Billing export lands in BigQuery, read with a service account key.',
    icon: <CloudOutlinedIcon />,
    action: { label: 'Connect GCP', to: '/settings/gcp-connect', needsAdmin: true },
  },
  {
    key: 'azure',
    title: 'Azure',
    text: 'A Cost Management export in a storage account, read with a SAS token or a service principal.',
    icon: <CloudOutlinedIcon />,
    action: { label: 'Connect Azure', to: '/settings/azure-connect', needsAdmin: true },
  },
  {
    key: 'teams',
    title: 'MS Teams',
    text: 'Budget alerts and notifications in a Microsoft Teams channel, posted through Microsoft Graph.',
    icon: <ForumOutlinedIcon />,
    action: { label: 'Connect MS Teams', to: '/settings/ms-teams-connect', needsAdmin: true, demoToo: true },
  },
  {
    key: 'upload',
    title: 'Upload billing files',
    text: 'Load FOCUS, AWS CUR, GCP or Azure export files you downloaded yourself.',
    icon: <CloudUploadOutlinedIcon />,
    action: { label: 'Upload billing files', to: '/settings/billing-data', needsAdmin: false },
  },
];

export interface ProviderTilesProps {
  canManage: boolean;
  /** An owner or admin (the demo's too): Microsoft Teams is not a cloud account. */
  adminLevel: boolean;
  disabledReason: string | null;
  onOpen: (to: string) => void;
}

/** Every way in: connect AWS, GCP, Azure or a Microsoft Teams channel, or upload files. */
export function ProviderTiles({ canManage, adminLevel, disabledReason, onOpen }: ProviderTilesProps) {
  return (
    <Grid container spacing={2} sx={{ mb: 4 }}>
      {TILES.map((tile) => {
        const disabled = Boolean(tile.action?.needsAdmin && !(tile.action.demoToo ? adminLevel : canManage));
        const button = tile.action ? (
          <Button variant={tile.action.needsAdmin ? 'contained' : 'outlined'} disabled={disabled} onClick={() => onOpen(tile.action!.to)}>
            {tile.action.label}
          </Button>
        ) : null;
        return (
          <Grid key={tile.key} size={{ xs: 12, sm: 6, md: 4, lg: 2.4 }}>
            <Card variant="outlined" sx={{ height: '100%' }} component="section" aria-labelledby={`tile-${tile.key}`}>
              <CardContent sx={{ height: '100%' }}>
                <Stack spacing={1.5} sx={{ height: '100%' }}>
                  <Stack direction="row" spacing={1} alignItems="center">
                    <Box sx={{ color: 'primary.main', display: 'flex' }}>{tile.icon}</Box>
                    <Typography variant="subtitle1" component="h2" id={`tile-${tile.key}`} sx={{ fontWeight: 600 }}>
                      {tile.title}
                    </Typography>
                  </Stack>
                  <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
                    {tile.text}
                  </Typography>
                  {button ? (
                    <Box>{disabled && disabledReason ? <Tooltip title={disabledReason}><span>{button}</span></Tooltip> : button}</Box>
                  ) : null}
                </Stack>
              </CardContent>
            </Card>
          </Grid>
        );
      })}
    </Grid>
  );
}
