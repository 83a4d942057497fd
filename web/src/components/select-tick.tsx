import CheckBoxIcon from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlankIcon from '@mui/icons-material/CheckBoxOutlineBlank';

/**
 * The tick box of a multiple select's option, as a picture: the option itself is the control
 * and its `aria-selected` tells whether it is chosen, so a checkbox inside it would be a second,
 * nested control (axe-core's nested-interactive).
 */
export function SelectTick({ checked }: { checked: boolean }) {
  return checked ? (
    <CheckBoxIcon fontSize="small" color="primary" aria-hidden sx={{ m: 0.5, mr: 1.5 }} />
  ) : (
    <CheckBoxOutlineBlankIcon fontSize="small" color="action" aria-hidden sx={{ m: 0.5, mr: 1.5 }} />
  );
}
