/** Workspace settings (admins change them): the custom prompt every meeting summary starts from, and where action items go by default. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useParams } from "react-router"
import { client } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { useWorkspaceRole } from "../common/useMe.ts"

type Target = "tracker" | "taskapp" | "tablebase" | "pm"

const SettingsForm = ({
  workspaceId,
  prompt: savedPrompt,
  target: savedTarget,
  canEdit
}: {
  readonly workspaceId: string
  readonly prompt: string
  readonly target: Target | ""
  readonly canEdit: boolean
}) => {
  const queryClient = useQueryClient()
  const [prompt, setPrompt] = useState(savedPrompt)
  const [target, setTarget] = useState<Target | "">(savedTarget)
  const targets = useQuery({
    queryKey: ["hub", "integration-targets", workspaceId],
    queryFn: () =>
      unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/settings/integration-targets", { params: { path: { workspaceId } } }))
  })
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        client.PATCH("/hub/v1/workspaces/{workspaceId}/settings", {
          params: { path: { workspaceId } },
          body: { customPrompt: prompt.trim() === "" ? null : prompt, preferredIntegrationTarget: target === "" ? null : target }
        })
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(["hub", "workspace-settings", workspaceId], saved)
      announce("Workspace settings saved")
    }
  })
  return (
    <form
      className="stack narrow-form"
      onSubmit={(event) => {
        event.preventDefault()
        save.mutate()
      }}
    >
      <label>
        Custom prompt for meeting summaries
        <textarea rows={4} value={prompt} onChange={(event) => setPrompt(event.currentTarget.value)} maxLength={4000} disabled={!canEdit} />
      </label>
      <label>
        Preferred destination for action items
        <select value={target} onChange={(event) => setTarget(event.currentTarget.value as Target | "")} disabled={!canEdit}>
          <option value="">None</option>
          {targets.data?.items.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </select>
      </label>
      {canEdit ? (
        <button type="submit" disabled={save.isPending}>
          Save settings
        </button>
      ) : (
        <p className="muted">Only admins change workspace settings.</p>
      )}
      {save.isError ? <ErrorMessage error={save.error} /> : null}
    </form>
  )
}

export const WorkspaceSettings = () => {
  const workspaceId = useParams().workspaceId!
  const { isAdmin } = useWorkspaceRole(workspaceId)
  const settings = useQuery({
    queryKey: ["hub", "workspace-settings", workspaceId],
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/settings", { params: { path: { workspaceId } } }))
  })
  return (
    <section aria-labelledby="workspace-settings-heading">
      <h2 id="workspace-settings-heading">Workspace</h2>
      {settings.isPending ? <Loading what="settings" /> : null}
      {settings.isError ? <ErrorMessage error={settings.error} what="Workspace settings" /> : null}
      {settings.data ? (
        <SettingsForm
          key={settings.data.updatedAt ?? "new"}
          workspaceId={workspaceId}
          prompt={settings.data.customPrompt ?? ""}
          target={settings.data.preferredIntegrationTarget ?? ""}
          canEdit={isAdmin}
        />
      ) : null}
    </section>
  )
}
