// The web app runs under the server's Content-Security-Policy: the demo user signs in, sees
// Mission Control and a cost page, and the browser reports no CSP violation.
import { expect, signInThroughForm, test } from './fixtures';

test('the app works under the security headers with no CSP violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content[- ]Security[- ]Policy|Refused to (load|execute|apply|connect|frame)/i.test(text)) {
      violations.push(text);
    }
  });
  await page.exposeFunction('reportCspViolation', (detail: string) => violations.push(detail));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (detail: string) => void })
        .reportCspViolation;
      report(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });

  const response = await page.goto('/');
  const headers = response!.headers();
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');

  await signInThroughForm(page, 'demo@costscope.dev', 'costscope-demo');
  await expect(page.getByRole('heading', { name: 'Mission Control', level: 1 })).toBeVisible();
  // Charts render (inline styles, SVG) once the cost answers arrive.
  await page.waitForLoadState('networkidle');

  expect(violations, violations.join('\n')).toEqual([]);
});
