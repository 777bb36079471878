/** Request and response examples of the operations in ChangelogEntries.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex, exampleEntry } from "./deskExamples.ts"

export const changelogEntriesExamples = examplesById({
  createChangelogEntry: [
    {
      name: "draft",
      request: { params: { boardId: ex.boardId }, body: { title: "Dark mode", kind: "new", markdown: "Dark mode is here." } },
      response: { status: 201, body: exampleEntry }
    }
  ],
  listChangelogEntries: [
    { name: "list", request: { params: { boardId: ex.boardId } }, response: { status: 200, body: { items: [exampleEntry] } } }
  ],
  updateChangelogEntry: [
    {
      name: "publish",
      request: { params: { changelogEntryId: ex.changelogEntryId }, body: { state: "published" } },
      response: { status: 200, body: { ...exampleEntry, state: "published", publishedAt: ex.at } }
    }
  ]
})
