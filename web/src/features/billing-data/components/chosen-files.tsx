import CloseIcon from '@mui/icons-material/Close';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import { IconButton, List, ListItem, ListItemIcon, ListItemText } from '@mui/material';
import { fileKey } from '../utils/files';
import { formatBytes } from '../utils/numbers';

export interface ChosenFilesProps {
  files: File[];
  disabled?: boolean;
  onRemove: (file: File) => void;
}

/** The files picked for the next upload, with their sizes and a remove button each. */
export function ChosenFiles({ files, disabled = false, onRemove }: ChosenFilesProps) {
  if (files.length === 0) return null;
  return (
    <List aria-label="Chosen files" dense disablePadding>
      {files.map((file) => (
        <ListItem
          key={fileKey(file)}
          divider
          secondaryAction={
            <IconButton edge="end" aria-label={`Remove ${file.name}`} disabled={disabled} onClick={() => onRemove(file)}>
              <CloseIcon fontSize="small" />
            </IconButton>
          }
        >
          <ListItemIcon sx={{ minWidth: 36 }}>
            <InsertDriveFileOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={file.name} secondary={formatBytes(file.size)} slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }} />
        </ListItem>
      ))}
    </List>
  );
}
