import FilterListIcon from '@mui/icons-material/FilterList';
import { Badge, Button } from '@mui/material';

export interface FiltersButtonProps {
  /** How many filters are applied (the badge; none when 0). */
  count: number;
  onClick(): void;
}

/** "Filters" with a badge of the applied filters (spec 1 §2.5, §2.10). */
export function FiltersButton({ count, onClick }: FiltersButtonProps) {
  return (
    <Badge badgeContent={count} color="primary" invisible={count <= 0} aria-hidden={false}>
      <Button
        variant="outlined"
        startIcon={<FilterListIcon />}
        onClick={onClick}
        aria-label={count > 0 ? `Filters (${count} applied)` : 'Filters'}
      >
        Filters
      </Button>
    </Badge>
  );
}
