// Accessibility (issue 16): every control is reachable and operable with the keyboard. After
// signing in, the demo user only presses keys (Tab, Shift+Tab, Enter, Space, the arrows, Escape,
// letters): the main navigation to Advanced Cost; Period (Last 30 Days); Group By (Account,
// closed with Escape); Include (a preset); the filter panel's Search all values, picked with the
// arrows and Enter; a drill-down from a table row and back by the breadcrumb; the Save Report
// dialog (focus stays in it, Escape closes it and gives the focus back); the user menu; the
// Compare page's controls and a sortable column. On a sample of the controls reached the focus is
// visible: a computed outline or box-shadow, or for an outlined field its 2px focused border.
import type { Locator, Page } from '@playwright/test';
import { expect, signInThroughForm, test } from './fixtures';

const DEMO = { email: 'demo@costscope.dev', password: 'costscope-demo' };
const REGION = 'eu-west-1';

/** What has the keyboard focus, for messages: "button 'Save Report'". */
function activeElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'the page (no control)';
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 60) ?? '';
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()} '${name}'`;
  });
}

/** Whether the focus is on `target` or inside it. */
async function holdsFocus(target: Locator): Promise<boolean> {
  return target
    .first()
    .evaluate((el) => el === document.activeElement || el.contains(document.activeElement), undefined, { timeout: 1_000 })
    .catch(() => false);
}

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, what: string, { back = false, max = 150 } = {}): Promise<void> {
  for (let presses = 0; presses <= max; presses += 1) {
    if (await holdsFocus(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${what} was not reached with ${max} ${back ? 'Shift+Tab' : 'Tab'} presses; the focus is on ${await activeElement(page)}`);
}

/**
 * In an open select menu (the focus on its options), presses ArrowDown until `name` has the focus,
 * or, at the end of the list (the focus stays), ArrowUp from there.
 */
async function arrowToOption(page: Page, name: string, max = 60): Promise<void> {
  await expect(page.getByRole('listbox')).toBeVisible();
  let key = 'ArrowDown';
  let last: string | null = null;
  for (let presses = 0; presses <= max; presses += 1) {
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.getAttribute('role') === 'option' ? (el.textContent ?? '').trim() : null;
    });
    if (focused === name) return;
    if (presses > 0 && focused === last) key = 'ArrowUp';
    last = focused;
    await page.keyboard.press(key);
  }
  throw new Error(`option '${name}' was not reached with ${max} arrow presses; the focus is on ${await activeElement(page)}`);
}

/** Tabs to a one-choice select, opens it with `openKey`, arrows to `option`, and picks it with Enter. */
async function chooseWithKeys(page: Page, select: Locator, what: string, option: string, openKey = 'Enter'): Promise<void> {
  await tabTo(page, select, what);
  await page.keyboard.press(openKey);
  await arrowToOption(page, option);
  await page.keyboard.press('Enter');
}

/**
 * The focused control's visible focus cue, or null: an outline or box-shadow on it, or (MUI's
 * outlined fields, whose focus is drawn by the field's border) a focused field's 2px border.
 */
function focusCue(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return `outline ${style.outlineWidth} ${style.outlineStyle}`;
    if (style.boxShadow !== 'none') return `box-shadow ${style.boxShadow}`;
    const field = el.closest('.MuiInputBase-root');
    const border = field?.classList.contains('Mui-focused') ? field.querySelector('.MuiOutlinedInput-notchedOutline') : null;
    if (border && parseFloat(getComputedStyle(border).borderTopWidth) >= 2) return `field border ${getComputedStyle(border).borderTopWidth}`;
    return null;
  });
}

