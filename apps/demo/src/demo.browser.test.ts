import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const REBOUND_HOST = 'rebound.attacker.test';
const appDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = path.join(appDirectory, 'test-artifacts');
// Built apart from dist/ so that a concurrent `turbo run build` of this app cannot race the test.
const buildDirectory = path.join(artifacts, 'dist');
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env['BATON_REQUIRE_CHROMIUM'] === '1') {
  throw new Error(
    `BATON_REQUIRE_CHROMIUM=1 but ${CHROMIUM} is missing (apt-get install -y chromium)`,
  );
}
if (!hasChromium) {
  console.warn(
    `Skipping the demo browser test: ${CHROMIUM} not found (apt-get install -y chromium).`,
  );
}

interface RunningServer {
  url: string;
  process: ChildProcess;
  output: string[];
}

/** Starts the built server on a free port, offline (no provider keys), and waits for its URL. */
function startServer(dataDirectory: string): Promise<RunningServer> {
  const environment: Record<string, string | undefined> = { ...process.env };
  for (const key of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_COMPATIBLE_BASE_URL']) {
    delete environment[key];
  }
  const child = spawn(process.execPath, [path.join(buildDirectory, 'server', 'start.js')], {
    cwd: appDirectory,
    env: {
      ...environment,
      PORT: '0',
      DEMO_DATA_DIR: dataDirectory,
      DEMO_STEP_DELAY_MS: '20',
      // A cache folder with no model: this test plays the receipt path (a one-thread local model
      // would take minutes per summary); local-summarizer.test.ts covers the model being found.
      BATON_CACHE_DIR: path.join(dataDirectory, 'no-model-cache'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start:\n${output.join('')}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /Baton demo: (http:\/\/\S+)/.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, process: child, output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output.join('')}`));
    });
  });
}

function stopServer(server: RunningServer): Promise<void> {
  return new Promise((resolve) => {
    if (server.process.exitCode !== null) {
      resolve();
      return;
    }
    server.process.once('exit', () => resolve());
    server.process.kill('SIGTERM');
  });
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, `${selector} is laid out`).not.toBeNull();
  return box!;
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Page checks of the layout: nothing wider than the viewport, the chat on screen and usable. */
async function expectUsableLayout(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, 'no horizontal overflow').toBeLessThanOrEqual(innerWidth);
  const viewport = page.viewportSize()!;
  const messages = await boxOf(page, '[data-testid="messages"]');
  expect(messages.width).toBeGreaterThan(Math.min(300, viewport.width * 0.75));
  expect(messages.height).toBeGreaterThan(150);
  expect(messages.x).toBeGreaterThanOrEqual(0);
  expect(messages.x + messages.width).toBeLessThanOrEqual(viewport.width);
  // Composer controls: inside the viewport, not over each other, not over the side panels.
  const controls = [
    await boxOf(page, '[data-testid="chat-input"]'),
    await boxOf(page, '.composer button[type="submit"]'),
    await boxOf(page, '[data-testid="continue-button"]'),
  ];
  for (const control of controls) {
    expect(control.x).toBeGreaterThanOrEqual(0);
    expect(control.x + control.width).toBeLessThanOrEqual(viewport.width);
  }
  for (const [index, control] of controls.entries()) {
    for (const other of controls.slice(index + 1)) expect(overlap(control, other)).toBe(false);
    for (const panel of await page.locator('.side > *').all()) {
      const panelBox = await panel.boundingBox();
      if (panelBox) expect(overlap(control, panelBox)).toBe(false);
    }
    expect(overlap(control, messages)).toBe(false);
  }
  for (const name of ['messages', 'context-meter', 'lineage-chain']) {
    await expect(page.getByTestId(name).isVisible()).resolves.toBe(true);
  }
}

async function numberAttribute(page: Page, testId: string, name: string): Promise<number> {
  return Number(await page.getByTestId(testId).getAttribute(name));
}

/** Presses Continue and waits for the agent's turn to finish. */
async function playTurn(page: Page): Promise<void> {
  await page.getByTestId('continue-button').click();
  await page
    .waitForFunction(
      () =>
        document.querySelector('[data-testid="chat-status"]')?.getAttribute('data-status') !==
        'ready',
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="chat-status"]')?.getAttribute('data-status') ===
      'ready',
    undefined,
    { timeout: 30_000 },
  );
}

describe.skipIf(!hasChromium)('demo in a real browser', () => {
  let browser: Browser;
  let dataDirectory: string;
  let server: RunningServer | undefined;
  let workspace: string | undefined;

  beforeAll(async () => {
    // The test drives the built app, built the way `pnpm demo` builds it.
    const build = (args: string[]) =>
      execFileSync('pnpm', ['exec', ...args], { cwd: appDirectory, stdio: 'pipe' });
    build([
      'vite',
      'build',
      '--outDir',
      path.join(buildDirectory, 'client'),
      '--logLevel',
      'error',
    ]);
    build(['tsc', '-p', 'tsconfig.build.json', '--outDir', buildDirectory]);
    dataDirectory = await mkdtemp(path.join(tmpdir(), 'baton-demo-test-'));
    await mkdir(artifacts, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
        // A name that resolves to this machine, as a DNS-rebinding attacker's name would.
        `--host-resolver-rules=MAP ${REBOUND_HOST} 127.0.0.1`,
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (server) await stopServer(server);
    if (dataDirectory) await rm(dataDirectory, { recursive: true, force: true });
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  it('compacts live, shows the meter, the event card and the lineage, and resumes after a restart', async () => {
    server = await startServer(dataDirectory);
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(server.url);
    await expect(page.getByTestId('offline-banner').textContent()).resolves.toContain(
      'No LLM configured',
    );
    // No local model: the banner (and the console) say the receipt is used and how to get a model.
    const banner = (await page.getByTestId('summarizer-banner').textContent()) ?? '';
    expect(banner).toContain("Baton's deterministic receipt");
    expect(banner).toContain('fetch-model');
    expect(server.output.join('')).toContain("Baton's deterministic receipt");
    expect(await page.getByTestId('warning').count()).toBe(0);

    let turns = 0;
    while ((await page.getByTestId('compaction-card').count()) === 0) {
      expect(turns, 'no compaction after 10 turns').toBeLessThan(10);
      await playTurn(page);
      turns++;
    }
    // The agent really worked: tool calls ran, some failed, and it answered in text.
    expect(await page.getByTestId('tool-call').count()).toBeGreaterThan(10);
    expect(await page.locator('.tool-failed').count()).toBeGreaterThan(0);

    // Meter: the latest call's prompt is back under the threshold and inside the window.
    const tokens = await numberAttribute(page, 'context-meter', 'data-tokens');
    const window = await numberAttribute(page, 'context-meter', 'data-window');
    const threshold = await numberAttribute(page, 'context-meter', 'data-threshold');
    expect(window).toBe(8_000);
    expect(threshold).toBeGreaterThan(0);
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBeLessThan(threshold);
    await expect(page.getByTestId('context-meter').textContent()).resolves.toMatch(
      /compacted away/,
    );
    // The history chart shows what was sent against what would have been sent without compaction.
    expect(await page.getByTestId('meter-chart').locator('polyline').count()).toBe(2);

    // Event card: tokens before -> after, strategy, fallback, and the receipt behind a disclosure.
    const card = page.getByTestId('compaction-card').first();
    const [before, after] = ((await card.getByTestId('compaction-tokens').textContent()) ?? '')
      .match(/[\d,]+/g)!
      .map((figure) => Number(figure.replaceAll(',', '')));
    expect(before).toBeGreaterThan(threshold);
    expect(after).toBeLessThan(before!);
    await expect(card.getByTestId('compaction-strategy').textContent()).resolves.toContain(
      'receipt',
    );
    await expect(card.getByTestId('compaction-fallback').textContent()).resolves.toBeTruthy();
    await card.locator('details summary').click();
    await expect(card.getByTestId('compaction-summary').textContent()).resolves.toContain(
      'Baton handoff',
    );

    // Lineage: the root ended by compaction, the child is current.
    await page.waitForFunction(
      () =>
        Number(
          document.querySelector('[data-testid="lineage-chain"]')?.getAttribute('data-length'),
        ) >= 2,
      undefined,
      { timeout: 10_000 },
    );
    // The chat marks the cut: one divider per compaction, after the user turn it happened in.
    const dividers = page.getByTestId('compaction-divider');
    expect(await dividers.count()).toBe(await page.getByTestId('compaction-card').count());
    await expect(dividers.first().textContent()).resolves.toMatch(
      /\d+ earlier messages? compacted into a handoff · view/,
    );
    const divider = dividers.first();
    expect(Number(await divider.getAttribute('data-removed'))).toBeGreaterThan(0);
    expect(
      await divider.evaluate(
        (element) => element.previousElementSibling?.getAttribute('data-testid') ?? '',
      ),
    ).toBe('message-user');
    // Meter and card say what their figures count.
    await expect(page.getByTestId('meter-basis').textContent()).resolves.toMatch(
      /tool definitions/,
    );
    await expect(card.getByTestId('compaction-basis').textContent()).resolves.toMatch(
      /tool definitions/,
    );

    // "view" opens what the model now sees beside the full history: head, handoff, tail.
    const messagesShown = await page.locator('[data-testid^="message-"]').count();
    await divider.getByTestId('compaction-divider-view').click();
    const modelView = page.getByTestId('model-view');
    await modelView.waitFor();
    const sections = await modelView
      .getByTestId('model-view-message')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-section')));
    const handoffAt = sections.indexOf('handoff');
    expect(handoffAt).toBeGreaterThan(0);
    expect(sections.filter((section) => section === 'handoff')).toHaveLength(1);
    expect(sections.slice(0, handoffAt).every((section) => section === 'head')).toBe(true);
    expect(sections.slice(handoffAt + 1).every((section) => section === 'tail')).toBe(true);
    expect(sections.length - handoffAt - 1).toBeGreaterThan(0);
    await expect(modelView.locator('[data-section="handoff"]').textContent()).resolves.toContain(
      'Baton handoff',
    );
    await expect(modelView.locator('[data-section="handoff"]').isVisible()).resolves.toBe(true);
    // The full history stays beside it, untouched.
    expect(await page.locator('[data-testid^="message-"]').count()).toBe(messagesShown);
    const historyBox = await boxOf(page, '[data-testid="messages"]');
    const viewBox = await boxOf(page, '[data-testid="model-view"]');
    expect(overlap(historyBox, viewBox)).toBe(false);
    expect(viewBox.x).toBeGreaterThanOrEqual(historyBox.x + historyBox.width - 1);
    await expectUsableLayout(page);
    await page.screenshot({ path: path.join(artifacts, 'demo-model-view.png') });
    if (process.env['BATON_UPDATE_SCREENSHOT'] === '1') {
      await copyFile(
        path.join(artifacts, 'demo-model-view.png'),
        path.join(appDirectory, 'screenshot.png'),
      );
    }
    await page.getByTestId('model-view-toggle').click();
    expect(await page.getByTestId('model-view').count()).toBe(0);

    const lineageBefore = await page.getByTestId('lineage-entry').allTextContents();
    expect(lineageBefore[0]).toContain('ended (compaction)');
    const messagesBefore = await page.locator('[data-testid^="message-"]').count();
    await expectUsableLayout(page);
    await page.screenshot({ path: path.join(artifacts, 'demo.png') });

    // Restart the server on the same data directory: the conversation and the lineage come back.
    await stopServer(server);
    server = await startServer(dataDirectory);
    await page.goto(server.url);
    await page.getByTestId('lineage-chain').waitFor();
    expect(await page.getByTestId('lineage-entry').allTextContents()).toEqual(lineageBefore);
    expect(await page.locator('[data-testid^="message-"]').count()).toBe(messagesBefore);
    await expect(page.getByTestId('lineage-chain').textContent()).resolves.toContain(
      'Server start #2',
    );
    const cards = await page.getByTestId('compaction-card').count();
    expect(cards).toBeGreaterThan(0);

    // The next turn continues from the compacted context rather than starting over.
    await playTurn(page);
    expect(await page.locator('[data-testid^="message-"]').count()).toBe(messagesBefore + 2);
    const lineageAfter = await page.getByTestId('lineage-entry').allTextContents();
    expect(lineageAfter).toEqual(lineageBefore);
    expect(await page.getByTestId('compaction-card').count()).toBe(cards);
    const resumedTokens = await numberAttribute(page, 'context-meter', 'data-tokens');
    expect(resumedTokens).toBeLessThanOrEqual(threshold);
    await page.screenshot({ path: path.join(artifacts, 'demo-after-restart.png') });
    workspace = (
      (await (await fetch(new URL('/api/state', server.url))).json()) as { workspace: string }
    ).workspace;
  }, 120_000);

  it('fits a phone (390 px): chat on screen, nothing overlapping, no horizontal scroll; chart readable after 80 calls', async () => {
    expect(server, 'runs after the first test').toBeDefined();
    const page = await browser.newPage({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(server!.url);
    await page.getByTestId('lineage-chain').waitFor();
    expect(await page.getByTestId('compaction-divider').count()).toBeGreaterThan(0);
    await expectUsableLayout(page);

    // Enough turns for 80+ model calls in the chart.
    const calls = async () =>
      (
        (await (await fetch(new URL('/api/state', server!.url))).json()) as {
          meterHistory: unknown[];
        }
      ).meterHistory.length;
    let turns = 0;
    while ((await calls()) < 85) {
      expect(turns, 'fewer than 85 model calls after 20 more turns').toBeLessThan(20);
      await playTurn(page);
      turns++;
    }
    await expectUsableLayout(page);
    const chart = await page.getByTestId('meter-chart').evaluate((figure) => {
      const plot = figure.querySelector('rect.chart-plot')!;
      const top = Number(plot.getAttribute('y'));
      const height = Number(plot.getAttribute('height'));
      const lineY = (testId: string) =>
        Number(figure.querySelector(`[data-testid="${testId}"]`)!.getAttribute('y1'));
      const ys = [...figure.querySelectorAll('polyline')].flatMap((line) =>
        (line.getAttribute('points') ?? '')
          .trim()
          .split(' ')
          .map((point) => Number(point.split(',')[1])),
      );
      return {
        top,
        height,
        window: lineY('chart-window'),
        threshold: lineY('chart-threshold'),
        ys,
        calls: figure.querySelector('polyline')!.getAttribute('points')!.trim().split(' ').length,
        texts: [...figure.querySelectorAll('text')].map((text) => text.textContent),
      };
    });
    expect(chart.calls).toBe(80);
    // The window and threshold lines sit in the upper half of the plot, well apart, not on the axis.
    const position = (y: number) => (y - chart.top) / chart.height;
    expect(position(chart.window)).toBeGreaterThan(0.1);
    expect(position(chart.window)).toBeLessThan(0.5);
    expect(position(chart.threshold) - position(chart.window)).toBeGreaterThan(0.1);
    expect(position(chart.threshold)).toBeLessThan(0.6);
    for (const y of chart.ys) {
      expect(y).toBeGreaterThanOrEqual(chart.top - 0.5);
      expect(y).toBeLessThanOrEqual(chart.top + chart.height + 0.5);
    }
    // Axes are labelled: the window, the threshold and the calls.
    expect(chart.texts).toEqual(expect.arrayContaining(['window', 'threshold', 'latest call']));
    await page.getByTestId('context-meter').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('meter-chart').isVisible()).resolves.toBe(true);
    const chartBox = await boxOf(page, '[data-testid="meter-chart"]');
    expect(chartBox.width).toBeGreaterThan(300);
    expect(chartBox.x + chartBox.width).toBeLessThanOrEqual(390);

    // The model view fits too: history and model view stacked, neither hidden, no overflow.
    await page.getByTestId('model-view-toggle').click();
    await page.getByTestId('model-view').waitFor();
    await expectUsableLayout(page);
    const historyBox = await boxOf(page, '[data-testid="messages"]');
    const viewBox = await boxOf(page, '[data-testid="model-view"]');
    expect(overlap(historyBox, viewBox)).toBe(false);
    expect(viewBox.height).toBeGreaterThan(100);
    expect(viewBox.width).toBeGreaterThan(300);
    await page.screenshot({ path: path.join(artifacts, 'demo-phone-model-view.png') });
    await page.getByTestId('model-view-toggle').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(artifacts, 'demo-phone.png') });
    await page.getByTestId('context-meter').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(artifacts, 'demo-phone-meter.png') });
  }, 240_000);

  it('another site in the same browser cannot drive the demo, and a rebound name gets nothing', async () => {
    expect(server, 'runs after the first test').toBeDefined();
    const stateNow = async () =>
      (await (await fetch(new URL('/api/state', server!.url))).json()) as {
        rootSessionId: string;
        messages: unknown[];
      };
    const before = await stateNow();
    // The attacker's page, served from another local port (another origin).
    const attacker = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end('<!doctype html><title>attacker</title>');
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', () => resolve()));
    const attackerPort = (attacker.address() as AddressInfo).port;
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${attackerPort}/`);
      const target = server!.url.replace(/\/$/, '');
      const results = await page.evaluate(async (base) => {
        const attempts = [
          fetch(`${base}/api/reset`, {
            method: 'POST',
            mode: 'no-cors',
            headers: { 'content-type': 'text/plain' },
            body: '',
          }),
          fetch(`${base}/api/chat`, {
            method: 'POST',
            mode: 'no-cors',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({
              message: { id: 'attack', role: 'user', parts: [{ type: 'text', text: 'rm -rf' }] },
            }),
          }),
          fetch(`${base}/api/state`),
        ];
        return Promise.all(
          attempts.map((attempt) =>
            attempt.then(
              async (response) => ({ type: response.type, body: await response.text() }),
              (error: Error) => ({ type: 'error', body: String(error) }),
            ),
          ),
        );
      }, target);
      // Opaque or blocked: the page reads nothing; and the server did nothing.
      for (const result of results) expect(result.body).not.toContain('rootSessionId');
      const after = await stateNow();
      expect(after.rootSessionId).toBe(before.rootSessionId);
      expect(after.messages.length).toBe(before.messages.length);

      // DNS rebinding: the browser reaches 127.0.0.1 under the attacker's name, and gets 403.
      const port = new URL(server!.url).port;
      const rebound = await page.goto(`http://${REBOUND_HOST}:${port}/api/state`);
      expect(rebound?.status()).toBe(403);
      expect(await page.content()).not.toContain('rootSessionId');
      const reboundPage = await page.goto(`http://${REBOUND_HOST}:${port}/`);
      expect(reboundPage?.status()).toBe(403);
      expect((await stateNow()).rootSessionId).toBe(before.rootSessionId);
    } finally {
      await page.close();
      await new Promise<void>((resolve) => attacker.close(() => resolve()));
    }
  }, 60_000);
});
