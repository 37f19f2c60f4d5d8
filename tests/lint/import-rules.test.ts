import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// `npm run lint` enforces the layering with dependency-cruiser (.dependency-cruiser.cjs) and
// ESLint. These tests run the same rules over modules that break them on purpose
// (tests/fixtures/import-rules/, laid out as the repository is), so a rule that stopped
// catching what it is for fails here rather than passing silently.

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = path.join(root, 'tests/fixtures/import-rules');
const ruleSet = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as {
  forbidden: unknown[];
};

async function cruiseFixtures(): Promise<IViolation[]> {
  // The fixtures' root stands for the repository's: `^server/` in a rule means their server/.
  const result = await cruise(['server', 'shared', 'renderer'], {
    ruleSet: { forbidden: ruleSet.forbidden } as never,
    validate: true,
    tsPreCompilationDeps: true,
    baseDir: fixtures,
    doNotFollow: { path: 'node_modules' },
  });
  return (result.output as ICruiseResult).summary.violations;
}

describe('import rules', () => {
  it('refuse an upward import between server layers, a circle of types, an impure shared/ and a renderer reaching into the server', async () => {
    const violations = await cruiseFixtures();
    const found = violations.map((violation) => `${violation.rule.name}: ${violation.from}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'server-layer-notify: server/notify/upward-import.ts',
        expect.stringMatching(/^no-circular: server\/watch\/circle-[ab]\.ts$/),
        'shared-has-no-node-built-ins: shared/reads-a-file.ts',
        'renderer-stays-in-the-page: renderer/reaches-server.ts',
      ]),
    );
  });

  it('refuse the globals of a browser or of Node in shared/', async () => {
    const eslint = new ESLint({ cwd: root });
    const [report] = await eslint.lintText(
      'export const where = `${window.location.href} ${process.cwd()} ${Buffer.from("a").length}`;\n',
      { filePath: path.join(root, 'shared/domain/support-date.ts') },
    );
    const restricted = (report?.messages ?? []).filter(
      (message) => message.ruleId === 'no-restricted-globals',
    );
    expect(restricted.map((message) => message.message)).toEqual([
      expect.stringContaining("'window'"),
      expect.stringContaining("'process'"),
      expect.stringContaining("'Buffer'"),
    ]);
    // The typed lint rules build the whole project's TypeScript program first: seconds on an
    // idle machine, past the default 30 s on a loaded one.
  }, 120_000);
});
