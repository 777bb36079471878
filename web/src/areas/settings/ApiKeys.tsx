/**
 * API keys of the workspace: create one with a name and scopes (the key is
 * shown once), see each key's prefix and scopes, revoke. A key acts with its
 * creator's role; admins see every key, others their own.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useParams } from "react-router"
// The server's scope vocabulary itself (a plain table, no server code), so the choices are never stale.
import { scopes } from "../../api/generated/scopes.ts"
import { client } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { SecretOnce } from "../common/SecretOnce.tsx"
import { day } from "../common/time.ts"
import { useWorkspaceRole } from "../common/useMe.ts"

type Scope = keyof typeof scopes

const groups = Object.keys(scopes).reduce<Record<string, Array<Scope>>>((all, scope) => {
  const group = scope.split(":")[0]!
  all[group] = [...(all[group] ?? []), scope as Scope]
  return all
}, {})

const NewKey = ({ workspaceId, onCreated }: { readonly workspaceId: string; readonly onCreated: (key: string) => void }) => {
  const queryClient = useQueryClient()
  const [name, setName] = useState("")
  const [chosen, setChosen] = useState<ReadonlySet<Scope>>(new Set())
  const create = useMutation({
    mutationFn: () => unwrap(client.POST("/hub/v1/api-keys", { body: { workspaceId, name, scopes: [...chosen] } })),
    onSuccess: (created) => {
      setName("")
      setChosen(new Set())
      onCreated(created.key)
      void queryClient.invalidateQueries({ queryKey: ["hub", "api-keys", workspaceId] })
    }
  })
  const toggle = (scope: Scope, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current)
      if (on) next.add(scope)
      else next.delete(scope)
      return next
    })
  return (
    <form
      className="stack panel"
      aria-labelledby="new-key-heading"
      onSubmit={(event) => {
        event.preventDefault()
        create.mutate()
      }}
    >
      <h3 id="new-key-heading">New API key</h3>
      <label>
        Key name <input value={name} onChange={(event) => setName(event.currentTarget.value)} required maxLength={100} />
      </label>
      <fieldset className="scopes">
        <legend>Scopes</legend>
        {Object.entries(groups).map(([group, members]) => (
          <div key={group} className="scope-group">
            {members.map((scope) => (
              <label key={scope} className="check" title={scopes[scope]}>
                <input type="checkbox" checked={chosen.has(scope)} onChange={(event) => toggle(scope, event.currentTarget.checked)} />
                <span>
                  {scope} <span className="muted small">{scopes[scope]}</span>
                </span>
              </label>
            ))}
          </div>
        ))}
      </fieldset>
      <button type="submit" disabled={create.isPending || chosen.size === 0 || name.trim() === ""}>
        Create key
      </button>
      {create.isError ? <ErrorMessage error={create.error} /> : null}
    </form>
  )
}

export const ApiKeys = () => {
  const workspaceId = useParams().workspaceId!
  const queryClient = useQueryClient()
  const { isAdmin } = useWorkspaceRole(workspaceId)
  const [shown, setShown] = useState<string | null>(null)
  const keys = useQuery({
    queryKey: ["hub", "api-keys", workspaceId],
    queryFn: () => unwrap(client.GET("/hub/v1/api-keys", { params: { query: { workspaceId } } }))
  })
  const revoke = useMutation({
    mutationFn: (keyId: string) => unwrap(client.DELETE("/hub/v1/api-keys/{keyId}", { params: { path: { keyId } } })),
    onSuccess: () => {
      announce("Key revoked")
      void queryClient.invalidateQueries({ queryKey: ["hub", "api-keys", workspaceId] })
    }
  })
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <p className="muted">
        A key works in this workspace only, with its scopes and its creator's role.{" "}
        {isAdmin ? "As an admin you see every key." : "You see the keys you created."}
      </p>
      {shown ? <SecretOnce label="New API key" secret={shown} onDone={() => setShown(null)} /> : null}
      <NewKey workspaceId={workspaceId} onCreated={setShown} />
      {keys.isPending ? <Loading what="API keys" /> : null}
      {keys.isError ? <ErrorMessage error={keys.error} what="API keys" /> : null}
      {revoke.isError ? <ErrorMessage error={revoke.error} /> : null}
      {keys.data && keys.data.items.length === 0 ? <p>No keys yet.</p> : null}
      <ul className="card-list" aria-label="API keys">
        {keys.data?.items.map((key) => (
          <li key={key.id} className="card">
            <h3 className="card-title">{key.name}</h3>
            <p className="muted small">
              <span className="mono">{key.prefix}…</span> · created {day(key.createdAt)} · {key.scopes.join(", ")}
            </p>
            <button type="button" className="danger" onClick={() => revoke.mutate(key.id)} aria-label={`Revoke ${key.name}`}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
