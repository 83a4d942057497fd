import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import { Button, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';

export interface ExportMenuProps {
  disabled?: boolean;
  onExport(format: 'csv' | 'json'): void;
}

export function ExportMenu({ disabled, onExport }: ExportMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (format: 'csv' | 'json') => {
    setAnchor(null);
    onExport(format);
  };
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<FileDownloadOutlinedIcon />}
        disabled={disabled}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Export
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose('csv')}>Export CSV</MenuItem>
        <MenuItem onClick={() => choose('json')}>Export JSON</MenuItem>
      </Menu>
    </>
  );
}
