/** The meetings area's reads: one query key per resource, shared by every view of it. */
import { useQuery } from "@tanstack/react-query"
import { client } from "../../api/client.ts"
import { unwrap } from "../common/result.ts"

export const meetingKeys = {
  calls: (workspaceId: string) => ["hub", "calls", workspaceId] as const,
  call: (callId: number) => ["hub", "call", callId] as const,
  transcript: (callId: number) => ["hub", "transcript", callId] as const,
  progress: (recordingId: number) => ["hub", "progress", recordingId] as const,
  sentTasks: (callUuid: string) => ["hub", "sent-tasks", callUuid] as const,
  calendar: ["hub", "calendar"] as const,
  webhooks: ["hub", "user-webhooks"] as const
}

export const useCalls = (workspaceId: string) =>
  useQuery({
    queryKey: meetingKeys.calls(workspaceId),
    queryFn: () => unwrap(client.GET("/hub/v1/calls", { params: { query: { workspaceId } } }))
  })

export const useCall = (callId: number) =>
  useQuery({
    queryKey: meetingKeys.call(callId),
    queryFn: () => unwrap(client.GET("/hub/v1/calls/{callId}", { params: { path: { callId: String(callId) } } }))
  })

export const useTranscript = (callId: number) =>
  useQuery({
    queryKey: meetingKeys.transcript(callId),
    queryFn: () => unwrap(client.GET("/hub/v1/calls/{callId}/transcript", { params: { path: { callId: String(callId) } } }))
  })

/** Polled while the recording is queued or processing (processing reports no events to stream). */
export const useProgress = (recordingId: number, enabled: boolean) =>
  useQuery({
    queryKey: meetingKeys.progress(recordingId),
    queryFn: () =>
      unwrap(client.GET("/hub/v1/recordings/{recordingId}/progress", { params: { path: { recordingId: String(recordingId) } } })),
    enabled,
    refetchInterval: (query) => (query.state.data?.status === "ready" || query.state.data?.status === "failed" ? false : 700)
  })

export const useSentTasks = (callUuid: string) =>
  useQuery({
    queryKey: meetingKeys.sentTasks(callUuid),
    queryFn: () => unwrap(client.GET("/hub/v1/calls/by-uuid/{callUuid}/tasks", { params: { path: { callUuid } } }))
  })

export const useAllLists = (workspaceId: string) =>
  useQuery({
    queryKey: ["pm", "all-lists", workspaceId],
    queryFn: () => unwrap(client.GET("/pm/v1/workspaces/{workspaceId}/lists", { params: { path: { workspaceId } } }))
  })
