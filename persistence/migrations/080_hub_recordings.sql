-- Recordings and their calls (one row each: the call is the recording's metadata wrapper).
-- The recording id is a 64-bit integer; the call has its own integer id and a UUID.
CREATE SEQUENCE hub_call_ids;
CREATE TABLE hub_recordings (
  id bigserial PRIMARY KEY,
  call_id bigint NOT NULL UNIQUE DEFAULT nextval('hub_call_ids'),
  call_uuid text NOT NULL UNIQUE,
  workspace_id text NOT NULL,
  name text NOT NULL,
  created_by text NOT NULL,
  attendees jsonb NOT NULL DEFAULT '[]',
  calendar_event_id text,
  status text NOT NULL,
  percent integer NOT NULL DEFAULT 0,
  error text,
  segments jsonb NOT NULL DEFAULT '[]',
  media jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hub_recordings_workspace ON hub_recordings (workspace_id, id DESC);

-- Who takes part in a call (creator, attendees who are members, anyone who gave personal inputs).
CREATE TABLE hub_call_participants (
  recording_id bigint NOT NULL REFERENCES hub_recordings (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  notes text,
  prompt text,
  PRIMARY KEY (recording_id, user_id)
);
CREATE INDEX hub_call_participants_user ON hub_call_participants (user_id);

-- A user's note template (shapes their enhanced notes in every call).
CREATE TABLE hub_note_templates (
  user_id text PRIMARY KEY,
  name text NOT NULL,
  sections jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Generated versions, one per distinct set of inputs (input_key = hash of the inputs).
CREATE TABLE hub_call_versions (
  recording_id bigint NOT NULL REFERENCES hub_recordings (id) ON DELETE CASCADE,
  input_key text NOT NULL,
  is_default boolean NOT NULL,
  content jsonb NOT NULL,
  generated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (recording_id, input_key)
);

-- What users did with action items (complete, dismiss, assign), per call.
CREATE TABLE hub_action_item_states (
  recording_id bigint NOT NULL REFERENCES hub_recordings (id) ON DELETE CASCADE,
  action_item_id text NOT NULL,
  status text NOT NULL,
  assignee_email text,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (recording_id, action_item_id)
);

-- Processing jobs: a worker claims one (lease), and a restart resumes or fails it, never leaves it running.
CREATE TABLE hub_recording_jobs (
  recording_id bigint PRIMARY KEY REFERENCES hub_recordings (id) ON DELETE CASCADE,
  kind text NOT NULL,
  state text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hub_recording_jobs_state ON hub_recording_jobs (state, created_at);

-- Clips (highlights) of a recording.
CREATE TABLE hub_clips (
  id text PRIMARY KEY,
  recording_id bigint NOT NULL REFERENCES hub_recordings (id) ON DELETE CASCADE,
  title text NOT NULL,
  start_ms integer NOT NULL,
  end_ms integer NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hub_clips_recording ON hub_clips (recording_id, start_ms);
