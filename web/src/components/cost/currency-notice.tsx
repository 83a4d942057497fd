import { Alert, Box, Link, Stack } from '@mui/material';
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
  /** The answer's warning lines, among them the server's own wording of the currency lines. */
  warnings?: string[] | null;
}

const CONVERTED_LINE = /^Converted to \S+ with your exchange rates$/;
const LEFT_OUT_LINE = /^Costs in .+ are not included: /;

/** "12.34", "1234.50": the server's `{:.2}`. */
function leftOutAmount(amount: number): string {
  const text = (Number.isFinite(amount) ? amount : 0).toFixed(2);
  return text === '-0.00' ? '0.00' : text;
}

/**
 * One line per currency the answer leaves out: the server's lines from `warnings` (which say
 * what to do next: choose a display currency, or upload the missing rate), else built from
 * `otherCurrencies`; none when the answer includes every currency.
 */
export function leftOutLines(answer: CurrencyFacts | null | undefined): string[] {
  const amounts = answer?.otherCurrencies ?? [];
  if (amounts.length === 0) return [];
  const fromServer = (answer?.warnings ?? []).filter((line) => LEFT_OUT_LINE.test(line));
  if (fromServer.length > 0) return fromServer;
  return amounts.map(
    (a) =>
      `Costs in ${a.currency} (${leftOutAmount(a.amount)}) are not included: choose a display currency and upload exchange rates to combine currencies`,
  );
}

/** "Converted to EUR with your exchange rates", or null when nothing in the answer was converted. */
export function convertedText(answer: CurrencyFacts | null | undefined): string | null {
  return answer?.converted && answer.currency ? `Converted to ${answer.currency} with your exchange rates` : null;
}

/**
 * An answer's `warnings` without the currency lines the notice already shows, so a page that
 * lists warnings does not say them twice.
 */
export function withoutCurrencyWarnings(warnings: string[], answer: CurrencyFacts | null | undefined): string[] {
  const converted = convertedText(answer) !== null;
  const leftOut = leftOutLines(answer).length > 0;
  return warnings.filter((line) => !(converted && CONVERTED_LINE.test(line)) && !(leftOut && LEFT_OUT_LINE.test(line)));
}

/**
 * What a cost screen's figures are in: that they were converted with the tenant's exchange
 * rates, and which amounts in other currencies they leave out, with a link to the Currency
 * settings. Nothing when the answer is in one currency and complete.
 */
export function CurrencyNotice({ answer }: { answer: CurrencyFacts | null | undefined }) {
  const converted = convertedText(answer);
  const leftOut = leftOutLines(answer);
  if (!converted && leftOut.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="currency-notice">
      {leftOut.length > 0 ? (
        <Alert
          severity="warning"
          action={
            <Link component={RouterLink} to={CURRENCY_SETTINGS_PATH} color="inherit" sx={{ whiteSpace: 'nowrap', alignSelf: 'center' }}>
              Currency settings
            </Link>
          }
        >
          {leftOut.map((line) => (
            <Box key={line}>{line}</Box>
          ))}
        </Alert>
      ) : null}
      {converted ? <Alert severity="info">{converted}</Alert> : null}
    </Stack>
  );
}
