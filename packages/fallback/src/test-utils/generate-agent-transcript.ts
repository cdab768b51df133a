import type { ModelMessage } from '@ai-sdk/provider-utils';
import { mulberry32 } from './mulberry32.js';

/**
 * Synthetic agent transcripts in shapes the dev corpus does not hold (other tool naming, other
 * ecosystems' errors, other ways to name the working directory and files), with their ground truth
 * known by construction: which error headlines were printed and which a later run of the same
 * command fixed, which project files were referred to and how often (cwd-relative, `/`-separated),
 * which runtime or library internals a trace named, which tools ran, what the user asked and which
 * secrets were pasted. Self-contained (types only) so that benches can run it with Node directly.
 */
export interface GeneratedError {
  /** The error headline as a reader sees it: no colour codes, whitespace collapsed. */
  line: string;
  ecosystem: string;
  /** A later run of the same command succeeded. */
  resolved: boolean;
}

export interface GeneratedTranscript {
  shape: string;
  /** The working directory with `/` separators (a drive letter upper-case on Windows). */
  cwd: string;
  messages: ModelMessage[];
  errors: GeneratedError[];
  /** cwd-relative path (`/`-separated) -> references the window makes to it. */
  files: Map<string, number>;
  /** Files the agent edited (cwd-relative). */
  edited: Set<string>;
  /** Runtime and library files named in traces only: never to be listed. */
  internals: string[];
  tools: string[];
  asks: string[];
  secrets: string[];
  ecosystems: string[];
  /** How this transcript was drawn (`ansi`, `spaced-cwd`, `wrapping:json`, `cwd:3`, ...). */
  traits: string[];
}

export const generatedShapes = [
  'cursor',
  'openhands',
  'codex',
  'gemini',
  'mcp-json',
  'windows',
] as const;
export type GeneratedShape = (typeof generatedShapes)[number];

type Random = () => number;

const syllables = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tas',
  'vo',
  'pel',
  'dun',
  'sor',
  'bri',
  'gal',
  'nex',
  'tor',
  'quin',
  'mar',
  'zu',
  'fen',
  'hol',
  'bar',
  'wik',
  'sta',
  'plu',
  'dor',
  'vin',
  'cas',
  'jum',
  'tri',
  'gor',
];

