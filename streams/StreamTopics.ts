/**
 * The pub/sub topics of pm live events on one node. An event is published
 * once per topic that may want it; a socket joins only the topics of its
 * subscriptions (see StreamSession for how overlapping ones are folded).
 *
 *   pm/wa/<ws>          every event of the workspace (admins' workspace subscriptions)
 *   pm/w/<ws>           events outside private spaces (members' workspace subscriptions)
 *   pm/p/<ws>/<space>   events inside one private space (members of it)
 *   pm/s/<ws>/<space>   pm/l/<ws>/<list>   pm/t/<ws>/<task>
 *   pm/a/<ws>           control frames for every socket of the workspace (resync)
 *   pm/u/<ws>/<user>    one user's notifications in the workspace
 *   pm/b/<ws>/<board>   a feedback board's events (besides pm/wa: workspace admins see every board)
 *   pm/k/<ws>/<space>   a wiki space's events (besides pm/wa, likewise)
 *
 * Sockets that accept batch frames follow the same topics under `b/`.
 * StreamBatcher publishes events and notifications to both (one frame each on
 * the plain topics, batches under `b/`); control frames go to both as they are.
 */
import type { LoggedEvent } from "../actors/pm/EventLog.ts"

export const workspaceAllTopic = (ws: string) => `pm/wa/${ws}`
export const workspacePublicTopic = (ws: string) => `pm/w/${ws}`
export const privateSpaceTopic = (ws: string, spaceId: string) => `pm/p/${ws}/${spaceId}`
export const spaceTopic = (ws: string, spaceId: string) => `pm/s/${ws}/${spaceId}`
export const listTopic = (ws: string, listId: string) => `pm/l/${ws}/${listId}`
export const taskTopic = (ws: string, taskId: string) => `pm/t/${ws}/${taskId}`
export const controlTopic = (ws: string) => `pm/a/${ws}`
export const userTopic = (ws: string, userId: string) => `pm/u/${ws}/${userId}`
export const boardTopic = (ws: string, boardId: string) => `pm/b/${ws}/${boardId}`
export const wikiSpaceTopic = (ws: string, spaceId: string) => `pm/k/${ws}/${spaceId}`
/** The topic as followed by sockets that accept batch frames. */
export const batchedTopic = (topic: string) => `b/${topic}`

/** Every topic an event is published on. */
export const topicsOf = (event: LoggedEvent): Array<string> => {
  const ws = event.workspaceId
  const topics = [workspaceAllTopic(ws)]
  if (event.scope === "board") return [...topics, boardTopic(ws, event.entityId)]
  if (event.scope === "wikiSpace") return [...topics, wikiSpaceTopic(ws, event.entityId)]
  const { spaceId, listId, taskId } = event.path
  topics.push(event.privateSpace && spaceId !== undefined ? privateSpaceTopic(ws, spaceId) : workspacePublicTopic(ws))
  if (spaceId !== undefined) topics.push(spaceTopic(ws, spaceId))
  if (listId !== undefined) topics.push(listTopic(ws, listId))
  if (taskId !== undefined) topics.push(taskTopic(ws, taskId))
  return topics
}
