import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WORKSPACE_FILES } from './workspace-seed.js';

export interface Workspace {
  /** Absolute path of the workspace directory. */
  directory: string;
  /** Deletes the workspace and everything in it. */
  remove(): Promise<void>;
}

export interface CreateWorkspaceOptions {
  /**
   * Directory to (re)use. When it already holds files they are kept, so a restarted server continues on
   * the same project. Default: a new directory under the OS temp folder.
   */
  directory?: string;
}

/** Creates the throw-away project the agent reads, searches, edits and tests. */
export async function createWorkspace(options: CreateWorkspaceOptions = {}): Promise<Workspace> {
  const directory =
    options.directory ?? (await mkdtemp(path.join(tmpdir(), 'baton-demo-workspace-')));
  await mkdir(directory, { recursive: true });
  const existing = await readdir(directory);
  if (existing.length === 0) {
    for (const [relativePath, content] of Object.entries(WORKSPACE_FILES)) {
      const target = path.join(directory, relativePath);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
    }
  }
  return {
    directory,
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}
