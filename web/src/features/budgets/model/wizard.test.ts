import { ApiError } from '@/api/api-error';
import { makeBudget } from '../testing/make-budget';
import {
  addAlert,
  addAlertError,
  addFilter,
  addFilterError,
  buildBudgetRequest,
  changeFilterType,
  changeFilterTypeError,
  clampPercentage,
  errorList,
  filterTypeTakenMessage,
  formFromBudget,
  hasPercentageAlert,
  newBudgetForm,
  nextFilterType,
  nextSuggestedThreshold,
  sanitizeThresholdInput,
  serverFieldMessages,
  switchAlertType,
  validateAlert,
  validateAmount,
  validateFilters,
  validateForm,
  validateName,
  type WizardAlert,
  type WizardFilter,
  type WizardForm,
} from './wizard';
import type { AlertBasis, BudgetFilterType, ThresholdType } from './types';

function ids() {
  let last = 0;
  return () => `id-${(last += 1)}`;
}

function filter(id: string, filterType: BudgetFilterType, values: string[] = ['x']): WizardFilter {
  return { id, filterType, values };
}

function alert(id: string, thresholdType: ThresholdType, value: string, basis: AlertBasis = 'Actual'): WizardAlert {
  return { id, thresholdType, value, basis };
}

const percent = (value: string, id = `p${value}`) => alert(id, 'Percentage', value);
const dollars = (value: string, id = `a${value}`) => alert(id, 'Absolute', value);

const allTypes: BudgetFilterType[] = ['cloudProvider', 'account', 'region', 'service', 'tag'];

function validForm(overrides: Partial<WizardForm> = {}): WizardForm {
  return {
    name: 'Production AWS',
    amount: '5000',
    period: 'Monthly',
    filters: [filter('f1', 'account', ['123456789012'])],
    alerts: [percent('75'), percent('100')],
    channelIds: [],
    ...overrides,
  };
}

describe('new budget form', () => {
  it('starts Monthly with alerts at 75 and 100 percent and one Cloud Provider filter to fill in', () => {
    const form = newBudgetForm(ids());
    expect(form).toEqual({
      name: '',
      amount: '',
      period: 'Monthly',
      filters: [{ id: 'id-1', filterType: 'cloudProvider', values: [] }],
      alerts: [
        { id: 'id-2', thresholdType: 'Percentage', value: '75', basis: 'Actual' },
        { id: 'id-3', thresholdType: 'Percentage', value: '100', basis: 'Actual' },
      ],
      channelIds: [],
    });
  });
});

describe('form from an existing budget', () => {
  it('copies name, amount, period, filters, alerts and channels as the wizard edits them', () => {
    const budget = makeBudget({
      name: 'Data team',
      amount: 1234.5,
      period: 'Quarterly',
      filters: [
        { filterType: 'cloudProvider', filterValues: ['AWS'] },
        { filterType: 'tag', filterValues: ['team:data'] },
      ],
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 50, basis: 'Forecasted' },
        { thresholdType: 'Absolute', thresholdValue: 1000 },
      ],
      channelIds: [3, 1],
    });
    expect(formFromBudget(budget, ids())).toEqual({
      name: 'Data team',
      amount: '1234.5',
      period: 'Quarterly',
      filters: [
        { id: 'id-1', filterType: 'cloudProvider', values: ['AWS'] },
        { id: 'id-2', filterType: 'tag', values: ['team:data'] },
      ],
      alerts: [
        { id: 'id-3', thresholdType: 'Percentage', value: '50', basis: 'Forecasted' },
        { id: 'id-4', thresholdType: 'Absolute', value: '1000', basis: 'Actual' },
      ],
      channelIds: [3, 1],
    });
  });

  it('keeps a budget without alerts without alerts (no defaults on edit)', () => {
    expect(formFromBudget(makeBudget({ alerts: [] }), ids()).alerts).toEqual([]);
  });
});

