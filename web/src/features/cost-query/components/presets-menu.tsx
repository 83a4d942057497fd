import BookmarksOutlinedIcon from '@mui/icons-material/BookmarksOutlined';
import CheckIcon from '@mui/icons-material/Check';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { Button, IconButton, List, ListItem, ListItemButton, ListItemIcon, ListItemText, Popover, Typography } from '@mui/material';
import { useId, useState } from 'react';
import type { FilterPreset } from '@/lib/cost-filters';

export const NO_PRESETS_TEXT = 'No saved presets';

export interface PresetsMenuProps {
  presets: FilterPreset[];
  activePresetId: string | null;
  onLoad(id: string): void;
  onDelete(id: string): void;
}

/** "Presets": this page's saved filters, each to load (replacing the filters and logic) or delete. */
export function PresetsMenu({ presets, activePresetId, onLoad, onDelete }: PresetsMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const listId = useId();
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<BookmarksOutlinedIcon />}
        aria-haspopup="true"
        aria-expanded={anchor ? 'true' : 'false'}
        aria-controls={anchor ? listId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Presets
      </Button>
      <Popover open={anchor !== null} anchorEl={anchor} onClose={close} anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        {presets.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary" id={listId}>
            {NO_PRESETS_TEXT}
          </Typography>
        ) : (
          <List dense id={listId} aria-label="Saved presets" sx={{ minWidth: 280, maxWidth: 420 }}>
            {presets.map((preset) => {
              const active = preset.id === activePresetId;
              return (
                <ListItem
                  key={preset.id}
                  disablePadding
                  secondaryAction={
                    <IconButton edge="end" aria-label={`Delete preset ${preset.name}`} onClick={() => onDelete(preset.id)}>
                      <DeleteOutlineIcon />
                    </IconButton>
                  }
                >
                  <ListItemButton
                    selected={active}
                    aria-current={active ? 'true' : undefined}
                    onClick={() => {
                      onLoad(preset.id);
                      close();
                    }}
                  >
                    <ListItemIcon sx={{ minWidth: 32 }}>{active ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
                    <ListItemText primary={preset.name} secondary={preset.description || undefined} />
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        )}
      </Popover>
    </>
  );
}
