/**
 * Child processes that load the whole app (a server, a cluster node) start
 * from one prebuilt ESM file instead of through tsx's loader: tsx hands each
 * of ~2,000 modules to its loader thread and compiles it alone, which costs
 * about 3 s of CPU per start (5.5 s against 2.3 s measured on this machine).
 * The tests and the bench start such children dozens of times a run.
 *
 * `buildBundles` bundles the app's own code with esbuild (packages stay
 * imports, resolved from node_modules as before) once per run and publishes
 * the folder in `ATRIUM_BUNDLE_DIR`, which children and worker processes
 * inherit; `nodeCommand` then starts a listed entry from its bundle and any
 * other file through tsx, as before. `import.meta.url` keeps naming the
 * source file, so paths the code resolves from it (migrations, the web build,
 * package lookups) are the same in both.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, rmSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { join, relative, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build, type Plugin } from "esbuild"

const ROOT = fileURLToPath(new URL("..", import.meta.url))

/**
 * The entries started as children that load the app, and the bench's
 * baselines (measured beside them, so they start the same way): each gets a
 * bundle. Load generators are left to tsx (some start themselves as workers).
 */
export const BUNDLED_ENTRIES: ReadonlyArray<string> = [
  "server/main.ts",
  "test/support/collabNode.ts",
  "test/support/actorNode.ts",
  ...["actor-host", "collab-server", "settled-memory"].map((name) => `bench/subjects/${name}.ts`),
  ...[
    "conventional-stack",
    "conventional-votes",
    "hocuspocus-stock",
    "nats-echo",
    "socketio-broadcast",
    "uws-hello",
    "uws-publish",
    "uws-relay"
  ].map((name) => `bench/baselines/${name}.ts`)
]

const BUNDLE_DIR_VARIABLE = "ATRIUM_BUNDLE_DIR"

/** A bundle's file name for an entry: its path with `/` as `__`, ending `.mjs`. */
const bundleName = (entry: string) => `${entry.replace(/\.ts$/, "").replaceAll("/", "__")}.mjs`

/** Each module's `import.meta.url` becomes its source file's URL. */
const sourceUrls: Plugin = {
  name: "source-import-meta-url",
  setup(plugin) {
    plugin.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, "utf8")
      const url = JSON.stringify(pathToFileURL(path).href)
      return { contents: source.includes("import.meta.url") ? source.replaceAll("import.meta.url", url) : source, loader: "ts" }
    })
  }
}

/**
 * Bundles every listed entry into a fresh folder under node_modules/.cache
 * (inside the project, so bare imports resolve from its node_modules) and
 * sets `ATRIUM_BUNDLE_DIR` to it; answers how to remove it again. A folder
 * already published in the environment is reused (a child of a run that
 * built them does not build again) and left for its builder to remove.
 */
export const buildBundles = async (): Promise<{ readonly remove: () => void }> => {
  const published = process.env[BUNDLE_DIR_VARIABLE]
  if (published !== undefined && published !== "") return { remove: () => {} }
  const stamp = createHash("sha256").update(`${process.pid}:${Date.now()}`).digest("hex").slice(0, 12)
  const outdir = join(ROOT, "node_modules", ".cache", "atrium-bundles", stamp)
  mkdirSync(outdir, { recursive: true })
  await build({
    entryPoints: Object.fromEntries(BUNDLED_ENTRIES.map((entry) => [bundleName(entry).replace(/\.mjs$/, ""), join(ROOT, entry)])),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    // A linked map costs nothing at start; NODE_OPTIONS=--enable-source-maps shows source lines in traces.
    sourcemap: "linked",
    // A child holds its bundle's source for as long as it runs (V8 compiles functions lazily from it): without
    // comments and indentation it is a fifth smaller. Names stay, so traces read as the source does.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "error",
    plugins: [sourceUrls]
  })
  process.env[BUNDLE_DIR_VARIABLE] = outdir
  return {
    remove: () => {
      delete process.env[BUNDLE_DIR_VARIABLE]
      rmSync(outdir, { recursive: true, force: true })
    }
  }
}

/** The bundle of `file` in the published folder, if it is a listed entry and the folder holds it. */
const bundleOf = (file: string): string | undefined => {
  const dir = process.env[BUNDLE_DIR_VARIABLE]
  if (dir === undefined || dir === "") return undefined
  const entry = relative(ROOT, resolve(ROOT, file))
  if (!BUNDLED_ENTRIES.includes(entry)) return undefined
  const bundle = join(dir, bundleName(entry))
  return existsSync(bundle) ? bundle : undefined
}

/** `node [flags] <bundle or --import tsx file> ...args`: how a TypeScript child is started. */
export const nodeCommand = (
  file: string,
  args: ReadonlyArray<string> = [],
  nodeFlags: ReadonlyArray<string> = []
): [string, Array<string>] => {
  const bundle = bundleOf(file)
  return [process.execPath, bundle === undefined ? [...nodeFlags, "--import", "tsx", file, ...args] : [...nodeFlags, bundle, ...args]]
}