/** Seeded draws of numbers, items and filler words. */
export class Draw {
  readonly random: Random;
  constructor(random: Random) {
    this.random = random;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  word(min = 2, max = 3): string {
    let out = '';
    for (let n = this.int(min, max); n > 0; n--) out += this.pick(syllables);
    return out;
  }
  title(): string {
    const word = this.word();
    return word[0]!.toUpperCase() + word.slice(1);
  }
  alnum(
    length: number,
    alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  ) {
    let out = '';
    for (let n = 0; n < length; n++) out += alphabet[Math.floor(this.random() * alphabet.length)];
    return out;
  }
}

interface Ecosystem {
  name: string;
  /** A project file of this ecosystem, cwd-relative. */
  file: (d: Draw) => string;
  testFile: (d: Draw, file: string) => string;
  command: (d: Draw, file: string) => string;
  /** A failing run: output text (built with `ref`) and its headline. */
  failure: (d: Draw, ctx: FailureContext) => { output: string; headline: string };
  success: (d: Draw) => string;
}

interface FailureContext {
  file: string;
  test: string;
  /** A reference to a project file in the given form; counted as one reference. */
  ref: (rel: string, form?: Form) => string;
  /** A runtime or library file (not counted, must not be listed). */
  internal: (path: string) => string;
  abs: string;
}

type Form = 'abs' | 'rel' | 'dot' | 'url' | 'any';

const ecosystems: Ecosystem[] = [
  {
    name: 'go',
    file: (d) => `${d.pick(['internal', 'pkg', 'cmd'])}/${d.word()}/${d.word()}.go`,
    testFile: (_d, file) => file.replace(/\.go$/, '_test.go'),
    command: (d, file) =>
      d.chance(0.5) ? `go test ./${file.slice(0, file.lastIndexOf('/'))}/...` : 'go test ./...',
    failure: (d, { file, test, ref, internal }) => {
      const name = `Test${d.title()}${d.title()}`;
      if (d.chance(0.5)) {
        const headline = `panic: runtime error: index out of range [${d.int(3, 99)}] with length ${d.int(0, 2)}`;
        return {
          headline,
          output: `${headline}\n\ngoroutine ${d.int(1, 40)} [running]:\nmain.${d.word()}(...)\n\t${ref(file, 'abs')}:${d.int(5, 300)} +0x1d\n${internal('/usr/local/go/src/runtime/panic.go')}:${d.int(100, 900)} +0x2f\nexit status 2\nFAIL\tgithub.com/${d.word()}/${d.word()}\t0.0${d.int(1, 9)}s`,
        };
      }
      const headline = `--- FAIL: ${name} (0.0${d.int(0, 9)}s)`;
      return {
        headline,
        output: `=== RUN   ${name}\n    ${ref(test, 'rel')}:${d.int(5, 200)}: got ${d.int(0, 9)}, want ${d.int(10, 99)}\n${headline}\nFAIL\nFAIL\tgithub.com/${d.word()}/${d.word()}/${d.word()}\t0.0${d.int(1, 9)}s\nFAIL`,
      };
    },
    success: (d) => `ok  \tgithub.com/${d.word()}/${d.word()}\t0.0${d.int(1, 9)}s`,
  },
  {
    name: 'rust',
    file: (d) => `src/${d.word()}/${d.word()}.rs`,
    testFile: (_d, file) => file,
    command: (d) => d.pick(['cargo build', 'cargo test', 'cargo check --all-targets']),
    failure: (d, { file, ref, abs }) => {
      const name = d.word();
      const [code, message] = d.pick([
        [
          'E0308',
          `mismatched types: expected \`u${d.pick([8, 16, 32, 64])}\`, found \`&str\` in \`${name}\``,
        ],
        ['E0425', `cannot find value \`${name}\` in this scope`],
        [
          'E0599',
          `no method named \`${name}\` found for struct \`${d.title()}\` in the current scope`,
        ],
      ] as const);
      const headline = `error[${code}]: ${message}`;
      const line = d.int(3, 400);
      return {
        headline,
        output: `   Compiling ${d.word()} v0.1.0 (${abs})\n${headline}\n  --> ${ref(file, 'rel')}:${line}:${d.int(1, 40)}\n   |\n${line} |     let ${name}: u32 = "${d.word()}";\n   |                  ^^^^^ expected \`u32\`, found \`&str\`\n\nerror: could not compile \`${d.word()}\` (bin "${d.word()}") due to 1 previous error`,
      };
    },
    success: (d) =>
      `   Finished \`dev\` profile [unoptimized + debuginfo] target(s) in ${d.int(1, 9)}.${d.int(10, 99)}s\ntest result: ok. ${d.int(2, 40)} passed; 0 failed`,
  },
  {
    name: 'java',
    file: (d) => `src/main/java/com/${d.word()}/${d.title()}.java`,
    testFile: (_d, file) => file.replace('/main/', '/test/').replace(/\.java$/, 'Test.java'),
    command: (d) => d.pick(['mvn -q test', './gradlew test', 'mvn compile']),
    failure: (d, { file, ref, internal }) => {
      if (d.chance(0.5)) {
        const headline = `Exception in thread "main" java.lang.IllegalStateException: ${d.word()} ${d.word()} not configured`;
        const cls = file.slice(file.lastIndexOf('/') + 1, -5);
        return {
          headline,
          output: `${headline}\n\tat com.${d.word()}.${cls}.${d.word()}(${cls}.java:${d.int(5, 300)})\n\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1596)\n\tat ${internal(`/home/dev/.m2/repository/org/${d.word()}/${d.word()}/1.2.0/${d.word()}-1.2.0.jar`)}\n[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test)`,
        };
      }
      const headline = `[ERROR] ${ref(file, 'abs')}:[${d.int(5, 300)},${d.int(1, 40)}] cannot find symbol ${d.word()}`;
      return {
        headline: headline,
        output: `[INFO] Compiling ${d.int(3, 90)} source files\n[ERROR] COMPILATION ERROR :\n${headline}\n[INFO] BUILD FAILURE`,
      };
    },
    success: (d) =>
      `[INFO] Tests run: ${d.int(3, 90)}, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS`,
  },
  {
    name: 'kotlin',
    file: (d) => `src/main/kotlin/${d.word()}/${d.title()}.kt`,
    testFile: (_d, file) => file.replace('/main/', '/test/').replace(/\.kt$/, 'Test.kt'),
    command: () => './gradlew build',
    failure: (d, { file, ref }) => {
      const at = `${ref(file, 'abs')}:${d.int(5, 300)}:${d.int(1, 40)}`;
      const headline = `e: file://${at} Unresolved reference: ${d.word()}`;
      return {
        headline,
        output: `> Task :app:compileKotlin FAILED\n${headline}\n\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in ${d.int(2, 40)}s`,
      };
    },
    success: (d) =>
      `BUILD SUCCESSFUL in ${d.int(2, 40)}s\n${d.int(3, 9)} actionable tasks: ${d.int(1, 3)} executed`,
  },
  {
    name: 'tsc',
    file: (d) => `src/${d.word()}/${d.word()}.ts`,
    testFile: (_d, file) => file.replace(/\.ts$/, '.test.ts'),
    command: (d) => d.pick(['npx tsc --noEmit', 'pnpm typecheck', 'npm run build']),
    failure: (d, { file, ref }) => {
      const where = d.chance(0.5)
        ? `${ref(file, 'rel')}(${d.int(2, 300)},${d.int(1, 40)}): error`
        : `${ref(file, 'rel')}:${d.int(2, 300)}:${d.int(1, 40)} - error`;
      const headline = `${where} TS${d.pick([2322, 2339, 2345, 7006])}: Property '${d.word()}' does not exist on type '${d.title()}'.`;
      return { headline, output: `${headline}\n\nFound 1 error in ${ref(file, 'rel')}:3\n` };
    },
    success: () => '',
  },
  {
    name: 'eslint',
    file: (d) => `src/${d.word()}/${d.word()}.tsx`,
    testFile: (_d, file) => file,
    command: (d) => d.pick(['npx eslint .', 'pnpm lint', 'npm run lint -- --max-warnings=0']),
    failure: (d, { file, ref }) => {
      const headline = `${d.int(2, 300)}:${d.int(1, 40)} error '${d.word()}' is assigned a value but never used and the ${d.word()} handler stays unused here @typescript-eslint/no-unused-vars`;
      return {
        headline,
        output: `\n${ref(file, 'abs')}\n  ${headline.replace(/ error /, '  error  ')}\n\n✖ 1 problem (1 error, 0 warnings)\n`,
      };
    },
    success: () => '',
  },
  {
    name: 'jest',
    file: (d) => `src/${d.word()}/${d.word()}.js`,
    testFile: (_d, file) => file.replace(/\.js$/, '.test.js'),
    command: (d, file) =>
      d.pick(['npx jest', `npx jest ${file.replace(/\.js$/, '.test.js')}`, 'npm test']),
    failure: (d, { test, ref }) => {
      const headline = `● ${d.title()} › ${d.word()} ${d.word()} returns the ${d.word()}`;
      return {
        headline,
        output: ` FAIL  ${ref(test, 'rel')}\n  ${headline}\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: ${d.int(0, 50)}\n    Received: ${d.int(51, 99)}\n\n      at Object.<anonymous> (${ref(test, 'rel')}:${d.int(3, 90)}:${d.int(1, 30)})\n\nTests:       1 failed, ${d.int(2, 30)} passed, ${d.int(31, 60)} total`,
      };
    },
    success: (d) =>
      `Tests:       ${d.int(3, 30)} passed, ${d.int(3, 30)} total\nTime:        ${d.int(1, 9)}.2 s`,
  },
  {
    name: 'vitest',
    file: (d) => `src/${d.word()}/${d.word()}.ts`,
    testFile: (_d, file) => file.replace(/\.ts$/, '.test.ts'),
    command: (d) => d.pick(['npx vitest run', 'pnpm test']),
    failure: (d, { test, ref }) => {
      const headline = `FAIL ${ref(test, 'rel')} > ${d.title()} > ${d.word()} ${d.word()}`;
      return {
        headline,
        output: ` ❯ ${ref(test, 'rel')} (${d.int(2, 9)} tests | 1 failed) ${d.int(3, 90)}ms\n\n⎯⎯⎯ Failed Tests 1 ⎯⎯⎯\n\n ${headline.replace('FAIL ', 'FAIL  ')}\nAssertionError: expected ${d.int(0, 50)} to be ${d.int(51, 99)} // Object.is equality\n ❯ ${ref(test, 'rel')}:${d.int(3, 90)}:${d.int(1, 30)}\n\n Test Files  1 failed (1)`,
      };
    },
    success: (d) =>
      ` Test Files  ${d.int(1, 9)} passed (${d.int(1, 9)})\n      Tests  ${d.int(3, 40)} passed`,
  },
  {
    name: 'pytest',
    file: (d) => `${d.word()}/${d.word()}.py`,
    testFile: (_d, file) => `tests/test_${file.slice(file.lastIndexOf('/') + 1)}`,
    command: (d, file) =>
      d.pick(['pytest -q', `python -m pytest tests/test_${file.slice(file.lastIndexOf('/') + 1)}`]),
    failure: (d, { test, ref, internal }) => {
      const name = `test_${d.word()}_${d.word()}`;
      const a = d.int(0, 50);
      const b = d.int(51, 99);
      const shown = ref(test, 'rel');
      const headline = `FAILED ${shown}::${name} - assert ${a} == ${b}`;
      return {
        headline,
        output: `____ ${name} ____\n\n    def ${name}():\n>       assert ${d.word()}(2) == ${b}\nE       assert ${a} == ${b}\n\n${ref(test, 'rel')}:${d.int(3, 90)}: AssertionError\n${internal(`/usr/lib/python3.12/site-packages/_pytest/${d.word()}.py`)}:88: in runtest\n=== short test summary info ===\n${headline}\n=== 1 failed, ${d.int(2, 30)} passed in 0.${d.int(10, 99)}s ===`,
      };
    },
    success: (d) => `${d.int(3, 40)} passed in 0.${d.int(10, 99)}s`,
  },
  {
    name: 'ruby',
    file: (d) => `app/${d.pick(['models', 'services', 'controllers'])}/${d.word()}.rb`,
    testFile: (_d, file) => file.replace(/^app/, 'spec').replace(/\.rb$/, '_spec.rb'),
    command: (d) => d.pick(['bundle exec rspec', 'bundle exec rails runner script.rb']),
    failure: (d, { file, ref, internal }) => {
      const headline = `${ref(file, 'abs')}:${d.int(2, 200)}:in '${d.word()}': undefined method '${d.word()}' for nil (NoMethodError)`;
      return {
        headline,
        output: `${headline}\n\tfrom ${internal(`/usr/lib/ruby/gems/3.2.0/gems/${d.word()}-3.0.8/lib/${d.word()}.rb`)}:12:in 'call'\n\tfrom ${ref(file, 'abs')}:3:in '<main>'`,
      };
    },
    success: (d) => `${d.int(3, 60)} examples, 0 failures`,
  },
  {
    name: 'php',
    file: (d) => `src/${d.title()}/${d.title()}.php`,
    testFile: (_d, file) => file.replace(/^src/, 'tests').replace(/\.php$/, 'Test.php'),
    command: (d) => d.pick(['php artisan test', 'vendor/bin/phpunit', 'php public/index.php']),
    failure: (d, { file, ref, internal }) => {
      const fn = d.word();
      const headline = `PHP Fatal error: Uncaught Error: Call to undefined function ${fn}() in ${ref(file, 'abs')}:${d.int(2, 200)}`;
      return {
        headline,
        output: `${headline.replace('error: ', 'error:  ')}\nStack trace:\n#0 ${internal(`/var/www/vendor/laravel/framework/src/${d.title()}.php`)}(12): ${d.title()}->handle()\n#1 {main}\n  thrown in ${ref(file, 'abs')} on line ${d.int(2, 200)}`,
      };
    },
    success: (d) => `OK (${d.int(3, 60)} tests, ${d.int(3, 90)} assertions)`,
  },
  {
    name: 'node',
    file: (d) => `src/${d.word()}/${d.word()}.mjs`,
    testFile: (_d, file) => file.replace(/\.mjs$/, '.test.mjs'),
    command: (_d, file) => `node ${file}`,
    failure: (d, { file, ref, internal }) => {
      const key = d.word();
      const headline = `TypeError: Cannot read properties of undefined (reading '${key}')`;
      return {
        headline,
        output: `${ref(file, 'abs')}:${d.int(2, 200)}\n    const x = cfg.${key}.map(fn);\n                     ^\n\n${headline}\n    at ${d.word()} (${ref(file, 'abs')}:${d.int(2, 200)}:${d.int(1, 40)})\n    at Module._compile (${internal('node:internal/modules/cjs/loader')}:1469:14)\n    at Object.<anonymous> (${internal(`/srv/app/node_modules/${d.word()}/index.js`)}:4:3)\n\nNode.js v22.3.0`,
      };
    },
    success: () => 'done',
  },
  {
    name: 'dotnet',
    file: (d) => `src/${d.title()}/${d.title()}.cs`,
    testFile: (_d, file) => file.replace(/^src/, 'tests').replace(/\.cs$/, 'Tests.cs'),
    command: (d) => d.pick(['dotnet build', 'dotnet test']),
    failure: (d, { file, ref }) => {
      const headline = `${ref(file, 'abs')}(${d.int(2, 200)},${d.int(1, 40)}): error CS0103: The name '${d.word()}' does not exist in the current context`;
      return { headline, output: `${headline}\n\nBuild FAILED.\n    0 Warning(s)\n    1 Error(s)` };
    },
    success: () => 'Build succeeded.\n    0 Warning(s)\n    0 Error(s)',
  },
  {
    name: 'python',
    file: (d) => `${d.word()}/${d.word()}.py`,
    testFile: (_d, file) => file,
    command: (d, file) =>
      d.pick([`python ${file}`, `python -m ${file.slice(0, -3).replace(/\//g, '.')}`]),
    failure: (d, { file, ref, internal }) => {
      const headline = d.pick([
        () => `ValueError: invalid literal for int() with base 10: '${d.word()}'`,
        () => `KeyError: '${d.word()}_${d.word()}'`,
        () => `ModuleNotFoundError: No module named '${d.word()}'`,
        () =>
          `json.decoder.JSONDecodeError: Expecting value: line ${d.int(1, 90)} column ${d.int(1, 40)} (char ${d.int(0, 900)})`,
      ])();
      return {
        headline,
        output: `Traceback (most recent call last):\n  File "${ref(file, 'abs')}", line ${d.int(2, 300)}, in <module>\n    main()\n  File "${ref(file, 'abs')}", line ${d.int(2, 300)}, in main\n    ${d.word()} = load(${d.word()})\n  File "${internal(`/usr/lib/python3.12/${d.pick(['json/__init__.py', 'importlib/__init__.py', 'json/decoder.py'])}`)}", line ${d.int(100, 400)}, in loads\n    return _default_decoder.decode(s)\n${headline}`,
      };
    },
    success: (d) => `loaded ${d.int(2, 90)} records`,
  },
  {
    name: 'go-build',
    file: (d) => `${d.pick(['internal', 'pkg', 'cmd'])}/${d.word()}/${d.word()}.go`,
    testFile: (_d, file) => file,
    command: (d) => d.pick(['go build ./...', 'go vet ./...']),
    failure: (d, { file, ref }) => {
      const at = `${ref(file, d.pick(['rel', 'dot'] as const))}:${d.int(2, 300)}:${d.int(1, 40)}`;
      const headline = `${at}: ${d.pick([`undefined: ${d.word()}`, `declared and not used: ${d.word()}`, `cannot use ${d.word()} (variable of type int) as string value in argument to ${d.word()}`])}`;
      return {
        headline,
        output: `# github.com/${d.word()}/${d.word()}/${file.slice(0, file.lastIndexOf('/'))}\n${headline}`,
      };
    },
    success: () => '',
  },
  {
    name: 'cargo-test',
    file: (d) => `src/${d.word()}.rs`,
    testFile: (_d, file) => file,
    command: (d) => d.pick(['cargo test', 'cargo test --lib', 'cargo nextest run']),
    failure: (d, { file, ref }) => {
      const name = `tests::${d.word()}_${d.word()}`;
      const headline = `thread '${name}' panicked at ${ref(file, 'rel')}:${d.int(2, 300)}:${d.int(1, 40)}:`;
      return {
        headline,
        output: `running ${d.int(3, 20)} tests\ntest tests::${d.word()} ... ok\ntest ${name} ... FAILED\n\nfailures:\n\n---- ${name} stdout ----\n${headline}\nassertion \`left == right\` failed\n  left: ${d.int(0, 50)}\n right: ${d.int(51, 99)}\nnote: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace\n\nfailures:\n    ${name}\n\ntest result: FAILED. ${d.int(2, 30)} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.0${d.int(1, 9)}s\n\nerror: test failed, to rerun pass \`--lib\``,
      };
    },
    success: (d) => `test result: ok. ${d.int(2, 40)} passed; 0 failed; 0 ignored`,
  },
  {
    name: 'junit',
    file: (d) => `src/main/java/com/${d.word()}/${d.title()}.java`,
    testFile: (_d, file) => file.replace('/main/', '/test/').replace(/\.java$/, 'Test.java'),
    command: (d) => d.pick(['./gradlew test', 'gradle test --tests *Test', 'mvn -B test']),
    failure: (d, { test, ref, internal }) => {
      const cls = test.slice(test.lastIndexOf('/') + 1, -5);
      const headline = `${cls} > ${d.word()}${d.title()}() FAILED`;
      return {
        headline,
        output: `> Task :app:test FAILED\n\n${headline}\n    org.opentest4j.AssertionFailedError: expected: <${d.int(0, 50)}> but was: <${d.int(51, 99)}>\n        at ${internal('app//org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:151)')}\n        at app//com.${d.word()}.${cls}.${d.word()}(${cls}.java:${d.int(5, 200)})\n\n${d.int(3, 40)} tests completed, 1 failed\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:test'.\n> There were failing tests. See the report at: file://${ref(test, 'abs').replace(/[^/\\]+$/, '')}build/reports/tests/test/index.html`,
      };
    },
    success: (d) =>
      `BUILD SUCCESSFUL in ${d.int(2, 40)}s\n${d.int(3, 9)} actionable tasks: ${d.int(1, 3)} executed`,
  },
  {
    name: 'dotnet-exception',
    file: (d) => `src/${d.title()}/${d.title()}.cs`,
    testFile: (_d, file) => file,
    command: (d) => d.pick(['dotnet run', 'dotnet run --project src/App']),
    failure: (d, { file, ref }) => {
      const headline = d.pick([
        () =>
          `Unhandled exception. System.InvalidOperationException: Sequence contains no elements matching ${d.word()}`,
        () =>
          `Unhandled exception. System.IO.FileNotFoundException: Could not find file '${d.word()}.json'.`,
        () =>
          `Unhandled exception. System.NullReferenceException: ${d.title()}.${d.word()} was null when ${d.word()} ran.`,
      ])();
      const cls = file.slice(file.lastIndexOf('/') + 1, -3);
      return {
        headline,
        output: `${headline}\n   at System.Linq.ThrowHelper.ThrowNoElementsException()\n   at ${d.title()}.${cls}.${d.title()}() in ${ref(file, 'abs')}:line ${d.int(2, 300)}\n   at ${d.title()}.Program.Main(String[] args) in ${ref(file, 'abs')}:line ${d.int(2, 300)}`,
      };
    },
    success: (d) => `Loaded ${d.int(2, 90)} items.`,
  },
  {
    name: 'powershell',
    file: (d) => `scripts/${d.word()}.ps1`,
    testFile: (_d, file) => file,
    command: (_d, file) => `.\\${file.replace(/\//g, '\\')}`,
    failure: (d, { file, ref, abs }) => {
      const missing = `${abs}\\config\\${d.word()}.json`;
      const [cmdlet, message] = d.pick([
        ['Get-Content', `Cannot find path '${missing}' because it does not exist.`],
        [
          'Import-Module',
          `The specified module '${d.title()}' was not loaded because no valid module file was found in any module directory.`,
        ],
        ['Invoke-WebRequest', `Unable to connect to the remote server ${d.word()}.internal.`],
      ] as const);
      // Windows PowerShell writes `Cmdlet : message`, PowerShell 7 `Cmdlet: message`.
      const headline = d.chance(0.5) ? `${cmdlet} : ${message}` : `${cmdlet}: ${message}`;
      return {
        headline,
        output: `${headline}\nAt ${ref(file, 'abs')}:${d.int(2, 90)} char:${d.int(1, 9)}\n+ ${cmdlet} -Path $${d.word()}\n+ ~~~~~~~~~~~~~~~~~~~~~~~~~\n    + CategoryInfo          : ObjectNotFound: (${d.word()}:String) [${cmdlet}], ItemNotFoundException\n    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.${cmdlet.replace('-', '')}Command`,
      };
    },
    success: (d) => `Done in ${d.int(1, 9)}.${d.int(10, 99)}s`,
  },
  {
    name: 'cmd',
    file: (d) => `tools/${d.word()}.bat`,
    testFile: (_d, file) => file,
    command: (_d, file) => `cmd /c ${file.replace(/\//g, '\\')}`,
    failure: (d, { file, ref }) => {
      const program = d.word();
      const headline = `'${program}' is not recognized as an internal or external command,`;
      return {
        headline,
        output: `C:\\> call ${ref(file, 'rel')}\n${headline}\noperable program or batch file.`,
      };
    },
    success: () => '        1 file(s) copied.',
  },
  {
    name: 'msbuild',
    file: (d) => `src/${d.title()}/${d.title()}.cs`,
    testFile: (_d, file) => file,
    command: (d) => d.pick(['msbuild /m /p:Configuration=Release', 'dotnet msbuild']),
    failure: (d, { file, ref }) => {
      const project = `${file.slice(0, file.lastIndexOf('/'))}/${file.slice(file.indexOf('/') + 1, file.lastIndexOf('/'))}.csproj`;
      const headline = d.chance(0.5)
        ? `${ref(file, 'abs')}(${d.int(2, 300)},${d.int(1, 40)}): error CS1061: '${d.title()}' does not contain a definition for '${d.title()}' [${ref(project, 'abs')}]`
        : `${ref(project, 'abs')} : error MSB3644: The reference assemblies for .NETFramework,Version=v4.${d.int(5, 8)} were not found (${d.word()}).`;
      return {
        headline,
        output: `MSBuild version 17.9.8 for .NET\n  Determining projects to restore...\n${headline}\n\nBuild FAILED.\n\n${headline}\n    0 Warning(s)\n    1 Error(s)\n\nTime Elapsed 00:00:0${d.int(1, 9)}.${d.int(10, 99)}`,
      };
    },
    success: () => 'Build succeeded.\n    0 Warning(s)\n    0 Error(s)',
  },
];

const windowsEcosystems = new Set([
  'dotnet',
  'tsc',
  'node',
  'pytest',
  'eslint',
  'jest',
  'python',
  'go-build',
  'dotnet-exception',
  'powershell',
  'cmd',
  'msbuild',
]);
// Only a Windows machine prints these.
const windowsOnly = new Set(['powershell', 'cmd', 'msbuild']);

interface ToolSet {
  shell: string;
  read: string;
  edit: string;
  search: string;
  extra: string[];
}

const toolSets: Record<GeneratedShape, ToolSet> = {
  cursor: {
    shell: 'run_terminal_cmd',
    read: 'read_file',
    edit: 'edit_file',
    search: 'grep_search',
    extra: ['list_dir', 'codebase_search', 'file_search'],
  },
  openhands: {
    shell: 'execute_bash',
    read: 'str_replace_editor',
    edit: 'str_replace_editor',
    search: 'execute_bash',
    extra: ['think', 'browser'],
  },
  codex: {
    shell: 'shell',
    read: 'shell',
    edit: 'apply_patch',
    search: 'shell',
    extra: ['update_plan', 'view_image'],
  },
  gemini: {
    shell: 'run_shell_command',
    read: 'read_many_files',
    edit: 'replace',
    search: 'search_file_content',
    extra: ['glob', 'write_file', 'web_fetch'],
  },
  'mcp-json': {
    shell: 'mcp__terminal__exec',
    read: 'mcp__fs__read_text_file',
    edit: 'mcp__fs__edit_file',
    search: 'mcp__search__ripgrep',
    extra: ['mcp__git__status', 'mcp__fs__list_directory'],
  },
  windows: {
    shell: 'powershell',
    read: 'view_file',
    edit: 'str_replace_based_edit_tool',
    search: 'findstr_search',
    extra: ['list_files'],
  },
};

// Ways a non-zero exit status is written by shells and agent harnesses.
const exitForms = [
  (code: number) => `exit status ${code}`,
  (code: number) => `Exit code: ${code}`,
  (code: number) => `[Process exited with code ${code}]`,
  (code: number) => `Command exited with code ${code}`,
  (code: number) => `[The command completed with exit code ${code}.]`,
  (code: number) => `returncode=${code}`,
  (code: number) => `✖ Command failed with exit code ${code}.`,
  (code: number) => `EXIT_CODE: ${code}`,
  (code: number) => `(exit ${code})`,
];

interface Builder {
  d: Draw;
  shape: GeneratedShape;
  cwd: string;
  windows: boolean;
  messages: ModelMessage[];
  files: Map<string, number>;
  edited: Set<string>;
  internals: string[];
  tools: Set<string>;
  secrets: string[];
  ansi: boolean;
  ids: number;
  /** How outputs carry success and failure in this transcript. */
  wrapping: 'text' | 'json' | 'flag' | 'silent' | 'gemini';
  /** Long failing outputs arrive cut in the middle by the harness, after pages of progress lines. */
  truncated: boolean;
}

function absolute(b: Builder, rel: string): string {
  return b.windows ? `${b.cwd}\\${rel.replace(/\//g, '\\')}` : `${b.cwd}/${rel}`;
}

function ref(b: Builder, rel: string, form: Form = 'any'): string {
  b.files.set(rel, (b.files.get(rel) ?? 0) + 1);
  const choice = form === 'any' ? b.d.pick(['abs', 'rel', 'rel', 'dot', 'url'] as const) : form;
  if (choice === 'abs') return absolute(b, rel);
  if (choice === 'dot') return b.windows ? `.\\${rel.replace(/\//g, '\\')}` : `./${rel}`;
  if (choice === 'url')
    return b.windows
      ? `file:///${absolute(b, rel).replace(/\\/g, '/')}`
      : `file://${absolute(b, rel)}`;
  return b.windows && b.d.chance(0.5) ? rel.replace(/\//g, '\\') : rel;
}

function colour(b: Builder, text: string): string {
  if (!b.ansi) return text;
  return `\u001b[${b.d.pick(['31', '1;31', '91', '33'])}m${text}\u001b[0m`;
}

function call(b: Builder, toolName: string, input: unknown, output: OutputShape): void {
  const toolCallId = `${b.d.pick(['call_', 'toolu_', 'fc-', ''])}${b.d.alnum(12)}${b.ids++}`;
  b.tools.add(toolName);
  b.messages.push({
    role: 'assistant',
    content: [
      ...(b.d.chance(0.3) ? [{ type: 'text' as const, text: `Let me ${b.d.word()} this.` }] : []),
      { type: 'tool-call', toolCallId, toolName, input },
    ],
  });
  b.messages.push({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId, toolName, output: output as never }],
  });
}

