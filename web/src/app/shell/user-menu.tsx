import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import CurrencyExchangeIcon from '@mui/icons-material/CurrencyExchange';
import EventNoteOutlinedIcon from '@mui/icons-material/EventNoteOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import SettingsEthernetIcon from '@mui/icons-material/SettingsEthernet';
import { Avatar, Divider, IconButton, ListItemIcon, ListSubheader, Menu, MenuItem, Typography } from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { User } from '@/api/types';
import { initials } from '@/lib/initials';

export interface UserMenuProps {
  user: Pick<User, 'name' | 'email'> | undefined;
  onSignOut: () => void;
}

export function UserMenu({ user, onSignOut }: UserMenuProps) {
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const go = (to: string) => {
    close();
    navigate(to);
  };

  return (
    <>
      <IconButton
        aria-label="Open user menu"
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        size="small"
      >
        <Avatar sx={{ width: 36, height: 36, bgcolor: 'secondary.dark', fontSize: 15, fontWeight: 600 }}>
          {initials(user?.name) || '?'}
        </Avatar>
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 240, mt: 1 } } }}
      >
        {user ? (
          // A list subheader, so that the menu skips it (a plain box would be given the menu's tab stop).
          <ListSubheader component="div" disableSticky sx={{ px: 2, py: 1, lineHeight: 1.5, color: 'text.primary' }}>
            <Typography component="div" sx={{ fontWeight: 600 }}>{user.name}</Typography>
            <Typography component="div" variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Typography>
          </ListSubheader>
        ) : null}
        {user ? <Divider /> : null}
        <ListSubheader component="div" sx={{ lineHeight: '32px' }}>Settings</ListSubheader>
        <MenuItem onClick={() => go('/settings/integrations')}>
          <ListItemIcon>
            <SettingsEthernetIcon fontSize="small" />
          </ListItemIcon>
          Integrations
        </MenuItem>
        <MenuItem onClick={() => go('/settings/users')}>
          <ListItemIcon>
            <PeopleOutlineIcon fontSize="small" />
          </ListItemIcon>
          User Management
        </MenuItem>
        <MenuItem onClick={() => go('/settings/notifications')}>
          <ListItemIcon>
            <NotificationsNoneOutlinedIcon fontSize="small" />
          </ListItemIcon>
          Notifications
        </MenuItem>
        <MenuItem onClick={() => go('/settings/digest')}>
          <ListItemIcon>
            <EventNoteOutlinedIcon fontSize="small" />
          </ListItemIcon>
          Digest
        </MenuItem>
        <MenuItem onClick={() => go('/settings/billing-data')}>
          <ListItemIcon>
            <CloudUploadIcon fontSize="small" />
          </ListItemIcon>
          Billing Data
        </MenuItem>
        <MenuItem onClick={() => go('/settings/currency')}>
          <ListItemIcon>
            <CurrencyExchangeIcon fontSize="small" />
          </ListItemIcon>
          Currency
        </MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            onSignOut();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          Sign Out
        </MenuItem>
      </Menu>
    </>
  );
}
