/** The app's URLs for things the areas link to (one place, so a route change is one edit). */
/** A call's page; with a moment (and the end of a cited passage) its transcript opens there. */
export const callHref = (workspaceId: string, callId: number | string, atMs?: number, untilMs?: number): string => {
  const query =
    atMs === undefined ? "" : `?t=${Math.max(0, Math.round(atMs))}${untilMs === undefined ? "" : `&until=${Math.round(untilMs)}`}`
  return `/w/${workspaceId}/meetings/${callId}${query}`
}
export const taskHref = (workspaceId: string, taskId: string): string => `/w/${workspaceId}/work/tasks/${taskId}`
export const pageHref = (workspaceId: string, spaceId: string, pageId: string): string => `/w/${workspaceId}/wiki/${spaceId}/${pageId}`
export const boardHref = (workspaceId: string, boardId: string): string => `/w/${workspaceId}/feedback/${boardId}`
export const requestHref = (workspaceId: string, boardId: string, requestId: string): string =>
  `/w/${workspaceId}/feedback/${boardId}/requests/${requestId}`
export const portalHref = (slug: string, workspaceId?: string): string =>
  `/portal/${encodeURIComponent(slug)}${workspaceId === undefined ? "" : `?workspace=${encodeURIComponent(workspaceId)}`}`
