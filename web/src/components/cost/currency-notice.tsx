import { Alert, Link, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';

/** Where a tenant chooses its display currency and uploads exchange rates. */
export const CURRENCY_SETTINGS_PATH = '/settings/currency';

/** An amount the answer's figures leave out, in its own currency. */
export interface LeftOutAmount {
  currency: string;
  amount: number;
}

/** What every cost answer says about its money (docs/API-COST.md, multi-currency). */
export interface CurrencyFacts {
  currency?: string | null;
  converted?: boolean | null;
  otherCurrencies?: LeftOutAmount[] | null;
}

const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "12.34", "1,234.50" (the server's money format, without a sign on an amount that rounds to zero). */
function leftOutAmount(amount: number): string {
  const text = amountFormat.format(Number.isFinite(amount) ? amount : 0);
  return /^-0\.00$/.test(text) ? text.slice(1) : text;
}

/** "EUR (12.34)", "EUR (12.34) and GBP (5.00)", "EUR (1.00), GBP (2.00) and JPY (300.00)". */
function listAmounts(amounts: LeftOutAmount[]): string {
  const parts = amounts.map((a) => `${a.currency} (${leftOutAmount(a.amount)})`);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** "Converted to EUR with your exchange rates", or null when nothing in the answer was converted. */
export function convertedText(answer: CurrencyFacts | null | undefined): string | null {
  return answer?.converted && answer.currency ? `Converted to ${answer.currency} with your exchange rates` : null;
}

/** "Costs in EUR (12.34) are not included: …", or null when the answer includes every currency. */
export function leftOutText(answer: CurrencyFacts | null | undefined): string | null {
  const amounts = answer?.otherCurrencies ?? [];
  if (amounts.length === 0) return null;
  return `Costs in ${listAmounts(amounts)} are not included: choose a display currency and upload exchange rates to combine currencies`;
}

const CONVERTED_LINE = /^Converted to \S+ with your exchange rates$/;
const LEFT_OUT_LINE = /^Costs in .+ are not included: /;

/**
 * An answer's `warnings` without the currency lines the notice already shows (the server writes
 * them into `warnings` too), so a page that lists warnings does not say them twice.
 */
export function withoutCurrencyWarnings(warnings: string[], answer: CurrencyFacts | null | undefined): string[] {
  const converted = convertedText(answer) !== null;
  const leftOut = leftOutText(answer) !== null;
  return warnings.filter((line) => !(converted && CONVERTED_LINE.test(line)) && !(leftOut && LEFT_OUT_LINE.test(line)));
}

/**
 * What a cost screen's figures are in: that they were converted with the tenant's exchange
 * rates, and which amounts in other currencies they leave out, with a link to the Currency
 * settings. Nothing when the answer is in one currency and complete.
 */
export function CurrencyNotice({ answer }: { answer: CurrencyFacts | null | undefined }) {
  const converted = convertedText(answer);
  const leftOut = leftOutText(answer);
  if (!converted && !leftOut) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="currency-notice">
      {leftOut ? (
        <Alert
          severity="warning"
          action={
            <Link component={RouterLink} to={CURRENCY_SETTINGS_PATH} color="inherit" sx={{ whiteSpace: 'nowrap', alignSelf: 'center' }}>
              Currency settings
            </Link>
          }
        >
          {leftOut}
        </Alert>
      ) : null}
      {converted ? <Alert severity="info">{converted}</Alert> : null}
    </Stack>
  );
}