describe('adding filters', () => {
  it('adds a row of the first type not yet used', () => {
    expect(nextFilterType([])).toBe('cloudProvider');
    const filters = [filter('f1', 'cloudProvider'), filter('f2', 'region')];
    expect(nextFilterType(filters)).toBe('account');
    expect(addFilter(filters, 'f3')).toEqual([...filters, { id: 'f3', filterType: 'account', values: [] }]);
    expect(addFilterError(filters)).toBeNull();
  });

  it("is blocked with 'All filter types are already in use' once every type has a row", () => {
    const filters = allTypes.map((type, index) => filter(`f${index}`, type));
    expect(nextFilterType(filters)).toBeUndefined();
    expect(addFilterError(filters)).toBe('All filter types are already in use');
    expect(addFilter(filters, 'new')).toEqual(filters);
  });

  it("is blocked with 'Maximum of 5 filters allowed' at five rows even when a type is still free", () => {
    const filters = [...allTypes.slice(0, 4), 'account' as const].map((type, index) => filter(`f${index}`, type));
    expect(nextFilterType(filters)).toBe('tag');
    expect(addFilterError(filters)).toBe('Maximum of 5 filters allowed');
    expect(addFilter(filters, 'new')).toEqual(filters);
  });
});

describe('changing a filter type', () => {
  const filters = [filter('f1', 'cloudProvider', ['AWS']), filter('f2', 'region', ['us-east-1'])];

  it('refuses a type another row has, naming it', () => {
    expect(changeFilterTypeError(filters, 'f2', 'cloudProvider', 'Cloud Provider')).toBe(
      'A filter for Cloud Provider already exists. Please use a different filter type.',
    );
    expect(filterTypeTakenMessage('Region')).toBe('A filter for Region already exists. Please use a different filter type.');
  });

  it('allows a free type or the row own type', () => {
    expect(changeFilterTypeError(filters, 'f2', 'service', 'Service')).toBeNull();
    expect(changeFilterTypeError(filters, 'f2', 'region', 'Region')).toBeNull();
  });

  it('clears the values of a row whose type changes, and only of that row', () => {
    expect(changeFilterType(filters, 'f2', 'service')).toEqual([
      filter('f1', 'cloudProvider', ['AWS']),
      { id: 'f2', filterType: 'service', values: [] },
    ]);
    expect(changeFilterType(filters, 'f2', 'region')).toEqual(filters);
  });
});

describe('filter validation', () => {
  it('passes with one filter that has a value', () => {
    expect(validateFilters([filter('f1', 'account', ['123456789012'])])).toEqual([]);
  });

  it("needs at least one filter with values: 'At least one filter must be configured'", () => {
    expect(validateFilters([])).toEqual(['At least one filter must be configured']);
    expect(validateFilters([filter('f1', 'account', []), filter('f2', 'region', ['  '])])).toEqual([
      'At least one filter must be configured',
    ]);
  });

  it("allows five filters and refuses six: 'Maximum of 5 filters allowed'", () => {
    const five = allTypes.map((type, index) => filter(`f${index}`, type));
    expect(validateFilters(five)).toEqual([]);
    expect(validateFilters([...five, filter('f6', 'tag')])).toContain('Maximum of 5 filters allowed');
  });

  it("refuses the same type twice: 'Duplicate filter types are not allowed'", () => {
    expect(validateFilters([filter('f1', 'service', ['EC2']), filter('f2', 'service', ['S3'])])).toEqual([
      'Duplicate filter types are not allowed',
    ]);
  });
});

