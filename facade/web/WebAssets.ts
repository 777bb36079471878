/**
 * The web app's static assets (`web/`), built with Vite's JS API once per
 * version of their sources: the bundle lands in `web/build/<key>/` (key: a
 * hash of the client sources, the shared rich-text schema, the lockfile and
 * this build's own configuration),
 * so later starts, and every node of a cluster sharing the folder, reuse it.
 * One process builds a version at a time (a lock folder); the others wait for
 * it. No network: everything comes from node_modules. Each file worth
 * compressing is gzipped once, at build, beside it (`<file>.gz`): a start only
 * reads the files (gzipping the bundle and its maps at level 9 was an eighth of
 * a server process's start-up CPU).
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { GENERATED_DIR, writeApiTypes } from "./ApiTypes.ts"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
export const WEB_DIR = path.join(ROOT, "web")
const BUILD_DIR = path.join(WEB_DIR, "build")
/** A lock older than this was left by a process that died while building. */
const STALE_LOCK_MS = 5 * 60_000

export interface Asset {
  readonly body: Buffer
  /** The body gzipped, when that is smaller. */
  readonly gzip: Buffer | undefined
  readonly contentType: string
  readonly cacheControl: string
  readonly etag: string
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2"
}

/** Files under `dir`, leaving out builds and the generated API types (types only: they make no code). */
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return full === BUILD_DIR || full === GENERATED_DIR ? [] : filesUnder(full)
    return [full]
  })

/** What the bundle is made of: a change to any of these makes a new build. */
const sourceKey = (): string => {
  const hash = createHash("sha256")
  const inputs = [
    ...filesUnder(WEB_DIR),
    ...filesUnder(path.join(ROOT, "richtext")),
    path.join(ROOT, "package-lock.json"),
    fileURLToPath(import.meta.url)
  ].sort()
  for (const file of inputs) {
    if (!existsSync(file)) continue
    hash.update(path.relative(ROOT, file)).update("\0").update(readFileSync(file)).update("\0")
  }
  return hash.digest("hex").slice(0, 16)
}

const bundle = async (outDir: string) => {
  // Loaded only to build: a start that finds its build (every start but the first after a change) never pays for Vite.
  const { build } = await import("vite")
  await build({
    root: WEB_DIR,
    configFile: false,
    envFile: false,
    logLevel: "error",
    clearScreen: false,
    mode: "production",
    base: "/",
    publicDir: false,
    // React's production build and JSX transform, whatever NODE_ENV the starting process has (vitest sets "test").
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    oxc: { jsx: { runtime: "automatic", development: false } },
    build: {
      outDir,
      emptyOutDir: true,
      assetsDir: "assets",
      target: "es2022",
      sourcemap: true,
      reportCompressedSize: false,
      // Splits per area come from the app's lazy routes; each area's chunk is named after it.
      rolldownOptions: {
        output: {
          entryFileNames: "assets/app-[hash].js",
          chunkFileNames: (chunk) => `assets/${/\/areas\/(\w+)\//.exec(chunk.facadeModuleId ?? "")?.[1] ?? "[name]"}-[hash].js`
        }
      }
    }
  })
}

const contentTypeOf = (file: string) => CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream"

/** Where a file's gzipped copy is kept (written at build when it is smaller than the file). */
const gzipFile = (file: string) => `${file}.gz`

/** Writes `<file>.gz` beside every file of the build worth compressing. */
const compress = (dir: string) => {
  const files = [path.join(dir, "index.html"), ...readdirSync(path.join(dir, "assets")).map((name) => path.join(dir, "assets", name))]
  for (const file of files) {
    const body = readFileSync(file)
    if (!/^(text\/|application\/json|image\/svg)/.test(contentTypeOf(file)) || body.byteLength <= 1024) continue
    const gzip = gzipSync(body, { level: 9 })
    if (gzip.byteLength < body.byteLength) writeFileSync(gzipFile(file), gzip)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Builds the assets unless this version is built already; returns their folder. */
export const ensureBuilt = async (): Promise<string> => {
  const target = path.join(BUILD_DIR, sourceKey())
  const lock = `${target}.lock`
  mkdirSync(BUILD_DIR, { recursive: true })
  for (;;) {
    if (existsSync(path.join(target, "index.html"))) return target
    try {
      mkdirSync(lock)
      break
    } catch {
      // Another process builds this version: wait for it, or take over a lock its builder left behind.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true })
      else await sleep(250)
    }
  }
  // Build beside the target and rename: a reader never sees half a build.
  const scratch = `${target}.tmp-${process.pid}-${Date.now().toString(36)}`
  try {
    if (existsSync(path.join(target, "index.html"))) return target
    await writeApiTypes()
    await bundle(scratch)
    compress(scratch)
    renameSync(scratch, target)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
    rmSync(lock, { recursive: true, force: true })
  }
  return target
}

/**
 * A built file, read (with its gzipped copy) on its first request and kept: a server nobody opens in a
 * browser holds none of the bundle, its chunks or their source maps.
 */
class BuiltFile implements Asset {
  readonly contentType: string
  readonly cacheControl: string
  private contents: { readonly body: Buffer; readonly gzip: Buffer | undefined; readonly etag: string } | undefined

  constructor(
    private readonly file: string,
    immutable: boolean
  ) {
    this.contentType = contentTypeOf(file)
    // Hashed names never change content; index.html names them, so it is revalidated every time.
    this.cacheControl = immutable ? "public, max-age=31536000, immutable" : "no-cache"
  }

  private read() {
    if (this.contents === undefined) {
      const body = readFileSync(this.file)
      const gzip = existsSync(gzipFile(this.file)) ? readFileSync(gzipFile(this.file)) : undefined
      this.contents = { body, gzip, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` }
    }
    return this.contents
  }

  get body(): Buffer {
    return this.read().body
  }

  get gzip(): Buffer | undefined {
    return this.read().gzip
  }

  get etag(): string {
    return this.read().etag
  }
}

/** The built files by URL path (`/`, `/index.html`, `/assets/app-XXXX.js`…). */
const loadAssets = (dir: string): ReadonlyMap<string, Asset> => {
  const assets = new Map<string, Asset>()
  const index = new BuiltFile(path.join(dir, "index.html"), false)
  assets.set("/", index)
  assets.set("/index.html", index)
  const assetDir = path.join(dir, "assets")
  for (const name of readdirSync(assetDir)) {
    if (name.endsWith(".gz")) continue
    if (statSync(path.join(assetDir, name)).isFile()) assets.set(`/assets/${name}`, new BuiltFile(path.join(assetDir, name), true))
  }
  return assets
}

let loaded: Promise<ReadonlyMap<string, Asset>> | undefined

/**
 * The assets, built if needed and listed once per process (each file is read
 * on its first request): hashing the sources and reading the build cost a fraction of a second,
 * which every server start in a process (the tests start hundreds) would pay
 * again. A failed build is not kept, so the next start tries again.
 */
export const webAssets = (): Promise<ReadonlyMap<string, Asset>> => {
  if (loaded === undefined) {
    loaded = ensureBuilt().then(loadAssets)
    loaded.catch(() => {
      loaded = undefined
    })
  }
  return loaded
}