type OutputShape =
  | { type: 'text'; value: string }
  | { type: 'error-text'; value: string }
  | { type: 'json'; value: unknown }
  | { type: 'error-json'; value: unknown };

/**
 * A failing run's output after pages of progress lines (downloads, compiling dependencies), cut in
 * the middle of those lines as harnesses cut long outputs; the failure itself stays whole.
 */
function truncatedRun(b: Builder, text: string): string {
  const progress: string[] = [];
  for (let n = b.d.int(40, 160); n > 0; n--) {
    progress.push(
      b.d.pick([
        () => `   Compiling ${b.d.word()} v${b.d.int(0, 3)}.${b.d.int(0, 30)}.${b.d.int(0, 9)}`,
        () =>
          `Downloading ${b.d.word()}-${b.d.int(1, 9)}.${b.d.int(0, 30)}.tar.gz (${b.d.int(10, 900)} kB)`,
        () => `[INFO] ${b.d.word()} ${b.d.word()} resolved`,
      ])(),
    );
  }
  const cut = b.d.int(5, progress.length - 5);
  const omitted = progress.slice(cut, -3).join('\n').length;
  return `${progress.slice(0, cut).join('\n')}\n${b.d.pick([`... [${omitted} characters truncated] ...`, `[... output truncated: ${omitted} chars ...]`, '<truncated>'])}\n${progress.slice(-3).join('\n')}\n${text}`;
}

