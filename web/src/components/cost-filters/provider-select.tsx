import { Autocomplete, TextField } from '@mui/material';
import { DROPDOWN_MAX_HEIGHT, providerChoices, type Provider } from '@/lib/cost-filters';

export interface ProviderSelectProps {
  value: Provider | '';
  /** Providers with data in the range (any provider, not only the three clouds). */
  providers?: ReadonlyArray<Provider>;
  onChange(provider: Provider | ''): void;
}

/**
 * The rule's clearable cloud provider dropdown (spec 1 §2.12): AWS, GCP, Azure, then every other
 * provider with data by name (and the rule's own provider, so a saved rule always shows).
 */
export function ProviderSelect({ value, providers = [], onChange }: ProviderSelectProps) {
  const options = providerChoices(value ? [...providers, value] : providers);
  const selected = options.find((p) => p.value === value) ?? null;
  return (
    <Autocomplete
      size="small"
      options={options}
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
