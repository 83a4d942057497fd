import { Chip, FormControl, InputLabel, ListItemText, MenuItem, Select } from '@mui/material';
import { isValidElement, useId, useState, type ReactNode } from 'react';
import {
  CHARGE_TYPE_PRESETS,
  chargeTypeLabel,
  chargeTypeOptions,
  includedChargeTypes,
  inclusionsOf,
  matchingPreset,
  presetInclusions,
  type ChargeTypePresetId,
  type CostInclusions,
} from '@/lib/cost';
import { SelectTick } from '../select-tick';
import { MultiSelectValue } from './multi-select-value';

export interface InclusionsSelectProps {
  value: CostInclusions;
  onChange(inclusions: CostInclusions): void;
  /** Charge types the API reported for the tenant; offered after the documented ones. */
  reported?: ReadonlyArray<string>;
  /** Called each time the menu opens (e.g. to ask for the reported charge types). */
  onOpen?(): void;
}

/** The menu items that act instead of ticking a charge type. */
type MenuAction = 'select-all' | 'clear' | `preset:${ChargeTypePresetId}`;

function actionOf(child: ReactNode): MenuAction | undefined {
  return isValidElement<{ 'data-action'?: MenuAction }>(child) ? child.props['data-action'] : undefined;
}

/**
 * Include (§2.5): the charge types counted; none chosen counts every charge type. The menu opens
 * with Select all and Clear (they keep the menu open, to tick or untick from there), the four
 * presets (one click sets the types and closes the menu), then the charge types one by one. When
 * the selection equals a preset the closed select shows the preset's name as one chip.
 */
export function InclusionsSelect({ value, onChange, reported = [], onOpen }: InclusionsSelectProps) {
  const labelId = useId();
  const [open, setOpen] = useState(false);
  const included = includedChargeTypes(value);
  // A ticked type nobody reported (e.g. from a link) is offered too, so it can be unticked.
  const options = chargeTypeOptions([...reported, ...included]);
  const offered = options.map((option) => option.value);
  const preset = matchingPreset(value, offered);

  const act = (action: MenuAction) => {
    if (action === 'select-all') onChange(inclusionsOf(offered, offered));
    else if (action === 'clear') onChange(inclusionsOf([], offered));
    else {
      const chosen = CHARGE_TYPE_PRESETS.find((p) => `preset:${p.id}` === action);
      if (chosen) onChange(presetInclusions(chosen, offered));
      setOpen(false);
    }
  };

  return (
    <FormControl size="small" sx={{ minWidth: 220 }}>
      <InputLabel id={labelId} shrink>
        Include
      </InputLabel>
      <Select<string[]>
        multiple
        displayEmpty
        labelId={labelId}
        label="Include"
        notched
        open={open}
        onOpen={() => {
          setOpen(true);
          onOpen?.();
        }}
        onClose={() => setOpen(false)}
        value={included}
        onChange={(event, child) => {
          const action = actionOf(child);
          if (action) {
            act(action);
            return;
          }
          const names = typeof event.target.value === 'string' ? event.target.value.split(',') : event.target.value;
          onChange(inclusionsOf(names, [...offered, ...Object.keys(value)]));
        }}
        renderValue={(names) => {
          if (preset) return <Chip label={preset.label} size="small" />;
          return names.length ? <MultiSelectValue labels={names.map(chargeTypeLabel)} /> : 'All charge types';
        }}
        MenuProps={{ slotProps: { paper: { sx: { maxHeight: 360 } } } }}
      >
        <MenuItem data-action="select-all">
          <ListItemText primary="Select all" />
        </MenuItem>
        <MenuItem data-action="clear">
          <ListItemText primary="Clear" />
        </MenuItem>
        {CHARGE_TYPE_PRESETS.map((p, index) => (
          <MenuItem key={p.id} data-action={`preset:${p.id}`} divider={index === CHARGE_TYPE_PRESETS.length - 1}>
            <ListItemText primary={p.label} slotProps={{ primary: { fontWeight: preset?.id === p.id ? 600 : undefined } }} />
          </MenuItem>
        ))}
        {options.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            <SelectTick checked={included.includes(option.value)} />
            <ListItemText primary={option.label} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