/** A shell run's result in this transcript's wrapping. */
function shellOutput(b: Builder, text: string, code: number, command = ''): OutputShape {
  if (b.truncated && code !== 0) text = truncatedRun(b, text);
  switch (b.wrapping) {
    case 'gemini': {
      // Gemini CLI's shell tool answers with one text of labelled fields, also on success.
      const fields = `Command: ${command}\nDirectory: (root)\nStdout: ${text || '(empty)'}\nStderr: (empty)\nError: (none)\nExit Code: ${code}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: ${b.d.int(1000, 99999)}`;
      return b.d.chance(0.5)
        ? { type: 'text', value: fields }
        : { type: 'json', value: { output: fields } };
    }
    case 'json': {
      const form = b.d.int(0, 2);
      if (form === 0)
        return {
          type: 'text',
          value: JSON.stringify({
            output: text,
            metadata: { exit_code: code, duration_seconds: 1.2 },
          }),
        };
      if (form === 1) return { type: 'json', value: { stdout: text, stderr: '', exitCode: code } };
      return { type: 'json', value: { returncode: code, stdout: '', stderr: text } };
    }
    case 'flag':
      if (code === 0)
        return { type: 'json', value: { content: [{ type: 'text', text }], isError: false } };
      return b.d.chance(0.5)
        ? { type: 'json', value: { content: [{ type: 'text', text }], isError: true } }
        : { type: 'error-text', value: text };
    case 'silent':
      // Errors inside the stdout of a call that reported nothing else.
      return { type: 'text', value: text };
    default:
      return {
        type: 'text',
        value:
          code === 0
            ? `${text}\n${b.d.pick(['Exit code: 0', '[Process exited with code 0]', 'exit status 0', ''])}`.trim()
            : `${text}\n${b.d.pick(exitForms)(code)}`,
      };
  }
}

