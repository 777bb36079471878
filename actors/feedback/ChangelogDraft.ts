/**
 * A changelog entry drafted from a milestone's requests and the pm tasks
 * linked to them: one line per task — its title, its short id and the
 * requests it closes — then the milestone's requests no task delivers, in the
 * shared rich-text schema (`richtext/`), for a person to edit and publish.
 */
import { type ProseMirrorNode, validateDoc } from "../../richtext/RichText.ts"

export interface DraftTask {
  readonly shortId: string
  readonly name: string
}

export interface DraftRequest {
  readonly id: string
  readonly shortId: string
  readonly title: string
  /** Its linked tasks the drafter may see, oldest link first. */
  readonly tasks: ReadonlyArray<DraftTask>
}

const text = (value: string, bold = false): ProseMirrorNode =>
  bold ? { type: "text", text: value, marks: [{ type: "bold" }] } : { type: "text", text: value }
const item = (...inline: ReadonlyArray<ProseMirrorNode>): ProseMirrorNode => ({
  type: "listItem",
  content: [{ type: "paragraph", content: [...inline] }]
})

const closes = (requests: ReadonlyArray<DraftRequest>) => requests.map((r) => `${r.shortId} "${r.title}"`).join(", ")

/** The draft's content: the milestone's description, a line per task (a task several requests share, once), then the rest. */
export const changelogDraft = (milestone: { readonly description: string }, requests: ReadonlyArray<DraftRequest>): ProseMirrorNode => {
  const byTask = new Map<string, { task: DraftTask; requests: Array<DraftRequest> }>()
  for (const request of requests)
    for (const task of request.tasks) {
      const entry = byTask.get(task.shortId) ?? { task, requests: [] }
      entry.requests.push(request)
      byTask.set(task.shortId, entry)
    }
  const lines = [...byTask.values()].map(({ task, requests: closed }) =>
    item(text(task.name, true), text(` (${task.shortId}) — closes ${closes(closed)}`))
  )
  const rest = requests
    .filter((request) => request.tasks.length === 0)
    .map((request) => item(text(request.title, true), text(` (${request.shortId})`)))
  const blocks: Array<ProseMirrorNode> = []
  if (milestone.description.trim() !== "") blocks.push({ type: "paragraph", content: [text(milestone.description.trim())] })
  if (lines.length > 0) blocks.push({ type: "bulletList", content: lines })
  if (rest.length > 0) {
    blocks.push({ type: "paragraph", content: [text(lines.length > 0 ? "Also in this release:" : "In this release:")] })
    blocks.push({ type: "bulletList", content: rest })
  }
  return validateDoc({ type: "doc", content: blocks })
}
