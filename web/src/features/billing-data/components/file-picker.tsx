import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import { Box, Button, Typography } from '@mui/material';
import { useRef, useState, type DragEvent } from 'react';
import { ACCEPTED_EXTENSIONS } from '../utils/files';
import { formatBytes } from '../utils/numbers';

export interface FilePickerProps {
  disabled?: boolean;
  /** The server's upload limit, shown under the button. */
  maxUploadBytes: number;
  onFiles: (files: File[]) => void;
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
  p: 0,
  m: -1,
} as const;

/** A drop area for several billing files, with a "Choose files" button for the file dialog. */
export function FilePicker({ disabled = false, maxUploadBytes, onFiles }: FilePickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (!disabled) {
      event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const files = Array.from(event.dataTransfer.files ?? []);
    if (files.length > 0) onFiles(files);
  };

  return (
    <Box
      role="region"
      aria-label="Drop billing files here"
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : 'divider',
        bgcolor: dragging ? 'action.hover' : 'transparent',
        borderRadius: 2,
        p: 3,
        textAlign: 'center',
        transition: 'border-color 120ms, background-color 120ms',
      }}
    >
      <CloudUploadOutlinedIcon color={disabled ? 'disabled' : 'primary'} sx={{ fontSize: 40 }} aria-hidden="true" />
      <Typography sx={{ mt: 1 }}>Drag and drop billing files here, or</Typography>
      <Button variant="outlined" sx={{ mt: 1 }} disabled={disabled} onClick={() => input.current?.click()}>
        Choose files
      </Button>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        CSV, gzipped CSV, Parquet, JSON or NDJSON · up to {formatBytes(maxUploadBytes)} per upload
      </Typography>
      <Box
        component="input"
        ref={input}
        type="file"
        multiple
        accept={ACCEPTED_EXTENSIONS.join(',')}
        aria-label="Choose files"
        tabIndex={-1}
        disabled={disabled}
        sx={visuallyHidden}
        onChange={(event) => {
          const target = event.target as HTMLInputElement;
          const files = Array.from(target.files ?? []);
          // Clear the value so that choosing the same file again fires another change.
          target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </Box>
  );
}