test('every control on the analyst path is reachable and operable with the keyboard only', async ({ page }) => {
  test.setTimeout(240_000);
  const noFocusCue: string[] = [];
  const checkCue = async (what: string) => {
    const cue = await focusCue(page);
    console.log(`focus cue of ${what}: ${cue ?? 'NONE'}`);
    if (!cue) noFocusCue.push(`${what} (${await activeElement(page)})`);
  };

  await signInThroughForm(page, DEMO.email, DEMO.password);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });

  // The main navigation, to Advanced Cost.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const advancedLink = nav.getByRole('link', { name: 'Advanced Cost' }).first();
  await tabTo(page, advancedLink, 'the Advanced Cost link');
  await checkCue('the Advanced Cost link');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Cost' })).toBeVisible();
  await expect(page.getByTestId('total-cost')).toBeVisible({ timeout: 20_000 });

  // Period: Last 30 Days.
  const period = page.getByRole('combobox', { name: 'Period' });
  await tabTo(page, period, 'Period');
  await checkCue('Period');
  await page.keyboard.press('Enter');
  await arrowToOption(page, 'Last 30 Days');
  await checkCue('the option Last 30 Days');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(period).toHaveText('Last 30 Days');
  await expect(period).toBeFocused();

  // Group By: Account, then Escape closes the list (several can be chosen, so it stays open).
  const groupBy = page.getByRole('combobox', { name: 'Group By' });
  await tabTo(page, groupBy, 'Group By');
  await page.keyboard.press('ArrowDown');
  await arrowToOption(page, 'Account');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('option', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(groupBy).toHaveText('Account');
  await expect(groupBy).toBeFocused();
  await expect(page).toHaveURL(/[?&]group=account(&|$)/);

  // Include: the preset Exclude tax (a preset closes the menu).
  const include = page.getByRole('combobox', { name: 'Include' });
  await chooseWithKeys(page, include, 'Include', 'Exclude tax', 'Space');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(include).toHaveText('Exclude tax');

  // The filter panel: Search all values, a match picked with the arrows and Enter.
  const filtersButton = page.getByRole('button', { name: /^Filters/ });
  await tabTo(page, filtersButton, 'the Filters button', { back: true });
  await checkCue('the Filters button');
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: 'Filters' });
  await expect(panel).toBeVisible();
  const search = panel.getByRole('combobox', { name: 'Search all values' });
  await tabTo(page, search, 'Search all values', { max: 40 });
  await checkCue('Search all values');
  await page.keyboard.type('eu-west');
  const match = page.getByRole('listbox').getByRole('option', { name: `Region · ${REGION}` });
  await expect(match).toBeVisible({ timeout: 15_000 });
  const matchId = await match.getAttribute('id');
  for (let presses = 0; presses < 20 && (await search.getAttribute('aria-activedescendant')) !== matchId; presses += 1) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(search).toHaveAttribute('aria-activedescendant', matchId!);
  await page.keyboard.press('Enter');
  await expect(panel).toBeHidden();
  await expect(page.getByRole('list', { name: 'Applied filters' }).getByText(`Region equals ${REGION}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`region=${REGION}`));

  // Drill down from a row of the table with Enter, then back with the breadcrumb.
  const table = page.getByRole('table', { name: 'Cost by group' });
  await expect(page.getByRole('progressbar', { name: 'Updating cost data' })).toHaveCount(0, { timeout: 20_000 });
  await expect(table).toBeVisible({ timeout: 20_000 });
  const firstDrill = table.getByRole('button', { name: /^Drill into / }).first();
  const account = ((await firstDrill.getAttribute('aria-label')) ?? '').replace(/^Drill into /, '');
  await tabTo(page, firstDrill, `the table's first row (${account})`);
  await checkCue(`the drill button of ${account}`);
  await page.keyboard.press('Enter');
  const path = page.getByRole('navigation', { name: 'Drill-down path' });
  await expect(path).toBeVisible();
  await expect(path.getByRole('listitem')).toHaveText(['All costs', new RegExp(`^Account: `)]);
  await expect(page).toHaveURL(/[?&]drill=account:/);
  const allCosts = path.getByRole('button', { name: 'All costs' });
  await tabTo(page, allCosts, 'the breadcrumb All costs');
  await checkCue('the breadcrumb All costs');
  await page.keyboard.press('Enter');
  await expect(path).toHaveCount(0);
  await expect(page).not.toHaveURL(/[?&]drill=/);
  await expect(groupBy).toHaveText('Account');

  // A dialog: Save Report opens with the focus in it, keeps the focus in it, and Escape closes it
  // and gives the focus back to the button.
  const saveButton = page.getByRole('button', { name: 'Save Report' });
  await tabTo(page, saveButton, 'Save Report');
  await checkCue('Save Report');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Save Report' });
  await expect(dialog).toBeVisible();
  await expect.poll(() => holdsFocus(dialog)).toBe(true);
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    expect(await holdsFocus(dialog), `after ${key} the focus is on ${await activeElement(page)}, outside the dialog`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(saveButton).toBeFocused();

  // The user menu: opened with Enter, the arrows move between its items, Escape closes it.
  const userButton = page.getByRole('button', { name: 'Open user menu' });
  await tabTo(page, userButton, 'the user menu button', { back: true });
  await checkCue('the user menu button');
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
  const firstItem = await activeElement(page);
  await page.keyboard.press('ArrowDown');
  expect(await activeElement(page)).not.toBe(firstItem);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
  await checkCue('a user menu item');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(userButton).toBeFocused();

  // Compare: its Group By, Period, Compare with and Include, and a sortable column.
  const compareLink = nav.getByRole('link', { name: 'Compare' }).first();
  await tabTo(page, compareLink, 'the Compare link');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Compare' })).toBeVisible();
  const options = page.getByRole('toolbar', { name: 'Compare options' });
  const compareGroup = options.getByRole('combobox', { name: 'Group By' });
  await chooseWithKeys(page, compareGroup, "Compare's Group By", 'Service');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(compareGroup).toHaveText('Service');
  const compareTable = page.getByRole('table', { name: 'Comparison by service' });
  await expect(compareTable).toBeVisible({ timeout: 20_000 });

  const comparePeriod = options.getByRole('combobox', { name: 'Period' });
  await chooseWithKeys(page, comparePeriod, "Compare's Period", 'Last 30 Days');
  await expect(comparePeriod).toHaveText('Last 30 Days');

  for (const name of ['Compare with', 'Include']) {
    const select = options.getByRole('combobox', { name });
    await tabTo(page, select, `Compare's ${name}`);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('listbox')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('listbox')).toBeHidden();
    await expect(select).toBeFocused();
  }

  const currentHeader = compareTable.getByRole('columnheader', { name: /^Current/ });
  const sortCurrent = currentHeader.getByRole('button');
  await tabTo(page, sortCurrent, 'the Current column sort');
  await checkCue('the Current column sort');
  // An unsorted column has no aria-sort at all, so wait for the new value rather than for the
  // old one to go (which an absent attribute satisfies before the key has taken effect).
  const before = await currentHeader.getAttribute('aria-sort');
  await page.keyboard.press('Enter');
  await expect.poll(() => currentHeader.getAttribute('aria-sort')).not.toBe(before);
  const after = await currentHeader.getAttribute('aria-sort');
  expect(['ascending', 'descending']).toContain(after);
  await page.keyboard.press('Enter');
  await expect(currentHeader).toHaveAttribute('aria-sort', after === 'ascending' ? 'descending' : 'ascending');

  expect(noFocusCue, `controls without a visible focus cue:\n${noFocusCue.join('\n')}`).toEqual([]);
});
