import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { CurrencyNotice, withoutCurrencyWarnings, type CurrencyFacts } from './currency-notice';

function renderNotice(answer: CurrencyFacts | undefined) {
  return render(
    <MemoryRouter>
      <CurrencyNotice answer={answer} />
    </MemoryRouter>,
  );
}

const LEFT_OUT = 'choose a display currency and upload exchange rates to combine currencies';

describe('CurrencyNotice', () => {
  it('says nothing for an answer in one currency that includes everything', () => {
    const { container } = renderNotice({ currency: 'USD', converted: false, otherCurrencies: [] });
    expect(container).toBeEmptyDOMElement();
    renderNotice(undefined);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('names the amounts left out, with a link to the currency settings', () => {
    renderNotice({ currency: 'USD', converted: false, otherCurrencies: [{ currency: 'EUR', amount: 12.34 }] });
    expect(screen.getByRole('alert')).toHaveTextContent(`Costs in EUR (12.34) are not included: ${LEFT_OUT}`);
    expect(screen.getByRole('link', { name: 'Currency settings' })).toHaveAttribute('href', '/settings/currency');
  });

  it('says each currency left out on its own line, with the server’s amount format', () => {
    renderNotice({
      currency: 'USD',
      otherCurrencies: [
        { currency: 'EUR', amount: 1234.5 },
        { currency: 'GBP', amount: 5 },
      ],
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(`Costs in EUR (1234.50) are not included: ${LEFT_OUT}`);
    expect(alert).toHaveTextContent(`Costs in GBP (5.00) are not included: ${LEFT_OUT}`);
  });

  it('shows the server’s own lines when the answer has them (a display currency without the rate)', () => {
    const line = 'Costs in CHF (7.00) are not included: upload exchange rates from CHF to EUR to include them';
    renderNotice({ currency: 'EUR', converted: true, otherCurrencies: [{ currency: 'CHF', amount: 7 }], warnings: [line, 'Converted to EUR with your exchange rates'] });
    const [leftOut, converted] = screen.getAllByRole('alert');
    expect(leftOut).toHaveTextContent(line);
    expect(leftOut).not.toHaveTextContent(LEFT_OUT);
    expect(converted).toHaveTextContent('Converted to EUR with your exchange rates');
  });

  it('says that converted figures are converted, and to what', () => {
    renderNotice({ currency: 'EUR', converted: true, otherCurrencies: [] });
    expect(screen.getByRole('alert')).toHaveTextContent('Converted to EUR with your exchange rates');
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows both when some amounts were converted and others had no rate', () => {
    renderNotice({ currency: 'USD', converted: true, otherCurrencies: [{ currency: 'CHF', amount: 7 }] });
    const alerts = screen.getAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual([
      expect.stringContaining('Costs in CHF (7.00) are not included'),
      'Converted to USD with your exchange rates',
    ]);
  });
});

describe('withoutCurrencyWarnings', () => {
  const warnings = [
    'Filter 1: ignored unknown field x',
    'Costs in EUR (12.34) are not included: choose a display currency and upload exchange rates to combine currencies',
    'Converted to USD with your exchange rates',
  ];

  it('drops the lines the notice shows and keeps the others', () => {
    const answer = { currency: 'USD', converted: true, otherCurrencies: [{ currency: 'EUR', amount: 12.34 }] };
    expect(withoutCurrencyWarnings(warnings, answer)).toEqual(['Filter 1: ignored unknown field x']);
  });

  it('keeps a currency line the notice would not show', () => {
    expect(withoutCurrencyWarnings(warnings, { currency: 'USD', converted: false, otherCurrencies: [] })).toEqual(warnings);
  });
});
