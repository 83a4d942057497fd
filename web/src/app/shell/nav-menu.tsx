import CloudQueueOutlinedIcon from '@mui/icons-material/CloudQueueOutlined';
import { Box, Button, List, ListItem, ListItemButton, ListItemText, ListSubheader, Typography } from '@mui/material';
import { NavLink, Link as RouterLink } from 'react-router';
import type { NavGroup } from '../navigation';

export interface NavMenuProps {
  groups: NavGroup[];
  /** True while the account list has not loaded yet. */
  loading?: boolean;
  onNavigate?: () => void;
}

export function NavMenu({ groups, loading = false, onNavigate }: NavMenuProps) {
  return (
    <Box component="nav" aria-label="Main navigation" sx={{ py: 1 }}>
      {groups.length === 0 && !loading ? (
        <Box sx={{ p: 2.5 }}>
          <CloudQueueOutlinedIcon color="primary" />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 2 }}>
            Connect a cloud account to explore costs, resources and budgets.
          </Typography>
          <Button component={RouterLink} to="/welcome" size="small" variant="outlined" onClick={onNavigate}>
            Get started
          </Button>
        </Box>
      ) : null}
      {groups.map((group, index) => (
        <List
          key={group.label ?? `group-${index}`}
          dense
          disablePadding
          subheader={
            group.label ? (
              <ListSubheader component="li" sx={{ bgcolor: 'transparent', lineHeight: '32px', mt: 1, fontSize: 12, textTransform: 'uppercase', letterSpacing: '0.06em' }}>
                {group.label}
              </ListSubheader>
            ) : undefined
          }
        >
          {group.items.map((item) => (
            <ListItem key={`${group.label ?? ''}${item.to}`} disablePadding>
              <ListItemButton
                component={NavLink}
                to={item.to}
                onClick={onNavigate}
                sx={{
                  mx: 1,
                  borderRadius: 1.5,
                  '&.active': { bgcolor: 'action.selected', color: 'primary.main', fontWeight: 600 },
                }}
              >
                <ListItemText primary={item.label} slotProps={{ primary: { fontSize: 14, fontWeight: 'inherit' } }} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      ))}
    </Box>
  );
}
