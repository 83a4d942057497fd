import FirstPageIcon from '@mui/icons-material/FirstPage';
import KeyboardArrowLeftIcon from '@mui/icons-material/KeyboardArrowLeft';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import LastPageIcon from '@mui/icons-material/LastPage';
import { Button, IconButton, Stack, Typography } from '@mui/material';
import { pageWindow } from '../../model/resources';

export interface ResourcesPaginationProps {
  page: number;
  totalPages: number;
  onPageChange(page: number): void;
}

/** First, previous, 5 numbered pages, next, last, and 'Page X of Y'. */
export function ResourcesPagination({ page, totalPages, onPageChange }: ResourcesPaginationProps) {
  const atFirst = page <= 1;
  const atLast = page >= totalPages;
  return (
    <Stack component="nav" aria-label="Resources pages" direction="row" spacing={0.5} alignItems="center" flexWrap="wrap" useFlexGap>
      <IconButton size="small" aria-label="First page" disabled={atFirst} onClick={() => onPageChange(1)}>
        <FirstPageIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label="Previous page" disabled={atFirst} onClick={() => onPageChange(page - 1)}>
        <KeyboardArrowLeftIcon fontSize="small" />
      </IconButton>
      {pageWindow(page, totalPages).map((number) => (
        <Button
          key={number}
          size="small"
          variant={number === page ? 'contained' : 'text'}
          aria-label={`Page ${number}`}
          aria-current={number === page ? 'page' : undefined}
          onClick={() => onPageChange(number)}
          sx={{ minWidth: 36 }}
        >
          {number}
        </Button>
      ))}
      <IconButton size="small" aria-label="Next page" disabled={atLast} onClick={() => onPageChange(page + 1)}>
        <KeyboardArrowRightIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label="Last page" disabled={atLast} onClick={() => onPageChange(totalPages)}>
        <LastPageIcon fontSize="small" />
      </IconButton>
      <Typography variant="body2" color="text.secondary" sx={{ ml: 1 }}>
        Page {page} of {totalPages}
      </Typography>
    </Stack>
  );
}
