import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import FolderOpenOutlinedIcon from '@mui/icons-material/FolderOpenOutlined';
import { Button, IconButton, ListItemText, Menu, MenuItem, Typography } from '@mui/material';
import { useState } from 'react';
import type { SavedReport } from '../types';

export interface SavedReportsMenuProps {
  reports: SavedReport[];
  onOpen(id: string): void;
  onDelete(id: string): void;
}

/** Saved Reports: open one of the saved reports, or delete it. */
export function SavedReportsMenu({ reports, onOpen, onDelete }: SavedReportsMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button variant="outlined" startIcon={<FolderOpenOutlinedIcon />} aria-haspopup="menu" onClick={(event) => setAnchor(event.currentTarget)}>
        Saved Reports
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-label': 'Saved Reports' } }}>
        {reports.length === 0 ? (
          <MenuItem disabled>
            <Typography variant="body2">No saved reports yet. Use Save Report to keep this view.</Typography>
          </MenuItem>
        ) : (
          reports.map((report) => (
            <MenuItem
              key={report.id}
              onClick={() => {
                setAnchor(null);
                onOpen(report.id);
              }}
              sx={{ gap: 1 }}
            >
              <ListItemText primary={report.name} secondary={report.description || undefined} />
              <IconButton
                edge="end"
                size="small"
                aria-label={`Delete ${report.name}`}
                onClick={(event) => {
                  event.stopPropagation();
                  onDelete(report.id);
                }}
              >
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            </MenuItem>
          ))
        )}
      </Menu>
    </>
  );
}
