import { useQuery } from "@tanstack/react-query"
import { client } from "../../api/client.ts"
import { unwrap } from "./result.ts"

/** The signed-in user's hub profile, with their workspaces and roles. */
export const useHubMe = () => useQuery({ queryKey: ["hub", "me"], queryFn: () => unwrap(client.GET("/hub/v1/users/me")) })

export type WorkspaceRole = "owner" | "admin" | "member" | "viewer"

/** The caller's role in a workspace (undefined while loading), and whether it administers it. */
export const useWorkspaceRole = (
  workspaceId: string
): { readonly role: WorkspaceRole | undefined; readonly isAdmin: boolean; readonly userId: string | undefined } => {
  const me = useHubMe()
  const role = me.data?.workspaces.find((workspace) => workspace.id === workspaceId)?.role as WorkspaceRole | undefined
  return { role, isAdmin: role === "owner" || role === "admin", userId: me.data?.id }
}
