-- Core tables: actor state and blob metadata (blob bytes live in files under DATA_DIR/blobs).

create table actor_state (
  kind text not null,
  id text not null,
  state jsonb not null,
  version bigint not null,
  updated_at timestamptz not null default now(),
  primary key (kind, id)
);

create table blobs (
  key text primary key,
  content_type text not null,
  size bigint not null,
  created_at timestamptz not null default now()
);
