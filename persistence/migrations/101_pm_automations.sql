-- Automation rules (trigger → conditions → actions), run from the change log.
CREATE TABLE pm_automation_rules (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  enabled boolean NOT NULL DEFAULT true,
  scope_type text,                                    -- space | folder | list, or NULL for the whole workspace
  scope_id text,
  trigger jsonb NOT NULL,
  conditions jsonb NOT NULL DEFAULT '[]',
  actions jsonb NOT NULL,
  since_seq bigint NOT NULL DEFAULT 0,                -- the rule reacts to changes after this seq (set when created or enabled)
  run_count integer NOT NULL DEFAULT 0,
  failure_count integer NOT NULL DEFAULT 0,
  last_run_at timestamptz,
  last_status text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pm_automation_rules_workspace ON pm_automation_rules (workspace_id);

-- One run per (rule, triggering change): the unique key is what makes a rule fire once per change.
CREATE TABLE pm_automation_runs (
  id text PRIMARY KEY,
  rule_id text NOT NULL REFERENCES pm_automation_rules (id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  trigger_key text NOT NULL,                          -- "seq:<n>", "due:<taskId>:<dueDate>" or "manual:<uuid>"
  trigger_type text NOT NULL,
  task_id text,
  depth integer NOT NULL DEFAULT 0,
  status text NOT NULL,                               -- running | succeeded | failed | skipped | loop_cut | interrupted
  results jsonb NOT NULL DEFAULT '[]',
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX pm_automation_runs_once ON pm_automation_runs (rule_id, trigger_key);
CREATE INDEX pm_automation_runs_rule ON pm_automation_runs (rule_id, started_at DESC);
CREATE INDEX pm_automation_runs_failed ON pm_automation_runs (started_at DESC) WHERE status IN ('failed', 'loop_cut', 'interrupted');

-- How far each workspace's rules have read the change log, and which node is reading it.
CREATE TABLE pm_automation_cursors (
  workspace_id text PRIMARY KEY,
  last_seq bigint NOT NULL,
  lease_owner text,
  lease_until timestamptz
);

-- Changes made by rules: their origin (the rules that led to them), so chains are bounded.
CREATE TABLE pm_automation_origins (
  workspace_id text NOT NULL,
  seq bigint NOT NULL,
  rule_chain text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, seq)
);