describe('name validation', () => {
  it("requires a name: 'Budget name is required'", () => {
    expect(validateName('')).toBe('Budget name is required');
    expect(validateName('   ')).toBe('Budget name is required');
  });

  it("needs 3 characters after trimming: 'Budget name must be at least 3 characters'", () => {
    expect(validateName('ab')).toBe('Budget name must be at least 3 characters');
    expect(validateName('  ab  ')).toBe('Budget name must be at least 3 characters');
    expect(validateName('abc')).toBeNull();
  });

  it("accepts 50 characters and refuses 51: 'Budget name must be less than 50 characters'", () => {
    expect(validateName('a'.repeat(50))).toBeNull();
    expect(validateName(` ${'a'.repeat(50)} `)).toBeNull();
    expect(validateName('a'.repeat(51))).toBe('Budget name must be less than 50 characters');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(validateName('😀😀😀')).toBeNull();
    expect(validateName('😀'.repeat(50))).toBeNull();
    expect(validateName('😀'.repeat(51))).toBe('Budget name must be less than 50 characters');
  });
});

describe('amount validation', () => {
  it.each(['', '  ', '0', '-5', 'abc', '0.00'])("refuses %j: 'Budget amount must be greater than $0'", (amount) => {
    expect(validateAmount(amount)).toBe('Budget amount must be greater than $0');
  });

  it.each(['1', '0.01', '5000', ' 99.5 '])('accepts %j', (amount) => {
    expect(validateAmount(amount)).toBeNull();
  });
});

describe('alert validation', () => {
  it("refuses an empty, zero or non-numeric value: 'Threshold value must be greater than 0'", () => {
    for (const value of ['', '0', '00', 'abc', '-5', '1e3']) {
      expect(validateAlert(percent(value), 1000)).toBe('Threshold value must be greater than 0');
      expect(validateAlert(dollars(value), 1000)).toBe('Threshold value must be greater than 0');
    }
  });

  it("keeps percentages from 1 to 100: 'Percentage must be at least 1%' / 'Percentage must be at most 100%'", () => {
    expect(validateAlert(percent('0.5'), 1000)).toBe('Percentage must be at least 1%');
    expect(validateAlert(percent('1'), 1000)).toBeNull();
    expect(validateAlert(percent('100'), 1000)).toBeNull();
    expect(validateAlert(percent('101'), 1000)).toBe('Percentage must be at most 100%');
  });

  it('does not cap percentages by the amount', () => {
    expect(validateAlert(percent('90'), 10)).toBeNull();
  });

  it("caps absolute thresholds at the amount: 'Absolute threshold cannot exceed budget amount'", () => {
    expect(validateAlert(dollars('5000'), 5000)).toBeNull();
    expect(validateAlert(dollars('5001'), 5000)).toBe('Absolute threshold cannot exceed budget amount');
  });

  it('skips the absolute cap while the amount is not valid (the amount has its own message)', () => {
    expect(validateAlert(dollars('5001'), Number.NaN)).toBeNull();
    expect(validateAlert(dollars('5001'), 0)).toBeNull();
  });

  it('accepts a decimal threshold of an existing budget', () => {
    expect(validateAlert(dollars('4500.5'), 5000)).toBeNull();
  });
});

describe('threshold input', () => {
  it('keeps digits only', () => {
    expect(sanitizeThresholdInput('7a5%')).toBe('75');
    expect(sanitizeThresholdInput('-1.5')).toBe('15');
    expect(sanitizeThresholdInput('')).toBe('');
  });
});

