import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from './create-workspace.js';
import { createWorkspaceTools, resolveInside } from './workspace-tools.js';

let workspace: Workspace;
let tools: ReturnType<typeof createWorkspaceTools>;
const options = { toolCallId: 'test', messages: [], context: {} };

beforeAll(async () => {
  workspace = await createWorkspace();
  tools = createWorkspaceTools(workspace.directory);
});
afterAll(() => workspace.remove());

describe('workspace tools', () => {
  it('refuses paths outside the workspace', async () => {
    expect(() => resolveInside('/tmp/root', '../etc/passwd')).toThrow(/outside the workspace/);
    expect(() => resolveInside('/tmp/root', '/etc/passwd')).toThrow(/outside the workspace/);
    expect(resolveInside('/tmp/root', 'src/a.js')).toBe(path.join('/tmp/root', 'src/a.js'));
    await expect(tools.read_file.execute!({ path: '../../etc/hostname' }, options)).rejects.toThrow(
      /outside the workspace/,
    );
  });

  it('lists, reads and searches the seeded project', async () => {
    const files = await tools.list_files.execute!({ path: '.' }, options);
    expect(files).toContain('src/price.js');
    expect(files).toContain('TODO.md');
    const todo = await tools.read_file.execute!({ path: 'TODO.md' }, options);
    expect(todo).toMatch(/^- \[ \] /m);
    const matches = await tools.search.execute!({ pattern: 'TODO', path: 'src' }, options);
    expect(matches).toMatch(/^src\/report\.js:4: \/\/ TODO/m);
    expect(await tools.search.execute!({ pattern: 'no-such-text', path: '.' }, options)).toMatch(
      /no matches/,
    );
  });

  it('edits exactly one occurrence and fails loudly otherwise', async () => {
    await expect(
      tools.edit_file.execute!(
        { path: 'src/sku.js', find: 'not in the file', replace: 'x' },
        options,
      ),
    ).rejects.toThrow(/not found/);
    await expect(
      tools.edit_file.execute!({ path: 'src/sku.js', find: 'category', replace: 'x' }, options),
    ).rejects.toThrow(/occurs \d+ times/);
    await tools.edit_file.execute!(
      { path: 'CHANGELOG.md', find: '# Changelog', replace: '# Change log' },
      options,
    );
    expect(await readFile(path.join(workspace.directory, 'CHANGELOG.md'), 'utf8')).toMatch(
      /^# Change log/,
    );
  });

  it('runs allowed programs without a shell and reports the exit code', async () => {
    const failing = await tools.run_command.execute!(
      { command: 'node', args: ['--test', 'test/price.test.js'] },
      options,
    );
    expect(failing).toMatch(/^exit code 1$/m);
    const listing = await tools.run_command.execute!({ command: 'ls', args: ['src'] }, options);
    expect(listing).toMatch(/^exit code 0$/m);
    expect(listing).toContain('inventory.js');
    await expect(
      tools.run_command.execute!({ command: 'node', args: ['-e', 'process.exit(3)'] }, options),
    ).rejects.toThrow(/not allowed/);
    await expect(
      tools.run_command.execute!({ command: 'node', args: ['--eval=1'] }, options),
    ).rejects.toThrow(/not allowed/);
    await expect(
      tools.run_command.execute!({ command: 'cat', args: ['/etc/hostname'] }, options),
    ).rejects.toThrow(/outside the workspace/);
    await expect(
      tools.run_command.execute!({ command: 'grep', args: ['--file=../secrets', 'x'] }, options),
    ).rejects.toThrow(/outside the workspace/);
    // Shell syntax is passed as a literal argument, never interpreted.
    const literal = await tools.run_command.execute!(
      { command: 'ls', args: ['; echo pwned'] },
      options,
    );
    expect(literal).not.toMatch(/^pwned$/m);
  });
});
