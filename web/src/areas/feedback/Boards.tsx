/** The workspace's feedback boards the user may see; admins create new ones. */
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { Link, useNavigate, useParams } from "react-router"
import { client } from "../../api/client.ts"
import { NewItemPanel } from "./NewItemPanel.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { portalHref } from "../common/links.ts"
import { unwrap } from "../common/result.ts"
import { useWorkspaceRole } from "../common/useMe.ts"
import { useBoards } from "./queries.ts"

const NewBoard = ({ workspaceId }: { readonly workspaceId: string }) => {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [name, setName] = useState("")
  const [slug, setSlug] = useState("")
  const [visibility, setVisibility] = useState<"public" | "members" | "private">("public")
  const create = useMutation({
    mutationFn: () => unwrap(client.POST("/feedback/v1/boards", { body: { workspaceId, name, slug, visibility } })),
    onSuccess: (board) => {
      void queryClient.invalidateQueries({ queryKey: ["feedback", "boards", workspaceId] })
      navigate(board.id)
    }
  })
  return (
    <NewItemPanel summary="New board" submitLabel="Create board" create={create}>
      <label>
        Name
        <input
          value={name}
          required
          maxLength={120}
          onChange={(event) => {
            const next = event.currentTarget.value
            setName(next)
            setSlug(
              next
                .toLowerCase()
                .replace(/[^a-z0-9]+/g, "-")
                .replace(/^-|-$/g, "")
                .slice(0, 60)
            )
          }}
        />
      </label>
      <label>
        Address (slug){" "}
        <input value={slug} required maxLength={60} pattern="[a-z0-9-]+" onChange={(event) => setSlug(event.currentTarget.value)} />
      </label>
      <label>
        Visibility
        <select value={visibility} onChange={(event) => setVisibility(event.currentTarget.value as typeof visibility)}>
          <option value="public">Public: anyone, no account needed</option>
          <option value="members">Workspace members</option>
          <option value="private">Private: admins and board members</option>
        </select>
      </label>
    </NewItemPanel>
  )
}

export const Boards = () => {
  const workspaceId = useParams().workspaceId!
  const boards = useBoards(workspaceId)
  const { isAdmin } = useWorkspaceRole(workspaceId)
  useEffect(() => {
    document.title = "Feedback · Atrium"
  }, [])
  return (
    <section aria-labelledby="feedback-title" className="area-page">
      <h1 id="feedback-title">Feedback</h1>
      {isAdmin ? <NewBoard workspaceId={workspaceId} /> : null}
      {boards.isPending ? <Loading what="boards" /> : null}
      {boards.isError ? <ErrorMessage error={boards.error} what="The feedback boards could not be loaded" /> : null}
      {boards.data?.items.length === 0 ? <p>No feedback boards yet.</p> : null}
      <ul className="card-list">
        {boards.data?.items.map((board) => (
          <li key={board.id} className="card">
            <h2 className="card-title">
              <Link to={board.id}>{board.name}</Link>
            </h2>
            <p className="muted small">
              {board.visibility}
              {board.visibility === "public" ? (
                <>
                  {" · "}
                  <Link to={portalHref(board.slug, workspaceId)}>Public portal of {board.name}</Link>
                </>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </section>
  )
}