function shellInput(b: Builder, command: string): unknown {
  switch (b.shape) {
    case 'cursor':
      return { command, is_background: false, explanation: `Run ${b.d.word()}` };
    case 'openhands':
      return { command, is_input: 'false' };
    case 'codex':
      return { command: ['bash', '-lc', command], workdir: b.cwd, timeout_ms: 120000 };
    case 'gemini':
      return {
        command,
        description: `Runs ${b.d.word()}`,
        directory: b.d.chance(0.5) ? '.' : undefined,
      };
    case 'mcp-json':
      return { cmd: command };
    case 'windows':
      return { command };
  }
}

function announceCwd(b: Builder): { system?: string; firstCommand?: string; form: number } {
  const cwd = b.cwd;
  const forms = [
    `Working directory: ${cwd}`,
    `<env>\nworkspace_root: ${cwd}\nplatform: ${b.windows ? 'win32' : 'linux'}\n</env>`,
    `The user's workspace is at ${cwd}. All relative paths are relative to it.`,
    `Project root: ${cwd}`,
    `You are working in the repository at ${cwd}`,
    `<user_info>\nThe absolute path of the user's workspace is ${cwd}\n</user_info>`,
  ];
  const choice = b.d.int(0, forms.length + 1);
  if (choice < forms.length)
    return { system: `You are a coding agent.\n${forms[choice]}`, form: choice };
  if (choice === forms.length)
    return { system: 'You are a coding agent.', firstCommand: 'pwd', form: choice };
  return { system: 'You are a coding agent.', firstCommand: `cd ${cwd}`, form: choice };
}

