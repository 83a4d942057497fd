import { MenuItem, TextField } from '@mui/material';
import { CHART_PALETTES, type ChartPaletteName } from '@/components/cost';

/** The chart's colours: Default, Pastel, Cool, Warm or Monochrome (spec 1 §9). */
export function PaletteSelect({ value, onChange }: { value: ChartPaletteName; onChange: (value: ChartPaletteName) => void }) {
  return (
    <TextField select size="small" label="Palette" value={value} onChange={(event) => onChange(event.target.value as ChartPaletteName)} sx={{ minWidth: 150 }}>
      {CHART_PALETTES.map((palette) => (
        <MenuItem key={palette.value} value={palette.value}>
          {palette.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
