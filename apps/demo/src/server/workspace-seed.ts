/**
 * The throw-away project the offline agent works on. It is deliberately small but real: its tests run
 * with `node --test`, two of them fail until the agent fixes the code, and one scripted edit contains a
 * typo so the session also shows an error being hit and recovered from.
 */
export const TASK_TITLES = [
  'Run the test suite and triage the failures',
  'Fix the rounding bug in formatPrice',
  'Stop Inventory.remove from driving stock negative',
  'Validate SKUs in parseSku',
  'Resolve the TODO comments in src/report.js',
  'Add a regression test for parseSku',
  'Generate the stock report',
  'Update the CHANGELOG',
] as const;

export const WORKSPACE_FILES: Record<string, string> = {
  'package.json': `${JSON.stringify(
    {
      name: 'shelf',
      version: '0.3.0',
      private: true,
      type: 'module',
      description: 'A tiny inventory library used by the Baton demo agent.',
      scripts: { test: 'node --test', report: 'node scripts/report.js' },
    },
    null,
    2,
  )}\n`,
  'README.md': `# shelf

A tiny inventory library: prices in cents, SKUs like \`TEA-0042\`, a stock ledger and a text report.

- \`src/price.js\` formats integer cents as a price string.
- \`src/sku.js\` parses SKUs into a category and a number.
- \`src/inventory.js\` keeps quantities per SKU.
- \`src/report.js\` renders the stock table printed by \`scripts/report.js\`.

Run the tests with \`node --test\`.
`,
  'TODO.md': `# TODO

${TASK_TITLES.map((title) => `- [ ] ${title}`).join('\n')}
`,
  'CHANGELOG.md': `# Changelog

## 0.3.0

- Stock report grouped by category.

## 0.2.0

- Inventory ledger with add and remove.
`,
  'src/price.js': `/** Formats an integer number of cents as a price, e.g. 1999 -> "$19.99". */
export function formatPrice(cents, currency = '$') {
  if (!Number.isInteger(cents)) {
    throw new TypeError('cents must be an integer, got ' + cents);
  }
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const units = Math.floor(absolute / 100);
  const fraction = Math.round((absolute / 100 - units) * 10);
  return sign + currency + units + '.' + String(fraction).padStart(2, '0');
}

/** Sums a list of prices in cents. */
export function totalCents(prices) {
  return prices.reduce((sum, cents) => sum + cents, 0);
}
`,
  'src/sku.js': `/** Parses "TEA-0042" into { category: 'TEA', number: 42 }. */
export function parseSku(text) {
  const [category, digits] = text.split('-');
  return { category, number: Number(digits) };
}

export function formatSku(category, number) {
  return category + '-' + String(number).padStart(4, '0');
}
`,
  'src/inventory.js': `import { parseSku } from './sku.js';

/** Quantities on hand, per SKU. */
export class Inventory {
  constructor() {
    this.stock = new Map();
  }

  add(sku, quantity) {
    parseSku(sku);
    this.stock.set(sku, this.quantity(sku) + quantity);
  }

  remove(sku, quantity) {
    this.stock.set(sku, this.quantity(sku) - quantity);
  }

  quantity(sku) {
    return this.stock.get(sku) ?? 0;
  }

  entries() {
    return [...this.stock.entries()].sort(([a], [b]) => a.localeCompare(b));
  }
}
`,
  'src/report.js': `import { parseSku } from './sku.js';
import { formatPrice } from './price.js';

// TODO: group rows by category instead of printing one flat table
// TODO: show the value of the stock (quantity x unit price)
export function renderReport(rows) {
  const lines = ['SKU        QTY   PRICE'];
  for (const row of rows) {
    const { category } = parseSku(row.sku);
    lines.push(row.sku.padEnd(10) + ' ' + String(row.quantity).padStart(4) + '  ' + formatPrice(row.cents) + '  ' + category);
  }
  return lines.join('\\n');
}
`,
  'scripts/report.js': `import { readFileSync } from 'node:fs';
import { renderReport } from '../src/report.js';

const csv = readFileSync(new URL('../data/stock.csv', import.meta.url), 'utf8');
const rows = csv
  .trim()
  .split('\\n')
  .slice(1)
  .map((line) => {
    const [sku, quantity, cents] = line.split(',');
    return { sku, quantity: Number(quantity), cents: Number(cents) };
  });
console.log(renderReport(rows));
`,
  'data/stock.csv': `sku,quantity,cents
TEA-0001,40,450
TEA-0042,12,1299
MUG-0007,8,1850
MUG-0010,0,2200
POT-0003,5,4999
BAG-0100,120,99
`,
  'test/price.test.js': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPrice, totalCents } from '../src/price.js';

test('formats whole units', () => {
  assert.equal(formatPrice(1200), '$12.00');
});

test('keeps both decimal places', () => {
  assert.equal(formatPrice(1999), '$19.99');
  assert.equal(formatPrice(5), '$0.05');
});

test('formats negative amounts', () => {
  assert.equal(formatPrice(-250), '-$2.50');
});

test('sums prices', () => {
  assert.equal(totalCents([100, 250, 5]), 355);
});
`,
  'test/inventory.test.js': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Inventory } from '../src/inventory.js';

test('adds stock', () => {
  const inventory = new Inventory();
  inventory.add('TEA-0001', 3);
  inventory.add('TEA-0001', 2);
  assert.equal(inventory.quantity('TEA-0001'), 5);
});

test('refuses to remove more than is on hand', () => {
  const inventory = new Inventory();
  inventory.add('MUG-0007', 1);
  assert.throws(() => inventory.remove('MUG-0007', 2), /not enough stock/);
  assert.equal(inventory.quantity('MUG-0007'), 1);
});
`,
  'test/sku.test.js': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatSku, parseSku } from '../src/sku.js';

test('parses a SKU', () => {
  assert.deepEqual(parseSku('TEA-0042'), { category: 'TEA', number: 42 });
});

test('formats a SKU', () => {
  assert.equal(formatSku('MUG', 7), 'MUG-0007');
});
`,
};