function readFile(b: Builder, rel: string) {
  const body = `// ${rel}\nexport function ${b.d.word()}() {\n  if (!x) throw new Error('${b.d.word()} failed');\n  return ${b.d.int(1, 99)};\n}`;
  switch (b.shape) {
    case 'cursor':
      return call(
        b,
        'read_file',
        { target_file: ref(b, rel, 'rel'), should_read_entire_file: true },
        { type: 'text', value: body },
      );
    case 'openhands':
      return call(
        b,
        'str_replace_editor',
        { command: 'view', path: ref(b, rel, 'abs') },
        {
          type: 'text',
          value: `Here's the result of running \`cat -n\` on ${ref(b, rel, 'abs')}:\n     1\t${body.replace(/\n/g, '\n     2\t')}`,
        },
      );
    case 'codex': {
      const shown = ref(b, rel, 'rel');
      return call(b, 'shell', shellInput(b, `sed -n '1,200p' ${shown}`), shellOutput(b, body, 0));
    }
    case 'gemini': {
      const other = b.d.pick([...b.files.keys()]);
      const paths = [ref(b, rel, 'abs'), ref(b, other, 'abs')];
      return call(
        b,
        'read_many_files',
        { paths },
        { type: 'text', value: `--- ${paths[0]} ---\n${body}\n--- ${paths[1]} ---\n${body}` },
      );
    }
    case 'mcp-json':
      return call(
        b,
        'mcp__fs__read_text_file',
        { uri: ref(b, rel, 'url') },
        { type: 'json', value: { content: [{ type: 'text', text: body }] } },
      );
    case 'windows':
      return call(b, 'view_file', { path: ref(b, rel, 'abs') }, { type: 'text', value: body });
  }
}

