import { Autocomplete, TextField } from '@mui/material';
import { DROPDOWN_MAX_HEIGHT, PROVIDERS, type Provider } from '@/lib/cost-filters';

export interface ProviderSelectProps {
  value: Provider | '';
  onChange(provider: Provider | ''): void;
}

/** The rule's clearable cloud provider dropdown: AWS, GCP, Azure (spec 1 §2.12). */
export function ProviderSelect({ value, onChange }: ProviderSelectProps) {
  const selected = PROVIDERS.find((p) => p.value === value) ?? null;
  return (
    <Autocomplete
      size="small"
      options={PROVIDERS}
      value={selected}
      onChange={(_event, next) => onChange(next?.value ?? '')}
      getOptionLabel={(option) => option.label}
      isOptionEqualToValue={(option, v) => option.value === v.value}
      slotProps={{ listbox: { style: { maxHeight: DROPDOWN_MAX_HEIGHT } } }}
      renderInput={(params) => <TextField {...params} label="Cloud Provider" />}
      sx={{ width: 200 }}
    />
  );
}
