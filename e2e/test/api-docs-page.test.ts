import { ROUTE_TABLE } from '../../services/gateway/src/routes/route-table.js';
import { operationId } from '../../services/gateway/src/docs/merge-document.js';
import { type HeadlessBrowser, launchChromium } from './support/browser.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';
import { scaled } from '@school/testing';

/** Contract §2: `GET /api/docs`, the interactive page, in a real browser with nothing but the gateway to talk to. */
describe('the API documentation page in headless Chromium', () => {
  let system: SystemView;
  let chromium: HeadlessBrowser;

  beforeAll(async () => {
    system = await sharedSystem();
    chromium = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
  });

  it('lists every route and executes GET /.well-known/jwks.json from the page', async () => {
    const page = await chromium.context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // Contract §9: the page's CSP allows only its own scripts and styles, and the page still works under it.
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/content security policy/i.test(message.text())) violations.push(message.text());
    });

    const served = await page.goto(`${system.gatewayUrl}/api/docs`);
    expect(served?.headers()['content-security-policy']).toMatch(/default-src 'none'.*script-src 'self'.*style-src 'self'/);
    await page
      .locator('.opblock')
      .first()
      .waitFor({ timeout: scaled(30_000) });
    expect(await page.locator('.opblock').count()).toBe(ROUTE_TABLE.length);
    await expect(page.locator('.opblock-summary-path', { hasText: '/api/lookups/provinces' }).first().isVisible()).resolves.toBe(true);

    const jwks = page.locator(`[id$="-${operationId('GET', '/.well-known/jwks.json')}"]`);
    await jwks.locator('.opblock-summary').first().click();
    await jwks.locator('button.try-out__btn').click();
    await jwks.locator('button.execute').click();
    const answer = jwks.locator('.live-responses-table tr.response');
    await answer.first().waitFor({ timeout: scaled(15_000) });
    expect((await answer.locator('.response-col_status').first().innerText()).trim()).toBe('200');
    expect(await answer.locator('.response-col_description').first().innerText()).toContain('"keys"');

    expect(requested.filter((url) => !url.startsWith(system.gatewayUrl))).toEqual([]);
    expect(requested).toContain(`${system.gatewayUrl}/.well-known/jwks.json`);
    expect(violations).toEqual([]);
  }, 90_000);
});