/** An editor tool's `str_replace` command; `failure` words the result of one that failed. */
function replaceCall(
  b: Builder,
  tool: string,
  rel: string,
  old: string,
  replacement: string,
  failure: false | ((path: string) => string),
) {
  const path = ref(b, rel, 'abs');
  const shown = ref(b, rel, 'abs');
  return call(
    b,
    tool,
    { command: 'str_replace', path, old_str: old, new_str: replacement },
    { type: 'text', value: failure ? failure(shown) : `The file ${shown} has been edited.` },
  );
}

function editFile(b: Builder, rels: string[], fail = false) {
  for (const rel of rels) b.edited.add(rel);
  const old = b.d.word();
  const replacement = b.d.word();
  const rel = rels[0]!;
  switch (b.shape) {
    case 'cursor':
      return call(
        b,
        'edit_file',
        {
          target_file: ref(b, rel, 'rel'),
          instructions: `Rename ${old}`,
          code_edit: `// ... existing code ...\nconst ${replacement} = 1;\n// ... existing code ...`,
        },
        {
          type: 'text',
          value: fail
            ? `Error: failed to apply the edit to ${ref(b, rel, 'rel')}`
            : 'The apply model made the following changes to the file.',
        },
      );
    case 'openhands':
      return replaceCall(
        b,
        'str_replace_editor',
        rel,
        old,
        replacement,
        fail &&
          ((path) =>
            `ERROR:\nNo replacement was performed, old_str \`${old}\` did not appear verbatim in ${path}.`),
      );
    case 'codex': {
      const patch = [
        '*** Begin Patch',
        ...rels.flatMap((file) => [
          `*** Update File: ${ref(b, file, 'rel')}`,
          '@@',
          `-${old}`,
          `+${replacement}`,
        ]),
        '*** End Patch',
      ].join('\n');
      return call(
        b,
        'apply_patch',
        { input: patch },
        fail
          ? {
              type: 'error-text',
              value: `apply_patch verification failed: Failed to find expected lines in ${ref(b, rel, 'rel')}:\n${old}`,
            }
          : {
              type: 'text',
              value: `Success. Updated the following files:\n${rels.map((file) => `M ${ref(b, file, 'rel')}`).join('\n')}`,
            },
      );
    }
    case 'gemini':
      return call(
        b,
        'replace',
        { file_path: ref(b, rel, 'abs'), old_string: old, new_string: replacement },
        fail
          ? {
              type: 'error-text',
              value: `Failed to edit, 0 occurrences found for old_string in ${ref(b, rel, 'abs')}.`,
            }
          : {
              type: 'text',
              value: `Successfully modified file: ${ref(b, rel, 'abs')} (1 replacements).`,
            },
      );
    case 'mcp-json':
      return call(
        b,
        'mcp__fs__edit_file',
        { uri: `file://${absolute(b, rel)}`, edits: [{ oldText: old, newText: replacement }] },
        fail
          ? {
              type: 'json',
              value: {
                isError: true,
                content: [
                  {
                    type: 'text',
                    text: `Could not find exact match for edit in ${ref(b, rel, 'url')}`,
                  },
                ],
              },
            }
          : {
              type: 'json',
              value: {
                content: [{ type: 'text', text: `Applied 1 edit to ${ref(b, rel, 'url')}` }],
              },
            },
      );
    case 'windows':
      return replaceCall(
        b,
        'str_replace_based_edit_tool',
        rel,
        old,
        replacement,
        fail && ((path) => `Error: no match for old_str in ${path}`),
      );
  }
}

function search(b: Builder, rels: string[]) {
  const pattern = b.d.word();
  const hits = rels
    .map(
      (rel) =>
        `${ref(b, rel, b.windows ? 'rel' : 'any')}:${b.d.int(1, 300)}:${b.d.int(1, 30)}:  const ${pattern} = load();`,
    )
    .join('\n');
  const tool = toolSets[b.shape].search;
  if (tool === toolSets[b.shape].shell)
    return call(b, tool, shellInput(b, `rg -n ${pattern}`), shellOutput(b, hits, 0));
  if (b.shape === 'mcp-json')
    return call(b, tool, { pattern }, { type: 'json', value: { matches: hits.split('\n') } });
  return call(b, tool, { query: pattern, pattern }, { type: 'text', value: hits });
}

