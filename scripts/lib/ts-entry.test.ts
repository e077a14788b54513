import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bundledEntry, entryArgs } from "./ts-entry.mjs";

// The cached bundles scripts/cli.mjs runs: each source keeps its own import.meta.url and the entry
// is process.argv[1], as under tsx; a changed source is bundled again, an unchanged one is not.

const folder = mkdtempSync(path.join(tmpdir(), "ts-entry-"));
const entry = path.join(folder, "entry.ts");
const helper = path.join(folder, "helper.ts");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const write = (file: string, text: string) => writeFileSync(file, text);
const run = async (file: string) => {
  const r = spawnSync(process.execPath, [...(await entryArgs(file)), "extra"], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

write(
  entry,
  `import { word, where } from "./helper";
const isMain = import.meta.url === require("node:url").pathToFileURL(process.argv[1]).href;
const answer: Record<string, unknown> = { word, where, self: import.meta.url, isMain, args: process.argv.slice(2) };
console.log(JSON.stringify(answer));
`,
);

describe("ts-entry", () => {
  it("runs an entry with each file's own import.meta.url, the entry as argv[1] and its arguments", async () => {
    write(helper, `export const word: string = "eerste";\nexport const where = import.meta.url;\n`);
    expect(await run(entry)).toEqual({
      word: "eerste",
      where: pathToFileURL(helper).href,
      self: pathToFileURL(entry).href,
      isMain: true,
      args: ["extra"],
    });
  });

  it("bundles again when a source changed, and reuses the bundle when nothing did", async () => {
    const bundle = await bundledEntry(entry);
    const built = statSync(bundle).mtimeMs;
    expect(await bundledEntry(entry)).toBe(bundle);
    expect(statSync(bundle).mtimeMs).toBe(built);

    write(helper, `export const word: string = "tweede, langer";\nexport const where = import.meta.url;\n`);
    expect((await run(entry)).word).toBe("tweede, langer");
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(built);
  });

  it("drops the bundles of entries that no longer exist when it builds another", async () => {
    const gone = path.join(folder, "gone.ts");
    write(gone, `console.log(JSON.stringify({ gone: true }));\n`);
    const goneBundle = await bundledEntry(gone);
    expect(existsSync(goneBundle)).toBe(true);
    rmSync(gone);

    const other = path.join(folder, "other.ts");
    write(other, `console.log(JSON.stringify({ other: true }));\n`);
    expect(await run(other)).toEqual({ other: true });
    expect([
      existsSync(goneBundle),
      existsSync(`${goneBundle}.json`),
      existsSync(`${goneBundle}.map`),
    ]).toEqual([false, false, false]);
  });
});
