/**
 * The team's changelog and milestones: entries (draft or published; a draft is
 * edited, publishing ships its linked requests) and milestones with a long-form
 * article written in Markdown and rendered from the shared rich-text schema,
 * each able to draft its changelog entry from the linked work.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useParams } from "react-router"
import { client } from "../../api/client.ts"
import { NewItemPanel } from "./NewItemPanel.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { day } from "../common/time.ts"
import { boardKey, usePermissions } from "./queries.ts"
import { ChangelogEntryCard, type ChangelogKind, changelogKinds, MilestoneCard, milestoneWhen } from "./ReleaseCards.tsx"
import { DraftFromMilestone, EditDraftEntry } from "./ReleaseDrafting.tsx"
import { ServerHtml } from "./ServerHtml.tsx"

const NewEntry = ({ boardId }: { readonly boardId: string }) => {
  const queryClient = useQueryClient()
  const [title, setTitle] = useState("")
  const [kind, setKind] = useState<ChangelogKind>("new")
  const [markdown, setMarkdown] = useState("")
  const [publish, setPublish] = useState(false)
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/feedback/v1/boards/{boardId}/changelog", {
          params: { path: { boardId } },
          body: { title, kind, markdown, state: publish ? "published" : "draft" }
        })
      ),
    onSuccess: () => {
      setTitle("")
      setMarkdown("")
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  return (
    <NewItemPanel summary="New changelog entry" submitLabel="Save entry" create={create}>
      <label>
        Title <input value={title} onChange={(event) => setTitle(event.currentTarget.value)} required maxLength={300} />
      </label>
      <label>
        Kind
        <select value={kind} onChange={(event) => setKind(event.currentTarget.value as ChangelogKind)}>
          {Object.entries(changelogKinds).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Text (Markdown) <textarea rows={4} value={markdown} onChange={(event) => setMarkdown(event.currentTarget.value)} />
      </label>
      <label className="check">
        <input type="checkbox" checked={publish} onChange={(event) => setPublish(event.currentTarget.checked)} /> Publish now
      </label>
    </NewItemPanel>
  )
}

const Article = ({ milestoneId, canEdit }: { readonly milestoneId: string; readonly canEdit: boolean }) => {
  const queryClient = useQueryClient()
  const key = ["feedback", "milestone-article", milestoneId]
  const article = useQuery({
    queryKey: key,
    queryFn: () => unwrap(client.GET("/feedback/v1/milestones/{milestoneId}/article", { params: { path: { milestoneId } } })),
    retry: false
  })
  const [editing, setEditing] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: (markdown: string) =>
      unwrap(client.PUT("/feedback/v1/milestones/{milestoneId}/article", { params: { path: { milestoneId } }, body: { markdown } })),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved)
      setEditing(null)
    }
  })
  return (
    <div>
      {article.data ? <ServerHtml html={article.data.html} /> : <p className="muted">No article yet.</p>}
      {canEdit && editing === null ? (
        <button type="button" onClick={() => setEditing(article.data?.markdown ?? "")}>
          Edit article
        </button>
      ) : null}
      {editing !== null ? (
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault()
            save.mutate(editing)
          }}
        >
          <label>
            Article (Markdown) <textarea rows={8} value={editing} onChange={(event) => setEditing(event.currentTarget.value)} />
          </label>
          <div className="row">
            <button type="submit" disabled={save.isPending}>
              Save article
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
          {save.isError ? <ErrorMessage error={save.error} /> : null}
        </form>
      ) : null}
    </div>
  )
}

export const Changelog = () => {
  const boardId = useParams().boardId!
  const queryClient = useQueryClient()
  const permissions = usePermissions(boardId)
  const team = permissions.data?.team === true
  const entries = useQuery({
    queryKey: [...boardKey(boardId), "changelog"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/changelog", { params: { path: { boardId } } }))
  })
  const milestones = useQuery({
    queryKey: [...boardKey(boardId), "milestones"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/milestones", { params: { path: { boardId } } }))
  })
  const [name, setName] = useState("")
  const createMilestone = useMutation({
    mutationFn: () => unwrap(client.POST("/feedback/v1/boards/{boardId}/milestones", { params: { path: { boardId } }, body: { name } })),
    onSuccess: () => {
      setName("")
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  const publish = useMutation({
    mutationFn: (id: string) =>
      unwrap(
        client.PATCH("/feedback/v1/changelog/{changelogEntryId}", {
          params: { path: { changelogEntryId: id } },
          body: { state: "published" }
        })
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
  })
  return (
    <div className="stack">
      <section aria-labelledby="changelog-heading">
        <h2 id="changelog-heading">Changelog</h2>
        {team ? <NewEntry boardId={boardId} /> : null}
        {entries.isPending ? <Loading what="the changelog" /> : null}
        {entries.isError ? <ErrorMessage error={entries.error} what="Changelog" /> : null}
        {publish.isError ? <ErrorMessage error={publish.error} /> : null}
        {entries.data && entries.data.items.length === 0 ? <p>No entries yet.</p> : null}
        {entries.data?.items.map((entry) => (
          <ChangelogEntryCard
            key={entry.id}
            title={entry.title}
            kind={entry.kind}
            dateLine={entry.state === "published" && entry.publishedAt ? `Published ${day(entry.publishedAt)}` : entry.state}
            html={entry.html}
          >
            {team && entry.state !== "published" ? (
              <>
                <EditDraftEntry boardId={boardId} entry={entry} />
                <button type="button" onClick={() => publish.mutate(entry.id)}>
                  Publish {entry.title}
                </button>
              </>
            ) : null}
          </ChangelogEntryCard>
        ))}
      </section>
      <section aria-labelledby="milestones-heading">
        <h2 id="milestones-heading">Milestones</h2>
        {team ? (
          <form
            className="inline-form"
            onSubmit={(event) => {
              event.preventDefault()
              createMilestone.mutate()
            }}
          >
            <label>
              New milestone <input value={name} onChange={(event) => setName(event.currentTarget.value)} required maxLength={200} />
            </label>
            <button type="submit" disabled={createMilestone.isPending}>
              Add milestone
            </button>
          </form>
        ) : null}
        {createMilestone.isError ? <ErrorMessage error={createMilestone.error} /> : null}
        {milestones.data?.items.map((milestone) => (
          <MilestoneCard
            key={milestone.id}
            name={milestone.name}
            dateLine={`${milestoneWhen(milestone, "Not scheduled")} · ${milestone.featureRequestIds.length} request${milestone.featureRequestIds.length === 1 ? "" : "s"}`}
          >
            <Article milestoneId={milestone.id} canEdit={team} />
            {team ? <DraftFromMilestone boardId={boardId} milestone={milestone} /> : null}
          </MilestoneCard>
        ))}
      </section>
    </div>
  )
}