export function generateAgentTranscript(
  seed: number,
  forcedShape?: GeneratedShape,
): GeneratedTranscript {
  const d = new Draw(mulberry32(seed));
  const shape = forcedShape ?? d.pick(generatedShapes);
  const windows = shape === 'windows';
  const spaced = d.chance(0.25);
  const project = spaced ? `${d.title()} ${d.title()}` : d.word();
  const cwd = windows
    ? `C:\\Users\\${d.word()}\\source\\repos\\${project}`
    : d.pick([
        `/home/${d.word()}/${project}`,
        `/Users/${d.word()}/code/${project}`,
        `/workspace/${project}`,
        `/srv/${d.word()}/${project}`,
      ]);
  const b: Builder = {
    d,
    shape,
    cwd,
    windows,
    messages: [],
    files: new Map(),
    edited: new Set(),
    internals: [],
    tools: new Set(),
    secrets: [],
    ansi: d.chance(0.35),
    ids: 0,
    wrapping:
      shape === 'codex'
        ? 'json'
        : shape === 'mcp-json'
          ? 'flag'
          : shape === 'gemini' && d.chance(0.6)
            ? 'gemini'
            : d.pick(['text', 'text', 'json', 'flag', 'silent']),
    truncated: d.chance(0.3),
  };
  const pool = windows
    ? ecosystems.filter((e) => windowsEcosystems.has(e.name))
    : ecosystems.filter((e) => !windowsOnly.has(e.name));
  const chosen: Ecosystem[] = [];
  for (let n = d.int(1, 3); n > 0; n--) chosen.push(d.pick(pool));
  const ecos = [...new Set(chosen)];
  const errors: GeneratedError[] = [];
  // Every run of a command in order; an error is resolved when a later run of the same command
  // succeeded (in whichever episode).
  const runs: Array<{ command: string; error: GeneratedError | undefined }> = [];
  const asks: string[] = [];
  const announced = announceCwd(b);
  if (announced.system) b.messages.push({ role: 'system', content: announced.system });
  const projectFiles: string[] = [];
  const fileOf = (eco: Ecosystem) => {
    if (projectFiles.length > 4 && d.chance(0.5)) return d.pick(projectFiles);
    const file = eco.file(d);
    projectFiles.push(file);
    return file;
  };
  const episodes = d.int(4, 12);
  let firstCommand = announced.firstCommand;
  for (let episode = 0; episode < episodes; episode++) {
    const eco = d.pick(ecos);
    const file = fileOf(eco);
    const test = eco.testFile(d, file);
    const ask = d.pick([
      () => `The ${d.word()} ${d.word()} is broken, please fix it in ${ref(b, file, 'rel')}.`,
      () =>
        `Can you make ${d.word()} handle the ${d.word()} case? It should not ${d.word()} when ${d.word()} is empty.`,
      () => `now run the tests and fix whatever fails`,
      () =>
        `Here is what I see:\n\n${d.word()} ${d.word()} ${d.word()}\n\nplease look at ${ref(b, file, 'abs')} and ${ref(b, test, 'rel')}`,
      () =>
        `Why does ${d.word()} return ${d.int(1, 99)} instead of ${d.int(100, 200)}? Also keep the ${d.word()} API unchanged and add a test for ${d.word()}.`,
    ])();
    const userText = episode === 0 || d.chance(0.8) ? ask : `${ask} (${d.word()})`;
    if (asks.includes(userText.replace(/\s+/g, ' ').trim())) continue;
    asks.push(userText.replace(/\s+/g, ' ').trim());
    b.messages.push(
      d.chance(0.5)
        ? { role: 'user', content: userText }
        : { role: 'user', content: [{ type: 'text', text: userText }] },
    );
    if (firstCommand !== undefined) {
      const command = firstCommand;
      firstCommand = undefined;
      call(
        b,
        toolSets[shape].shell,
        shellInput(b, command),
        shellOutput(b, command === 'pwd' ? cwd : '', 0),
      );
    }
    if (episode === 1 && d.chance(0.5)) {
      // A secret pasted into a command: it must never reach the receipt.
      const secret = d.pick([
        () => `ghp_${d.alnum(36)}`,
        () => `AKIA${d.alnum(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
        () => `sk-proj-${d.alnum(48)}`,
      ])();
      b.secrets.push(secret);
      call(
        b,
        toolSets[shape].shell,
        shellInput(b, `export API_TOKEN=${secret} && echo configured`),
        shellOutput(b, 'configured', 0),
      );
    }
    b.messages.push({
      role: 'assistant',
      content: `I'll look at \`${ref(b, file, 'rel')}\` first.`,
    });
    readFile(b, file);
    for (let more = d.int(0, 3); more > 0; more--) readFile(b, fileOf(d.pick(ecos)));
    if (d.chance(0.6)) search(b, [file, ...projectFiles.slice(-d.int(1, 4))]);
    if (d.chance(0.3)) {
      const extra = d.pick(toolSets[shape].extra);
      call(
        b,
        extra,
        { [d.pick(['query', 'thought', 'path', 'pattern'])]: `${d.word()} ${d.word()}` },
        { type: 'text', value: `${d.word()} ${d.word()}` },
      );
    }
    // Runs that fail; some are fixed by an edit and a later successful run of the same command.
    for (let run = d.int(1, 3); run > 0; run--) {
      const command = eco.command(d, file);
      const failure = eco.failure(d, {
        file,
        test,
        ref: (rel, form) => ref(b, rel, form),
        internal: (path) => {
          b.internals.push(path);
          return path;
        },
        abs: cwd,
      });
      const code = d.pick([1, 1, 2, 101]);
      const text = failure.output.replace(failure.headline, colour(b, failure.headline));
      call(b, toolSets[shape].shell, shellInput(b, command), shellOutput(b, text, code, command));
      const error: GeneratedError = {
        line: failure.headline.replace(/\s+/g, ' ').trim(),
        ecosystem: eco.name,
        resolved: false,
      };
      errors.push(error);
      runs.push({ command, error });
      if (d.chance(0.6)) {
        const editFails = d.chance(0.25);
        if (editFails) editFile(b, [file], true);
        const more = shape === 'codex' && d.chance(0.5) ? [test] : [];
        editFile(b, [file, ...more]);
        if (d.chance(0.75)) {
          call(
            b,
            toolSets[shape].shell,
            shellInput(b, command),
            shellOutput(b, eco.success(d) || 'ok', 0, command),
          );
          runs.push({ command, error: undefined });
        }
      }
    }
    b.messages.push({
      role: 'assistant',
      content: `Done with ${d.word()}; ${d.word()} still ${d.word()}.`,
    });
  }
  runs.forEach((run, at) => {
    if (run.error === undefined) return;
    run.error.resolved = runs.some(
      (later, position) =>
        position > at && later.error === undefined && later.command === run.command,
    );
  });
  return {
    shape,
    cwd: windows ? cwd.replace(/\\/g, '/') : cwd,
    messages: b.messages,
    errors,
    files: b.files,
    edited: b.edited,
    internals: b.internals,
    tools: [...b.tools],
    asks,
    secrets: b.secrets,
    ecosystems: ecos.map((eco) => eco.name),
    traits: [
      ...(b.ansi ? ['ansi'] : []),
      ...(spaced ? ['spaced-cwd'] : []),
      `wrapping:${b.wrapping}`,
      ...(b.truncated ? ['truncated'] : []),
      `cwd-form:${announced.form}`,
    ],
  };
}
