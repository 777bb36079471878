-- A processed call's customer asks (an external attendee's sentence asking for, or
-- complaining about, a capability), each offered as a proposal: a vote on behalf of the
-- attendee for a similar feature request, or a new request. Nothing reaches the board
-- until a workspace member confirms (applied with their own credentials); rejecting
-- writes nothing. One row per ask of a recording: reprocessing keeps earlier decisions.
-- actors/hub/CallProposals.ts is their single writer.
CREATE TABLE hub_call_proposals (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  recording_id bigint NOT NULL REFERENCES hub_recordings (id) ON DELETE CASCADE,
  call_id bigint NOT NULL,
  ask_key text NOT NULL,                     -- the ask's segment start and text, hashed
  speaker_email text NOT NULL,
  said text NOT NULL,
  start_ms integer NOT NULL,
  end_ms integer NOT NULL,
  board_id text NOT NULL,                    -- feedback's board (its row: no foreign key)
  request_id text,                           -- the similar request a vote goes to; null: create one
  operation_id text NOT NULL,
  title text NOT NULL,
  input jsonb NOT NULL,
  status text NOT NULL DEFAULT 'proposed' CHECK (status IN ('proposed', 'applying', 'applied', 'rejected')),
  result jsonb,
  decided_by text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (recording_id, ask_key)
);
CREATE INDEX hub_call_proposals_of_workspace ON hub_call_proposals (workspace_id, created_at DESC);
