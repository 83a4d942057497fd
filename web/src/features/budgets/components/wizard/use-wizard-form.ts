import { useMemo, useReducer, useState } from 'react';
import {
  addAlert,
  addFilter,
  changeFilterType,
  sanitizeThresholdInput,
  switchAlertType,
  validateForm,
  type MakeId,
  type WizardErrors,
  type WizardForm,
} from '../../model/wizard';
import type { AlertBasis, BudgetFilterType, BudgetPeriod, ThresholdType } from '../../model/types';

type WizardAction =
  | { type: 'setName'; name: string }
  | { type: 'setAmount'; amount: string }
  | { type: 'setPeriod'; period: BudgetPeriod }
  | { type: 'addFilter'; id: string }
  | { type: 'removeFilter'; id: string }
  | { type: 'changeFilterType'; id: string; filterType: BudgetFilterType }
  | { type: 'setFilterValues'; id: string; values: string[] }
  | { type: 'addAlert'; id: string; value?: number }
  | { type: 'removeAlert'; id: string }
  | { type: 'setAlertValue'; id: string; value: string }
  | { type: 'switchAlertType'; id: string; thresholdType: ThresholdType }
  | { type: 'setAlertBasis'; id: string; basis: AlertBasis }
  | { type: 'setChannels'; channelIds: number[] };

function wizardReducer(form: WizardForm, action: WizardAction): WizardForm {
  switch (action.type) {
    case 'setName':
      return { ...form, name: action.name };
    case 'setAmount':
      return { ...form, amount: action.amount };
    case 'setPeriod':
      return { ...form, period: action.period };
    case 'addFilter':
      return { ...form, filters: addFilter(form.filters, action.id) };
    case 'removeFilter':
      return { ...form, filters: form.filters.filter((filter) => filter.id !== action.id) };
    case 'changeFilterType':
      return { ...form, filters: changeFilterType(form.filters, action.id, action.filterType) };
    case 'setFilterValues':
      return {
        ...form,
        filters: form.filters.map((filter) => (filter.id === action.id ? { ...filter, values: action.values } : filter)),
      };
    case 'addAlert':
      return { ...form, alerts: addAlert(form.alerts, action.id, action.value) };
    case 'removeAlert':
      return { ...form, alerts: form.alerts.filter((alert) => alert.id !== action.id) };
    case 'setAlertValue':
      return {
        ...form,
        alerts: form.alerts.map((alert) =>
          alert.id === action.id ? { ...alert, value: sanitizeThresholdInput(action.value) } : alert,
        ),
      };
    case 'switchAlertType':
      return {
        ...form,
        alerts: form.alerts.map((alert) => (alert.id === action.id ? switchAlertType(alert, action.thresholdType) : alert)),
      };
    case 'setAlertBasis':
      return {
        ...form,
        alerts: form.alerts.map((alert) => (alert.id === action.id ? { ...alert, basis: action.basis } : alert)),
      };
    case 'setChannels':
      return { ...form, channelIds: action.channelIds };
  }
}

/** The commands the wizard's inputs call. */
export interface WizardCommands {
  setName(name: string): void;
  setAmount(amount: string): void;
  setPeriod(period: BudgetPeriod): void;
  addFilter(): void;
  removeFilter(id: string): void;
  changeFilterType(id: string, filterType: BudgetFilterType): void;
  setFilterValues(id: string, values: string[]): void;
  /** Adds a percentage alert: `value`, else the next suggested threshold. */
  addAlert(value?: number): void;
  removeAlert(id: string): void;
  setAlertValue(id: string, value: string): void;
  switchAlertType(id: string, thresholdType: ThresholdType): void;
  /** Compares the alert with the spend (Actual) or the forecast total (Forecasted). */
  setAlertBasis(id: string, basis: AlertBasis): void;
  /** The channels the alerts go to; empty: every channel. */
  setChannels(channelIds: number[]): void;
}

/** The wizard's form state, validated live on every change. */
export function useWizardForm(initForm: (makeId: MakeId) => WizardForm): {
  form: WizardForm;
  errors: WizardErrors;
  commands: WizardCommands;
} {
  // Row ids only key rows on screen: one counter serves the first form and every added row.
  const [makeId] = useState<MakeId>(() => {
    let last = 0;
    return () => `row-${(last += 1)}`;
  });
  const [form, dispatch] = useReducer(wizardReducer, makeId, initForm);
  const commands = useMemo<WizardCommands>(
    () => ({
      setName: (name) => dispatch({ type: 'setName', name }),
      setAmount: (amount) => dispatch({ type: 'setAmount', amount }),
      setPeriod: (period) => dispatch({ type: 'setPeriod', period }),
      addFilter: () => dispatch({ type: 'addFilter', id: makeId() }),
      removeFilter: (id) => dispatch({ type: 'removeFilter', id }),
      changeFilterType: (id, filterType) => dispatch({ type: 'changeFilterType', id, filterType }),
      setFilterValues: (id, values) => dispatch({ type: 'setFilterValues', id, values }),
      addAlert: (value) => dispatch({ type: 'addAlert', id: makeId(), value }),
      removeAlert: (id) => dispatch({ type: 'removeAlert', id }),
      setAlertValue: (id, value) => dispatch({ type: 'setAlertValue', id, value }),
      switchAlertType: (id, thresholdType) => dispatch({ type: 'switchAlertType', id, thresholdType }),
      setAlertBasis: (id, basis) => dispatch({ type: 'setAlertBasis', id, basis }),
      setChannels: (channelIds) => dispatch({ type: 'setChannels', channelIds }),
    }),
    [makeId],
  );
  const errors = useMemo(() => validateForm(form), [form]);
  return { form, errors, commands };
}
