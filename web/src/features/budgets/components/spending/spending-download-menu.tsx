import DownloadIcon from '@mui/icons-material/Download';
import { Button, Menu, MenuItem } from '@mui/material';
import { useId, useState } from 'react';

export interface SpendingDownloadMenuProps {
  /** Nothing to download (no data yet). */
  disabled?: boolean;
  /** The chart is not drawn, so there is no image. */
  imageDisabled?: boolean;
  onDownloadCsv(): void;
  onDownloadImage(): void;
}

/** 'Download as CSV' and 'Download as Image'. */
export function SpendingDownloadMenu({ disabled, imageDisabled, onDownloadCsv, onDownloadImage }: SpendingDownloadMenuProps) {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const pick = (action: () => void) => () => {
    setAnchor(null);
    action();
  };
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<DownloadIcon />}
        disabled={disabled}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Download
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={pick(onDownloadCsv)}>Download as CSV</MenuItem>
        <MenuItem onClick={pick(onDownloadImage)} disabled={imageDisabled}>
          Download as Image
        </MenuItem>
      </Menu>
    </>
  );
}
