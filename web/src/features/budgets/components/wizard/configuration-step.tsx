import { Button, InputAdornment, MenuItem, Stack, TextField } from '@mui/material';
import { useState, type ReactNode } from 'react';
import type { BudgetPeriod } from '../../model/types';
import { BUDGET_PERIODS, errorList, WIZARD_MESSAGES, type WizardErrors, type WizardForm } from '../../model/wizard';
import { AlertsEditor } from './alerts-editor';
import { ChannelPicker } from './channel-picker';
import { MessageList } from './message-list';
import type { WizardCommands } from './use-wizard-form';

export interface ConfigurationStepProps {
  form: WizardForm;
  errors: WizardErrors;
  commands: WizardCommands;
  submitLabel: string;
  saving: boolean;
  /** The failure of the last save, shown above the buttons. */
  saveError: ReactNode;
  onBack(): void;
  onSubmit(): void;
}

type TouchedField = 'name' | 'amount';

/** Step 2 'Budget Configuration': name, amount, period, alerts and channels, validated as they change. */
export function ConfigurationStep({ form, errors, commands, submitLabel, saving, saveError, onBack, onSubmit }: ConfigurationStepProps) {
  // Field messages wait until the person has been in the field; the list below shows them all at once.
  const [touched, setTouched] = useState<ReadonlySet<TouchedField>>(new Set());
  const touch = (field: TouchedField) => setTouched((previous) => new Set(previous).add(field));
  const fieldError = (field: TouchedField) => (touched.has(field) ? errors[field] : null);
  const problems = errorList(errors);

  return (
    <Stack spacing={2.5}>
      <TextField
        label="Budget Name"
        value={form.name}
        required
        onChange={(event) => {
          commands.setName(event.target.value);
          touch('name');
        }}
        onBlur={() => touch('name')}
        error={Boolean(fieldError('name'))}
        helperText={fieldError('name')}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label="Budget Amount"
          type="number"
          value={form.amount}
          required
          onChange={(event) => {
            commands.setAmount(event.target.value);
            touch('amount');
          }}
          onBlur={() => touch('amount')}
          error={Boolean(fieldError('amount'))}
          helperText={fieldError('amount')}
          slotProps={{
            htmlInput: { min: 0, step: 'any' },
            input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
          }}
          sx={{ flex: 1 }}
        />
        <TextField
          select
          label="Budget Period"
          value={form.period}
          onChange={(event) => commands.setPeriod(event.target.value as BudgetPeriod)}
          sx={{ flex: 1 }}
        >
          {BUDGET_PERIODS.map((period) => (
            <MenuItem key={period} value={period}>
              {period}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <AlertsEditor alerts={form.alerts} errors={errors.alerts} commands={commands} />
      <ChannelPicker value={form.channelIds} onChange={commands.setChannels} />
      <MessageList title={WIZARD_MESSAGES.fixErrors} messages={problems} />
      {saveError}
      <Stack direction="row" spacing={2} justifyContent="flex-end">
        <Button onClick={onBack}>Back</Button>
        <Button variant="contained" disabled={problems.length > 0} loading={saving} onClick={onSubmit}>
          {submitLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