describe('adding alerts', () => {
  it('picks the first of 25, 50, 75, 90 not yet used', () => {
    expect(nextSuggestedThreshold([])).toBe(25);
    expect(nextSuggestedThreshold([percent('75'), percent('100')])).toBe(25);
    expect(nextSuggestedThreshold([percent('25'), percent('75')])).toBe(50);
    expect(nextSuggestedThreshold([percent('25'), percent('50'), percent('75')])).toBe(90);
  });

  it('falls back to 50 when all four are used', () => {
    expect(nextSuggestedThreshold([percent('25'), percent('50'), percent('75'), percent('90')])).toBe(50);
  });

  it('counts only percentage alerts as using a suggestion', () => {
    expect(nextSuggestedThreshold([dollars('25')])).toBe(25);
    expect(hasPercentageAlert([dollars('25')], 25)).toBe(false);
    expect(hasPercentageAlert([percent('25')], 25)).toBe(true);
  });

  it('adds a percentage alert with the suggestion or the chosen value', () => {
    const alerts = [percent('75'), percent('100')];
    expect(addAlert(alerts, 'n1')).toEqual([...alerts, { id: 'n1', thresholdType: 'Percentage', value: '25', basis: 'Actual' }]);
    expect(addAlert(alerts, 'n2', 90)).toEqual([...alerts, { id: 'n2', thresholdType: 'Percentage', value: '90', basis: 'Actual' }]);
  });

  it("stops at five alerts: 'Maximum of 5 alerts allowed'", () => {
    const four = ['10', '20', '30', '40'].map((value) => percent(value));
    expect(addAlertError(four)).toBeNull();
    const five = addAlert(four, 'n5');
    expect(five).toHaveLength(5);
    expect(addAlertError(five)).toBe('Maximum of 5 alerts allowed');
    expect(addAlert(five, 'n6')).toEqual(five);
  });
});

describe('switching an alert type', () => {
  it('clamps the value to 1-100 when switching to percentage', () => {
    expect(clampPercentage(0)).toBe(1);
    expect(clampPercentage(55)).toBe(55);
    expect(clampPercentage(4500)).toBe(100);
    expect(switchAlertType(dollars('4500', 'a'), 'Percentage')).toEqual({ id: 'a', thresholdType: 'Percentage', value: '100', basis: 'Actual' });
    expect(switchAlertType(dollars('40', 'a'), 'Percentage')).toEqual({ id: 'a', thresholdType: 'Percentage', value: '40', basis: 'Actual' });
    expect(switchAlertType(dollars('0', 'a'), 'Percentage')).toEqual({ id: 'a', thresholdType: 'Percentage', value: '1', basis: 'Actual' });
  });

  it('leaves an empty value empty when switching to percentage', () => {
    expect(switchAlertType(dollars('', 'a'), 'Percentage')).toEqual({ id: 'a', thresholdType: 'Percentage', value: '', basis: 'Actual' });
  });

  it('keeps the value when switching to dollars', () => {
    expect(switchAlertType(percent('75', 'p'), 'Absolute')).toEqual({ id: 'p', thresholdType: 'Absolute', value: '75', basis: 'Actual' });
  });

  it('changes nothing when the type stays', () => {
    const same = percent('75');
    expect(switchAlertType(same, 'Percentage')).toBe(same);
  });
});

describe('whole form', () => {
  it('has no errors when every rule holds', () => {
    const errors = validateForm(validForm());
    expect(errors).toEqual({ name: null, amount: null, filters: [], alertList: null, alerts: {} });
    expect(errorList(errors)).toEqual([]);
  });

  it('lists every broken rule once, filters first, then name, amount and alerts', () => {
    const errors = validateForm(
      validForm({
        name: 'ab',
        amount: '100',
        filters: [],
        alerts: [dollars('500', 'a1'), percent('101', 'a2'), dollars('600', 'a3')],
      }),
    );
    expect(errors.alerts).toEqual({
      a1: 'Absolute threshold cannot exceed budget amount',
      a2: 'Percentage must be at most 100%',
      a3: 'Absolute threshold cannot exceed budget amount',
    });
    expect(errorList(errors)).toEqual([
      'At least one filter must be configured',
      'Budget name must be at least 3 characters',
      'Absolute threshold cannot exceed budget amount',
      'Percentage must be at most 100%',
    ]);
  });

  it('judges absolute alerts against the amount as it is now', () => {
    const form = validForm({ alerts: [dollars('4000', 'a1')] });
    expect(validateForm(form).alerts).toEqual({});
    expect(validateForm({ ...form, amount: '3000' }).alerts).toEqual({ a1: 'Absolute threshold cannot exceed budget amount' });
  });

  it("refuses more than five alerts: 'Maximum of 5 alerts allowed'", () => {
    const six = ['10', '20', '30', '40', '50', '60'].map((value) => percent(value));
    const errors = validateForm(validForm({ alerts: six }));
    expect(errors.alertList).toBe('Maximum of 5 alerts allowed');
    expect(errorList(errors)).toEqual(['Maximum of 5 alerts allowed']);
  });

  it('reports a missing amount', () => {
    expect(errorList(validateForm(validForm({ amount: '' })))).toEqual(['Budget amount must be greater than $0']);
  });
});

