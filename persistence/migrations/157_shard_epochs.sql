-- Fencing tokens of the actor runtime (runtime/ShardFences.ts): a node that starts serving a shard bumps its
-- epoch here first, and every actor transaction of the shard checks (FOR SHARE) that the epoch its node holds
-- is still the current one, so a stalled former owner's late writes are refused.
CREATE TABLE shard_epochs (
  shard integer PRIMARY KEY,
  epoch bigint NOT NULL,
  owner text NOT NULL,
  acquired_at timestamptz NOT NULL DEFAULT now()
);
