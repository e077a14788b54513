// A TypeScript entry of this repository as one cached CommonJS bundle, for the commands staff run
// (scripts/cli.mjs: npm run admin, backup, tracking:import, tracking:retention) and the tests that
// start an entry as its own process.
//
// Why: run through tsx, a command spent 2.0 CPU-seconds before its first line of work (compiling
// and resolving hundreds of files); a bundle runs in 0.5 (measured 2026-11-27). The bundle is built
// once, with the services' build options (scripts/build.mjs), into node_modules/.cache/lease-ts/,
// and built again when any file that went into it changed (size or modification time) or esbuild
// did. Each source sees its own file as import.meta.url and the entry's path as process.argv[1],
// as under tsx: migrations folders and "am I the main module" checks work unchanged.
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, version } from "esbuild";
import { serviceBundleOptions } from "../build.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CACHE = path.join(ROOT, "node_modules", ".cache", "lease-ts");
/** Raised when the way bundles are made here changes (plugin, banner), so older ones are not reused. */
const FORMAT = 1;

/** import.meta.url of a source of this repository: its own file's URL (as tsx gives it). */
const ownUrlPlugin = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: text.replaceAll("import.meta.url", url), loader: "ts" };
    });
  },
};

/**
 * The files a bundle was made of, each with its size and modification time; a file changed since
 * `since` (while its bundle was being made) gets no stamp, so the next run bundles again.
 */
function stamp(inputs, since = Infinity) {
  const stamps = {};
  for (const input of inputs) {
    const s = statSync(path.resolve(ROOT, input), { throwIfNoEntry: false });
    stamps[input] = s && s.mtimeMs < since ? [s.size, s.mtimeMs] : null;
  }
  return stamps;
}

function fresh(manifestFile, key) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  } catch {
    return false;
  }
  if (manifest.key !== key) return false;
  const now = stamp(Object.keys(manifest.inputs));
  return Object.entries(manifest.inputs).every(([input, was]) => {
    const is = now[input];
    return is !== null && was !== null && is[0] === was[0] && is[1] === was[1];
  });
}

/** Bundles of entries that are gone (a test's probe in a temporary folder) leave the cache. */
function prune() {
  for (const file of readdirSync(CACHE)) {
    if (!file.endsWith(".cjs.json")) continue;
    let source;
    try {
      source = JSON.parse(readFileSync(path.join(CACHE, file), "utf8")).source;
    } catch {
      /* being written: its builder keeps it */
      continue;
    }
    if (typeof source === "string" && existsSync(source)) continue;
    const bundle = path.join(CACHE, file.slice(0, -".json".length));
    for (const gone of [`${bundle}.json`, bundle, `${bundle}.map`]) rmSync(gone, { force: true });
  }
}

/** Written beside and renamed into place: a process reading it meanwhile sees old or new, whole. */
function writeWhole(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/**
 * The path of `entry`'s bundle (an absolute path or one relative to the repository), built first
 * when it is missing or stale. Run it as `node <bundle> args...`.
 */
export async function bundledEntry(entry) {
  const source = path.resolve(ROOT, entry);
  const options = serviceBundleOptions([source], undefined);
  delete options.outdir;
  // Whatever shapes the bundle: this file's way (FORMAT), esbuild's version, the build's options.
  const key = createHash("sha256")
    .update(`${FORMAT} ${version} ${JSON.stringify(options)}`)
    .digest("hex")
    .slice(0, 16);
  const name = path.basename(source).replace(/\.[cm]?ts$/, "");
  const outfile = path.join(CACHE, `${name}-${key}.cjs`);
  const manifestFile = `${outfile}.json`;
  if (fresh(manifestFile, key)) return outfile;

  mkdirSync(CACHE, { recursive: true });
  prune();
  const started = Date.now();
  const result = await build({
    ...options,
    absWorkingDir: ROOT,
    outfile,
    write: false,
    metafile: true,
    plugins: [ownUrlPlugin],
    banner: { js: `${options.banner.js}\nprocess.argv[1] = ${JSON.stringify(source)};` },
  });
  // The map before the code that names it, the manifest last: it vouches for both.
  const isMap = (file) => Number(file.path.endsWith(".map"));
  const files = [...result.outputFiles].sort((a, b) => isMap(b) - isMap(a));
  for (const file of files) writeWhole(file.path, file.contents);
  const inputs = stamp(Object.keys(result.metafile.inputs), started);
  writeWhole(manifestFile, JSON.stringify({ key, source, inputs }));
  return outfile;
}

/** The arguments that run `entry` with node: `spawn(process.execPath, await entryArgs(entry))`. */
export async function entryArgs(entry) {
  return ["--enable-source-maps", await bundledEntry(entry)];
}

/**
 * The arguments that run a service's main as its own process: the bundle `npm test` built before
 * the tests started (SERVICES_BUILT=1; services/<name>/dist/main.js, what a pod and its migration
 * Job run), else the cached bundle of its source.
 */
export async function serviceMainArgs(service) {
  if (process.env.SERVICES_BUILT === "1")
    return ["--enable-source-maps", path.join(ROOT, "services", service, "dist", "main.js")];
  return entryArgs(`services/${service}/src/main.ts`);
}