describe('request', () => {
  it('sends the trimmed name, the amount as a number, the period, configured filters, alerts and channels', () => {
    const form = validForm({
      name: '  Production AWS  ',
      amount: '5000.50',
      period: 'Yearly',
      filters: [
        filter('f1', 'cloudProvider', ['AWS', ' AWS ', 'GCP']),
        filter('f2', 'region', []),
        filter('f3', 'tag', ['team:data']),
      ],
      alerts: [percent('75'), alert('d', 'Absolute', '4500', 'Forecasted')],
      channelIds: [2, 5],
    });
    expect(buildBudgetRequest(form)).toEqual({
      name: 'Production AWS',
      amount: 5000.5,
      period: 'Yearly',
      filters: [
        { filterType: 'cloudProvider', filterValues: ['AWS', 'GCP'] },
        { filterType: 'tag', filterValues: ['team:data'] },
      ],
      alerts: [
        { thresholdType: 'Percentage', thresholdValue: 75, basis: 'Actual' },
        { thresholdType: 'Absolute', thresholdValue: 4500, basis: 'Forecasted' },
      ],
      channelIds: [2, 5],
    });
  });

  it('drops a repeated alert type and value silently, keeping the same value of the other type', () => {
    const form = validForm({ alerts: [percent('50', 'a'), percent('50', 'b'), dollars('50', 'c'), percent('050', 'd')] });
    expect(buildBudgetRequest(form).alerts).toEqual([
      { thresholdType: 'Percentage', thresholdValue: 50, basis: 'Actual' },
      { thresholdType: 'Absolute', thresholdValue: 50, basis: 'Actual' },
    ]);
  });

  it('keeps the same type and value once per basis (the basis counts in a repeat)', () => {
    const form = validForm({
      alerts: [percent('90', 'a'), alert('b', 'Percentage', '90', 'Forecasted'), alert('c', 'Percentage', '90', 'Forecasted')],
    });
    expect(buildBudgetRequest(form).alerts).toEqual([
      { thresholdType: 'Percentage', thresholdValue: 90, basis: 'Actual' },
      { thresholdType: 'Percentage', thresholdValue: 90, basis: 'Forecasted' },
    ]);
  });

  it('keeps the basis when an alert switches between % and $', () => {
    expect(switchAlertType(alert('a', 'Percentage', '90', 'Forecasted'), 'Absolute').basis).toBe('Forecasted');
  });
});

describe('server field messages', () => {
  it('reads the field messages of a 422, each once', () => {
    const error = new ApiError('Budget name is required', 422, {
      name: ['Budget name is required'],
      filters: ['At least one filter must be configured', 'Budget name is required'],
      alerts: 'Duplicate alert threshold detected',
    });
    expect(serverFieldMessages(error)).toEqual([
      'Budget name is required',
      'At least one filter must be configured',
      'Duplicate alert threshold detected',
    ]);
  });

  it('has none for other failures', () => {
    expect(serverFieldMessages(new ApiError('Server error occurred', 500, { name: ['x'] }))).toEqual([]);
    expect(serverFieldMessages(new ApiError('Unprocessable', 422))).toEqual([]);
    expect(serverFieldMessages(new Error('boom'))).toEqual([]);
  });
});
