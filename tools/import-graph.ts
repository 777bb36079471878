/**
 * The import graph's rules (`npm run lint`): no import loop anywhere in the
 * tree, and no import from a lower folder to a higher one —
 * runtime ← persistence ← actors ← facade ← server, with collab/ and streams/
 * beside facade (they may import actors/, persistence/, runtime/, not facade/);
 * server/ is the composition root, the one folder that puts them together.
 * web/ is the browser app: it imports none of the server's folders, and they
 * import nothing of it. richtext/ (the editors' schema and its conversions) is
 * shared by both: any folder may import it, and it imports neither. Type-only imports count: a layer that knows a higher
 * one's types is coupled to it all the same. And facade/ does not import
 * persistence/ at all: operations call the services' read modules and actors
 * under actors/, which own the SQL (issue 23).
 *
 *   node --import tsx tools/import-graph.ts [root]   (prints the counts; exits 1 on a violation)
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import path from "node:path"

const root = path.resolve(process.argv[2] ?? ".")

/** Folders by layer: an import may point to its own layer or a lower one. */
const layers: Readonly<Record<string, number>> = {
  runtime: 0,
  persistence: 1,
  actors: 2,
  facade: 3,
  collab: 3,
  streams: 3,
  // The composition root (server/Atrium.ts, server/main.ts): it builds every layer, so it may import every folder.
  server: 4
}
/** Shared by the server and the browser app: importable from anywhere, importing no other folder of the tree. */
const shared = new Set(["richtext"])
/**
 * The one loader of uWebSockets.js (the brief puts it at facade/uws.ts). It imports nothing of the tree, so
 * collab/ and streams/ importing it are coupled to the library, not to the facade; should it ever import a
 * file of the tree, those arrows count again.
 */
const libraryLoaders = new Set(["facade/uws.ts"])
/** Beside facade: they serve it and may not reach into it. */
const besideFacade = new Set(["collab", "streams"])
const server = new Set(Object.keys(layers))

const skipped = new Set(["node_modules", ".git", "data", ".tmp", "test-results", "dist"])

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    if (skipped.has(name)) return []
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts") ? [full] : []
  })

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g

const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1")

const importsOf = (file: string): Array<string> => {
  const text = stripComments(readFileSync(file, "utf8"))
  const found: Array<string> = []
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2]!
    if (!specifier.startsWith(".")) continue
    const target = path.resolve(path.dirname(file), specifier)
    if (existsSync(target) && statSync(target).isFile()) found.push(target)
  }
  return found
}

const folderOf = (file: string) => path.relative(root, file).split(path.sep)[0]!
const relative = (file: string) => path.relative(root, file).split(path.sep).join("/")

const files = sourceFiles(root)
const graph = new Map(files.map((file) => [file, importsOf(file)]))

// Upward arrows
const upward: Array<string> = []
for (const [from, targets] of graph) {
  const fromFolder = folderOf(from)
  for (const to of targets) {
    const toFolder = folderOf(to)
    if (fromFolder === toFolder) continue
    if (shared.has(toFolder)) continue
    if (libraryLoaders.has(relative(to)) && (graph.get(to) ?? []).length === 0) continue
    if (shared.has(fromFolder)) {
      upward.push(`${relative(from)} -> ${relative(to)}`)
      continue
    }
    const crossesWeb = (fromFolder === "web") !== (toFolder === "web") && (server.has(fromFolder) || server.has(toFolder))
    const fromLayer = layers[fromFolder]
    const toLayer = layers[toFolder]
    const up =
      fromLayer !== undefined && toLayer !== undefined && (toLayer > fromLayer || (besideFacade.has(fromFolder) && toFolder === "facade"))
    if (up || crossesWeb) upward.push(`${relative(from)} -> ${relative(to)}`)
  }
}

// facade/ -> persistence/
const facadeToPersistence: Array<string> = []
for (const [from, targets] of graph) {
  if (folderOf(from) !== "facade") continue
  for (const to of targets) if (folderOf(to) === "persistence") facadeToPersistence.push(`${relative(from)} -> ${relative(to)}`)
}

// Loops: strongly connected components (Tarjan), each of more than one file or a file importing itself
const loops: Array<Array<string>> = []
{
  let index = 0
  const indices = new Map<string, number>()
  const lowlink = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const strongConnect = (start: string) => {
    // iterative, the tree is deep enough to matter
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }]
    indices.set(start, index)
    lowlink.set(start, index++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const targets = graph.get(frame.node) ?? []
      if (frame.next < targets.length) {
        const to = targets[frame.next++]!
        if (!graph.has(to)) continue
        if (!indices.has(to)) {
          indices.set(to, index)
          lowlink.set(to, index++)
          stack.push(to)
          onStack.add(to)
          work.push({ node: to, next: 0 })
        } else if (onStack.has(to)) lowlink.set(frame.node, Math.min(lowlink.get(frame.node)!, indices.get(to)!))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) lowlink.set(parent.node, Math.min(lowlink.get(parent.node)!, lowlink.get(frame.node)!))
      if (lowlink.get(frame.node) === indices.get(frame.node)) {
        const component: Array<string> = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) loops.push(component.map(relative).sort())
      }
    }
  }
  for (const file of files) if (!indices.has(file)) strongConnect(file)
}

console.log(
  `import graph: ${files.length} files, ${loops.length} loop(s), ${upward.length} arrow(s) from a lower folder to a higher one, ${facadeToPersistence.length} import(s) of persistence/ from facade/`
)
for (const loop of loops) console.log(`  loop of ${loop.length}: ${loop.join(", ")}`)
for (const arrow of upward) console.log(`  upward: ${arrow}`)
for (const arrow of facadeToPersistence) console.log(`  facade imports persistence: ${arrow}`)
if (loops.length > 0 || upward.length > 0 || facadeToPersistence.length > 0) process.exit(1)
