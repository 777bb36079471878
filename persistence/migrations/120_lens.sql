-- Lens, the workspace assistant: threads and their answered turns, feedback
-- per answer, agent-loop writes proposed before they are applied, and the AI
-- accounting (credit balance, ledger, metered usage per workspace and user).
CREATE TABLE lens_threads (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  user_id text NOT NULL,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lens_threads_of_user ON lens_threads (workspace_id, user_id, updated_at DESC);

CREATE TABLE lens_turns (
  id text PRIMARY KEY,
  thread_id text NOT NULL REFERENCES lens_threads (id) ON DELETE CASCADE,
  position integer NOT NULL,
  message text NOT NULL,
  resolved_query text NOT NULL,
  answer text NOT NULL,
  route text NOT NULL,
  citations jsonb NOT NULL,
  trace jsonb NOT NULL,
  follow_ups jsonb NOT NULL,
  variant text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (thread_id, position)
);

CREATE TABLE lens_feedback (
  answer_id text NOT NULL REFERENCES lens_turns (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  rating text NOT NULL,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (answer_id, user_id)
);

CREATE TABLE lens_proposals (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  user_id text NOT NULL,
  answer_id text NOT NULL,
  operation_id text NOT NULL,
  title text NOT NULL,
  input jsonb NOT NULL,
  status text NOT NULL DEFAULT 'proposed',
  result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz
);
CREATE INDEX lens_proposals_of_user ON lens_proposals (workspace_id, user_id, created_at DESC);

CREATE TABLE lens_credits (
  workspace_id text PRIMARY KEY,
  balance integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE lens_credit_ledger (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  delta integer NOT NULL,
  reason text NOT NULL,
  user_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lens_credit_ledger_recent ON lens_credit_ledger (workspace_id, created_at DESC);

CREATE TABLE lens_usage (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  user_id text NOT NULL,
  engine text NOT NULL,
  purpose text NOT NULL,
  model text,
  prompt_tokens integer NOT NULL,
  completion_tokens integer NOT NULL,
  credits integer NOT NULL,
  duration_ms integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lens_usage_recent ON lens_usage (workspace_id, created_at DESC);
