/**
 * The workspace's members with their roles and, for admins, role changes,
 * removal and invitations (send, resend, revoke). Members see the list only.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useParams } from "react-router"
import { client } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { day } from "../common/time.ts"
import { useWorkspaceRole } from "../common/useMe.ts"

const roles = ["admin", "member", "viewer"] as const
type Role = (typeof roles)[number]

const Invitations = ({ workspaceId }: { readonly workspaceId: string }) => {
  const queryClient = useQueryClient()
  const key = ["hub", "invitations", workspaceId]
  const path = { workspaceId }
  const invitations = useQuery({
    queryKey: key,
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/invitations", { params: { path, query: { status: "pending" } } }))
  })
  const [email, setEmail] = useState("")
  const [role, setRole] = useState<Role>("member")
  const refresh = () => queryClient.invalidateQueries({ queryKey: key })
  const invite = useMutation({
    mutationFn: () => unwrap(client.POST("/hub/v1/workspaces/{workspaceId}/invitations", { params: { path }, body: { email, role } })),
    onSuccess: (sent) => {
      setEmail("")
      announce(`Invitation sent to ${sent.email}`)
      void refresh()
    }
  })
  const resend = useMutation({
    mutationFn: (invitationId: string) =>
      unwrap(
        client.POST("/hub/v1/workspaces/{workspaceId}/invitations/{invitationId}/resend", {
          params: { path: { workspaceId, invitationId } },
          body: {}
        })
      ),
    onSuccess: () => {
      announce("Invitation sent again")
      void refresh()
    }
  })
  const revoke = useMutation({
    mutationFn: (invitationId: string) =>
      unwrap(
        client.DELETE("/hub/v1/workspaces/{workspaceId}/invitations/{invitationId}", { params: { path: { workspaceId, invitationId } } })
      ),
    onSuccess: refresh
  })
  const failure = invite.error ?? resend.error ?? revoke.error
  return (
    <section aria-labelledby="invitations-heading">
      <h3 id="invitations-heading">Invitations</h3>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          invite.mutate()
        }}
      >
        <label>
          E-mail <input type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} required />
        </label>
        <label>
          Role
          <select value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
            {roles.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={invite.isPending}>
          Invite
        </button>
      </form>
      {failure ? <ErrorMessage error={failure} /> : null}
      {invitations.isError ? <ErrorMessage error={invitations.error} what="Invitations" /> : null}
      {invitations.data && invitations.data.items.length === 0 ? <p className="muted">No pending invitations.</p> : null}
      <ul className="card-list">
        {invitations.data?.items.map((invitation) => (
          <li key={invitation.id} className="card row">
            <span>
              {invitation.email} · {invitation.role} · expires {day(invitation.expiresAt)}
            </span>
            <button type="button" onClick={() => resend.mutate(invitation.id)} aria-label={`Resend invitation to ${invitation.email}`}>
              Resend
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => revoke.mutate(invitation.id)}
              aria-label={`Revoke invitation to ${invitation.email}`}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}

export const Members = () => {
  const workspaceId = useParams().workspaceId!
  const queryClient = useQueryClient()
  const { isAdmin, userId } = useWorkspaceRole(workspaceId)
  const key = ["hub", "members", workspaceId]
  const members = useQuery({
    queryKey: key,
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/members", { params: { path: { workspaceId } } }))
  })
  const change = useMutation({
    mutationFn: ({ memberId, role }: { memberId: string; role: Role }) =>
      unwrap(
        client.PATCH("/hub/v1/workspaces/{workspaceId}/members/{userId}", {
          params: { path: { workspaceId, userId: memberId } },
          body: { role }
        })
      ),
    onSuccess: (member) => {
      announce(`${member.name} is now ${member.role}`)
      void queryClient.invalidateQueries({ queryKey: key })
    }
  })
  const remove = useMutation({
    mutationFn: (memberId: string) =>
      unwrap(client.DELETE("/hub/v1/workspaces/{workspaceId}/members/{userId}", { params: { path: { workspaceId, userId: memberId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key })
  })
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      {members.isPending ? <Loading what="members" /> : null}
      {members.isError ? <ErrorMessage error={members.error} what="Members" /> : null}
      {change.isError ? <ErrorMessage error={change.error} /> : null}
      {remove.isError ? <ErrorMessage error={remove.error} /> : null}
      {members.data ? (
        <div className="table-scroll">
          <table className="table">
            <caption className="visually-hidden">Workspace members</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                {isAdmin ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {members.data.items.map((member) => {
                const editable = isAdmin && member.role !== "owner" && member.userId !== userId
                return (
                  <tr key={member.userId}>
                    <td>{member.name}</td>
                    <td>{member.email}</td>
                    <td>
                      {editable ? (
                        <select
                          aria-label={`Role of ${member.name}`}
                          value={member.role}
                          onChange={(event) => change.mutate({ memberId: member.userId, role: event.currentTarget.value as Role })}
                        >
                          {roles.map((option) => (
                            <option key={option} value={option}>
                              {option}
                            </option>
                          ))}
                        </select>
                      ) : (
                        member.role
                      )}
                    </td>
                    {isAdmin ? (
                      <td>
                        {editable ? (
                          <button
                            type="button"
                            className="danger"
                            onClick={() => remove.mutate(member.userId)}
                            aria-label={`Remove ${member.name}`}
                          >
                            Remove
                          </button>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {isAdmin ? <Invitations workspaceId={workspaceId} /> : <p className="muted">Only admins invite people and change roles.</p>}
    </section>
  )
}
